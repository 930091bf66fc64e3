import { describe, expect, it } from 'vitest';
import { CMapData, heldDataFiles, StandardFontData } from '../../worker/burn-in/pdfjs-data.js';
import { documentOptions, openPdf } from '../../worker/burn-in/pdfjs.js';
import { pdfOfObjects } from '../helpers/temp.js';

// pdf.js's data files are read once per thread and handed out as copies; names from a PDF are never paths.

/** One page: a line in Helvetica (not embedded) and 日本 in a CID font by the predefined CMap UniJIS-UCS2-H. */
function pdfWithStandardAndCMapFonts(): Uint8Array {
  const content = 'BT /F1 18 Tf 72 700 Td (Standard font line) Tj ET BT /F2 24 Tf 72 650 Td <65E5672C> Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H /DescendantFonts [7 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 8 0 R >>',
    '<< /Type /FontDescriptor /FontName /HeiseiMin-W3 /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
  ];
  return new Uint8Array(pdfOfObjects(objects));
}

async function pageText(bytes: Uint8Array): Promise<string> {
  const document = await openPdf(bytes);
  try {
    const content = await (await document.getPage(1)).getTextContent();
    return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  } finally {
    await document.destroy();
  }
}

describe('pdf.js data files', () => {
  it('reads a standard font and the CMaps once per thread; every document still gets them', async () => {
    const first = await pageText(pdfWithStandardAndCMapFonts());
    expect(first).toContain('Standard font line');
    expect(first).toContain('日本');
    const held = heldDataFiles();
    // The standard font's program and the CMap (with the ordering's Unicode CMap) at least.
    expect(held).toBeGreaterThanOrEqual(2);
    const second = await pageText(pdfWithStandardAndCMapFonts());
    expect(second).toBe(first);
    expect(heldDataFiles()).toBe(held);
  });

  it('hands out copies, so a transferred one leaves the kept bytes whole', async () => {
    const fonts = new StandardFontData({ baseUrl: documentOptions().standardFontDataUrl });
    const one = await fonts.fetch({ filename: 'FoxitSerif.pfb' });
    structuredClone(one, { transfer: [one.buffer as ArrayBuffer] });
    expect(one.byteLength).toBe(0);
    const two = await fonts.fetch({ filename: 'FoxitSerif.pfb' });
    expect(two.byteLength).toBeGreaterThan(1000);
  });

  it('refuses a name that is a path (a CMap name comes from the PDF)', async () => {
    const cmaps = new CMapData({ baseUrl: documentOptions().cMapUrl, isCompressed: true });
    await expect(cmaps.fetch({ name: '../../package' })).rejects.toThrow(/Unable to load binary CMap/);
    await expect(cmaps.fetch({ name: 'UniJIS-UCS2-H' })).resolves.toMatchObject({ isCompressed: true });
    const fonts = new StandardFontData({ baseUrl: documentOptions().standardFontDataUrl });
    await expect(fonts.fetch({ filename: '../package.json' })).rejects.toThrow(/no file name/);
  });
});
