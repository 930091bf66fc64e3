import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { wordsOfPage } from '../../worker/burn-in/fidelity/index.js';
import { glyphLayer } from '../../worker/burn-in/text-layer/from-glyphs.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { searchPdf, withheldOfPage } from '../../worker/release-check/index.js';
import { DINGBATS } from '../../worker/pdf-glyphs/dingbats.js';
import { hiddenContent, readGlyphs } from '../../worker/pdf-glyphs/index.js';
import { release, SETTINGS } from '../helpers/burn-producers.js';
import { box, pagePdf, pdftotext, standardFont, type Literal } from '../helpers/vector-pdfs.js';

// The text of symbolic fonts without a ToUnicode map is what their glyph names say (ISO 32000 9.10.2, as poppler
// reads it): a ZapfDingbats "a1" at code 0x21 is ✁, where pdf.js alone reads "!". A rendered release's text layer,
// the release check's withheld strings, the fidelity check's words and the hidden-content report all read the
// document's text. Oracle: poppler's pdftotext of the source and of the release.

const toUnicode = (doc: PDFDocument) =>
  doc.context.register(doc.context.flateStream('/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <21> <0041> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end'));

const resources = (doc: PDFDocument): Literal => ({
  Font: {
    F1: standardFont('Helvetica'),
    // The standard symbolic fonts, not embedded, with their built-in encodings (no /Encoding).
    F2: standardFont('ZapfDingbats', null),
    F3: standardFont('Symbol', null),
    // Dingbat names in a Differences array: the ZapfDingbats font's (a subset's name) its own; another font's, no names.
    F4: { ...(standardFont('ABCDEF+ZapfDingbats', null) as object), Encoding: { Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [65, 'a10', 'a11', 'a12'] } },
    F6: { ...(standardFont('Helvetica', null) as object), Encoding: { Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [65, 'a10', 'a11', 'a12'] } },
    // A ToUnicode map comes first: code 0x21 reads "A" though its glyph is ✁.
    F5: { ...(standardFont('ZapfDingbats', null) as object), ToUnicode: toUnicode(doc) },
  },
});

const CONTENT = [
  'BT /F1 14 Tf 72 720 Td (Secretword) Tj ET',
  'BT /F1 14 Tf 72 680 Td (Dingbats:) Tj /F2 14 Tf 100 0 Td (!"#$ %&) Tj ET',
  'BT /F1 14 Tf 72 640 Td (Symbol:) Tj /F3 14 Tf 100 0 Td (lazy abg) Tj ET',
  'BT /F1 14 Tf 72 600 Td (Differences:) Tj /F4 14 Tf 100 0 Td (ABC) Tj /F6 14 Tf 50 0 Td (ABC) Tj ET',
  'BT /F1 14 Tf 72 560 Td (Mapped:) Tj /F5 14 Tf 100 0 Td (!!) Tj ET',
  'q BT 3 Tr /F2 14 Tf 72 520 Td (\'\\(\\)) Tj ET Q',
  'BT /F1 14 Tf 72 480 Td (Tick) Tj /F2 14 Tf (4) Tj ET',
].join('\n');

const words = (text: string) => text.split(/\s+/u).filter(Boolean);

describe('the document text of symbolic fonts', () => {
  it('copies the ZapfDingbats glyph list pdf.js ships', () => {
    const worker = fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'legacy/build/pdf.worker.mjs'), 'utf8');
    const table = worker.slice(worker.indexOf('const getDingbatsGlyphsUnicode'), worker.indexOf('});', worker.indexOf('const getDingbatsGlyphsUnicode')));
    const shipped = [...table.matchAll(/t\.(a\d+) = 0x([0-9a-f]+);/gu)].map(([, name, hex]) => [name, Number.parseInt(hex ?? '', 16)]);
    expect(shipped.length).toBe(201);
    expect([...DINGBATS]).toEqual(shipped);
  });

  it('reads what poppler reads, in every reading of the source', async () => {
    const source = await pagePdf({ content: CONTENT, resources });
    const expected = words(pdftotext(source));
    expect(expected).toEqual(expect.arrayContaining(['✁✂✃✄', '☎✆', 'λαζψ', 'αβγ', '✡☛☞', 'ABC', 'AA', '✇✈✉']));
    const document = await openPdf(source);
    try {
      const page = await document.getPage(1);
      const glyphs = await readGlyphs(document, page);
      // The rendered page's layer words (from the glyph reading), before any release.
      expect(glyphLayer(glyphs, [], { x1: 0, y1: 0, x2: 612, y2: 792 }).words.map((word) => word.text)).toEqual(expect.arrayContaining(['✁✂✃✄', '☎✆', 'λαζψ', '✡☛☞', 'AA']));
      expect(hiddenContent(glyphs).map((entry) => entry.text)).toEqual(['✇✈✉']);
      // The fidelity check's words (pdf.js's text content, mapped alike).
      expect((await wordsOfPage(page)).map((word) => word.text)).toEqual(expect.arrayContaining(['✁✂✃✄', '☎✆', 'λαζψ', '✡☛☞', 'AA']));
      // The release check withholds what a box covers as the document's text.
      const withheld = await withheldOfPage(document, 1, [{ x1: 70, y1: 475, x2: 130, y2: 495 }]);
      expect(withheld.map((entry) => entry.text)).toEqual(['tick✔']);
    } finally {
      await document.destroy();
    }
  }, 30_000);

  it('gives a rendered release a text layer that reads as the source does', async () => {
    const source = await pagePdf({ content: CONTENT, resources });
    const { bytes, pages } = await release(source, new Map([[1, [box(70, 715, 160, 735)]]]), { ...SETTINGS, method: 'raster' });
    expect(pages[0]?.method).toBe('raster');
    const released = words(pdftotext(bytes));
    expect(released).not.toContain('Secretword');
    // Everything but the boxed word and the invisible (hidden) dingbats, as poppler reads the source.
    expect(released.sort()).toEqual(words(pdftotext(source)).filter((word) => word !== 'Secretword' && word !== '✇✈✉').sort());
    expect(released).not.toContain('lazy');
  }, 60_000);

  it('allows in the objects the codes of shown Symbol text, and no more', async () => {
    // "lazy" boxed in Helvetica; the Symbol line's codes spell it too (shown as λαζψ): its content stream holds it.
    const content = 'BT /F1 14 Tf 72 720 Td (lazy) Tj ET BT /F3 14 Tf 72 680 Td (lazy) Tj ET';
    const source = await pagePdf({ content, resources });
    const { bytes, pages } = await release(source, new Map([[1, [box(70, 715, 110, 735)]]]));
    expect(pages[0]?.method).toBe('vector');
    expect(words(pdftotext(bytes))).toEqual(['λαζψ']);
    const withheld = [{ text: 'lazy', allowance: 0 }];
    expect((await searchPdf(bytes, [{ outputPage: 1, withheld }])).leaks).toEqual([]);
    // A second "lazy" in a stream (an unused form's, never shown) is one too many.
    const unused = (doc: PDFDocument): Literal => ({
      ...resources(doc),
      XObject: { X1: doc.context.register(doc.context.flateStream('BT /F1 14 Tf (lazy) Tj ET', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 100] })) },
    });
    const leaky = await pagePdf({ content: 'BT /F3 14 Tf 72 680 Td (lazy) Tj ET', resources: unused });
    expect((await searchPdf(leaky, [{ outputPage: 1, withheld }])).leaks).toEqual([{ page: null, place: 'stream' }]);
  }, 60_000);
});
