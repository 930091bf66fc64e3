import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import type { BurnBox, BurnedPage } from '../../main/common/export-tasks.js';
import { bboxWords, boxOver, popplerText, release } from '../helpers/burn-producers.js';
import { box, differingPixels, render, standardFont } from '../helpers/vector-pdfs.js';

// Text an annotation shows (a FreeText note's appearance) is flattened into the released page's content, so it
// stays visible and searchable. The leak check reads the flattened page, so a word the note repeats away from
// every box is not taken for one left under a box (which sent such pages to rendering). Oracles: poppler.

async function notedPdf(extra = ''): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([612, 792]);
  const fonts = { Font: { F1: standardFont('Helvetica') } };
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(`BT /F1 14 Tf 72 700 Td (Keepword Secretword Otherword) Tj ET${extra}`)));
  page.node.set(PDFName.of('Resources'), doc.context.obj(fonts));
  const appearance = doc.context.register(doc.context.flateStream('BT /F1 11 Tf 4 8 Td (Reviewer note on Secretword here) Tj ET', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 260, 24], Resources: fonts }));
  const note = doc.context.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [72, 500, 332, 524], Contents: PDFString.of('Reviewer note on Secretword here'), DA: PDFString.of('/F1 11 Tf 0 g'), AP: { N: appearance } });
  page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(note)]));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('text shown by annotations', () => {
  it('a FreeText note repeating the boxed word: the page is redacted in its content and the note stays readable', async () => {
    const source = await notedPdf();
    expect(popplerText(source)).toMatch(/Reviewer note on Secretword here/);
    const secret = bboxWords(source).find((word) => word.text === 'Secretword' && word.y1 > 650);
    if (!secret) throw new Error('no Secretword on the first line');
    const { bytes, pages } = await release(source, new Map([[1, [boxOver(secret)]]]));
    const page = pages[0] as BurnedPage;
    expect(page.method, JSON.stringify(page)).toBe('vector');
    const text = popplerText(bytes);
    expect(text).toMatch(/Keepword +Otherword/);
    expect(text.match(/Secretword/g)).toHaveLength(1);
    expect(text).toMatch(/Reviewer note on Secretword here/);
    const words = bboxWords(bytes);
    const kept = words.find((word) => word.text === 'Reviewer');
    expect(kept && Math.abs(kept.y1 - (bboxWords(source).find((word) => word.text === 'Reviewer')?.y1 ?? 0))).toBeLessThan(1);
    const drawn: BurnBox[] = (page.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2));
    expect(differingPixels(render(source), render(bytes), 792, drawn, 1)).toBe(0);
  }, 60_000);

  it('a page rendered all the same (a curve under the box): the text of the note is in its invisible text layer', async () => {
    // A signature-like curve across the boxed word: the page cannot be redacted in its content.
    const source = await notedPdf('\n2 w 140 702 m 160 720 190 690 205 706 c S');
    const secret = bboxWords(source).find((word) => word.text === 'Secretword' && word.y1 > 650);
    if (!secret) throw new Error('no Secretword on the first line');
    const { bytes, pages } = await release(source, new Map([[1, [boxOver(secret)]]]));
    const page = pages[0] as BurnedPage;
    expect(page.method).toBe('raster');
    expect(page.method === 'raster' && page.fallback).toMatch(/curved path/);
    const text = popplerText(bytes);
    expect(text).toMatch(/Reviewer note on Secretword here/);
    expect(text).toMatch(/Keepword +Otherword/);
    expect(text.match(/Secretword/g)).toHaveLength(1);
  }, 60_000);
});
