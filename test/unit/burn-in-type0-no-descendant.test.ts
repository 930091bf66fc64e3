import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFNull, type PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { box, helvetica, pagePdf, pdftotext, redactPdf, textItems } from '../helpers/vector-pdfs.js';
import { tempDir } from '../helpers/temp.js';

// A Type0 font whose /DescendantFonts holds null (a producer that dropped the CIDFont): pdf.js draws and extracts
// none of its glyphs, poppler and MuPDF substitute fonts of their own widths, each placing them elsewhere. A show
// of it is bounded as a whole (every glyph up to 1 em + Tc wide, TJ numbers either way): wholly under a box it
// goes; far from every box it stays as it is (poppler and MuPDF users still read it); other text stays in place.

const toUnicode = (doc: PDFDocument) =>
  doc.context.register(
    doc.context.flateStream(
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0020> <007E> <0020> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end',
    ),
  );

const resources = (doc: PDFDocument) => ({
  ...helvetica(),
  Font: {
    ...(helvetica().Font as object),
    F0: { Type: 'Font', Subtype: 'Type0', BaseFont: 'NoDescendant', Encoding: 'Identity-H', ToUnicode: toUnicode(doc), DescendantFonts: [PDFNull] },
  },
});

const hex = (text: string) => Buffer.from(Array.from(text).flatMap((char) => [0, char.charCodeAt(0)])).toString('hex');

/** Every text string mutool reads from the content (its own interpreter, with its own fallback for the font). */
function mutoolText(bytes: Buffer): string {
  const file = path.join(tempDir('obscura-type0-'), 'page.pdf');
  fs.writeFileSync(file, bytes);
  return execFileSync('mutool', ['draw', '-F', 'stext', '-o', '-', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

describe('content-level redaction: Type0 font without a descendant font', () => {
  it('removes every glyph of a show wholly under a box (no viewer agrees where they lie); the other text stays where it was', async () => {
    // Bounds: 16 glyphs × 10 pt + ½ em each side → x 67–237, y 695–712; 9 × (10 + 2 Tc) + 50 (the TJ number) → x 67–235, y 675–692.
    const content = `BT /F1 12 Tf 72 720 Td (Helvetica line) Tj ET BT /F0 10 Tf 72 700 Td <${hex('KEEP SECRET tail')}> Tj /F1 12 Tf 200 0 Td (After) Tj ET BT 2 Tc /F0 10 Tf 72 680 Td [<${hex('Secret')}> -5000 <${hex('two')}>] TJ /F1 12 Tf 200 0 Td (Later) Tj ET`;
    const source = await pagePdf({ content, resources });
    // Both independent readers find the words in the source, at places of their own.
    expect(mutoolText(source)).toMatch(/c="S"/);
    expect(pdftotext(source)).toMatch(/SECRET/);
    const before = (await textItems(source)).map(({ str, x, y }) => ({ str, x, y }));
    const { result, bytes } = await redactPdf(source, [box(60, 694, 240, 714), box(60, 672, 240, 693)], { padding: 0 });
    expect(result.ok ? result.removedGlyphs : result).toBe(16 + 9);
    const out = bytes as Buffer;
    const read = mutoolText(out);
    // MuPDF shows the font's glyphs with a substitute font of its own; none of them is left.
    expect(mutoolText(source)).toMatch(/<font name="(?!Helvetica")/);
    expect(read).not.toMatch(/<font name="(?!Helvetica")/);
    expect(read).toMatch(/c="A"/);
    expect(pdftotext(out)).not.toMatch(/KEEP|SECRET|tail|Secret|two/);
    expect(pdftotext(out)).toMatch(/Helvetica line/);
    // pdf.js (the reviewer's view) reads the same items at the same places as in the source.
    expect((await textItems(out)).map(({ str, x, y }) => ({ str, x: expect.closeTo(x, 3), y: expect.closeTo(y, 3) }))).toEqual(before);
    expect(before.map((item) => item.str).join(' ')).toMatch(/Helvetica line.*After.*L a t e r/);
  });

  it('keeps a show far from every box as it is: poppler and MuPDF still read it', async () => {
    const shows = [`<${hex('KEEP SECRET tail')}> Tj`, `[<${hex('Secret')}> -5000 <${hex('two')}>] TJ`];
    const content = `BT /F0 10 Tf 72 700 Td ${shows[0]} /F1 12 Tf 200 0 Td (After) Tj ET BT 2 Tc /F0 10 Tf 72 680 Td ${shows[1]} ET BT 0 Tc /F1 12 Tf 72 500 Td (Redact me) Tj ET`;
    const source = await pagePdf({ content, resources });
    const { result, bytes, content: written } = await redactPdf(source, [box(70, 495, 140, 512)], { padding: 0 });
    expect(result.ok ? result.removedGlyphs : result).toBe('Redact me'.length);
    for (const show of shows) expect(written).toContain(show);
    const out = bytes as Buffer;
    expect(pdftotext(out)).toMatch(/KEEP SECRET tail/);
    expect(pdftotext(out)).toMatch(/S ?e ?c ?r ?e ?t/);
    expect(pdftotext(out)).not.toMatch(/Redact/);
    expect(mutoolText(out)).toMatch(/<font name="(?!Helvetica")/);
  });

  it('renders the page rather than remove a show a box covers only part of', async () => {
    const content = `BT /F0 10 Tf 72 700 Td <${hex('KEEP SECRET tail')}> Tj ET`;
    const { result } = await redactPdf(await pagePdf({ content, resources }), [box(123, 696, 181, 710)], { padding: 0 });
    expect(result.ok ? 'content' : result.reason).toMatch(/covers part of the places/);
  });
});
