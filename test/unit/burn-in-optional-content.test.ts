import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
import { boxedRelease, popplerText } from '../helpers/burn-producers.js';
import { darkShare, differingPixels, render, standardFont } from '../helpers/vector-pdfs.js';

// Optional content (layers) on a page with a box: the page is redacted in its content, not rendered, when its
// layers show. A layer that is off in the source would show in the release (which carries no layer
// configuration): the two-way check sees it and renders the page.
// Oracles: poppler's pdftotext and pdftoppm.

async function layeredPdf(state: 'ON' | 'OFF'): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([612, 792]);
  const group = doc.context.register(doc.context.obj({ Type: 'OCG', Name: 'Notes layer' }));
  const content = [
    'BT /F1 14 Tf 72 700 Td (Keepword Secretword Otherword) Tj ET',
    '/OC /L1 BDC BT /F1 12 Tf 72 640 Td (Layered note text) Tj ET EMC',
  ].join('\n');
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
  page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: standardFont('Helvetica') }, Properties: { L1: group } }));
  doc.catalog.set(PDFName.of('OCProperties'), doc.context.obj({ OCGs: [group], D: { Order: [group], ...(state === 'OFF' ? { OFF: [group] } : { ON: [group] }) } }));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('optional content and content redaction', () => {
  it('a layer that shows: the page is redacted in its content, the layer kept as it was', async () => {
    const source = await layeredPdf('ON');
    expect(popplerText(source)).toContain('Layered note text');
    const { bytes, page, drawn } = await boxedRelease(source);
    expect(page.method, JSON.stringify(page)).toBe('vector');
    const text = popplerText(bytes);
    expect(text).not.toContain('Secretword');
    expect(text).toMatch(/Keepword +Otherword/);
    expect(text).toContain('Layered note text');
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
  }, 60_000);

  it('a layer that is off: the release does not show it (the page is rendered as the source shows)', async () => {
    const source = await layeredPdf('OFF');
    const { bytes, page } = await boxedRelease(source);
    expect(page.method).toBe('raster');
    expect(page.method === 'raster' && page.fallback).toMatch(/^the page holds text its viewer does not show \(optional-content: \d+ glyph\(s\)\)$/);
    // Where the hidden layer's text lies, the release is as blank as the source.
    const layerArea = { x1: 70, y1: 634, x2: 200, y2: 654 };
    expect(darkShare(render(source), 792, layerArea)).toBe(0);
    expect(darkShare(render(bytes), 792, layerArea)).toBe(0);
    expect(popplerText(bytes)).not.toContain('Secretword');
  }, 60_000);
});
