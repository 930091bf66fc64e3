import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
import type { BurnedPage } from '../../main/common/export-tasks.js';
import { release, SETTINGS } from '../helpers/burn-producers.js';
import { qpdfExpanded } from '../helpers/pdf-tools.js';
import { box, darkShare, differingPixels, render } from '../helpers/vector-pdfs.js';

// Vertical writing (a CID font through Identity-V): a column under a box is redacted in the content, glyph by
// glyph down the column, instead of the page being rendered. Oracles: qpdf (the glyph codes left in the
// content) and poppler's pdftoppm (black over the column, nothing changed outside the black).

const FONT = path.join(import.meta.dirname, '../../resources/fonts/DejaVuSans.ttf');

async function verticalPdf(): Promise<{ bytes: Buffer; codes: (text: string) => string }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(fs.readFileSync(FONT), { subset: false });
  const page = doc.addPage([612, 792]);
  const codes = (text: string) => font.encodeText(text).toString().replace(/[<>]/g, '');
  const column = (x: number, text: string) => `BT /F1 20 Tf 1 0 0 1 ${x} 700 Tm <${codes(text)}> Tj ET`;
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream([column(200, 'Secretword'), column(260, 'Keepword')].join('\n'))));
  page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: font.ref } }));
  await doc.flush();
  // The same font written top to bottom.
  const type0 = doc.context.lookup(font.ref);
  if (!type0 || !('set' in type0)) throw new Error('no font dictionary');
  (type0 as { set(key: PDFName, value: PDFName): void }).set(PDFName.of('Encoding'), PDFName.of('Identity-V'));
  return { bytes: Buffer.from(await doc.save({ useObjectStreams: false })), codes };
}

describe('vertical writing', () => {
  it('a column under a box: its glyphs leave the content, the page is redacted in its content and unchanged outside the black', async () => {
    const { bytes: source, codes } = await verticalPdf();
    const secret = codes('Secretword').toUpperCase();
    expect(qpdfExpanded(source).toUpperCase()).toContain(secret);
    // The column runs down from y 700 by 20 pt a glyph, centred on x 200.
    const boxed = box(188, 495, 212, 705);
    const { bytes, pages } = await release(source, new Map([[1, [boxed]]]), { ...SETTINGS, padding: 1 });
    const page = pages[0] as BurnedPage;
    expect(page.method, JSON.stringify(page)).toBe('vector');
    const expanded = qpdfExpanded(bytes).toUpperCase();
    expect(expanded).not.toContain(secret);
    expect(expanded).toContain(codes('Keepword').toUpperCase());
    const before = render(source);
    const after = render(bytes);
    const drawn = (page.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2));
    expect(differingPixels(before, after, 792, drawn, 1)).toBe(0);
    // The other column is still drawn.
    expect(darkShare(after, 792, { x1: 248, y1: 540, x2: 272, y2: 700 })).toBeGreaterThan(0.05);
  }, 60_000);
});
