import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { resolveFont } from '../../worker/burn-in/vector/fonts.js';
import {
  box,
  darkShare,
  differingPixels,
  helvetica,
  helveticaWidth,
  pagePdf,
  grownBoxes,
  pdftotext,
  redactPdf,
  render,
  standardFont,
  textItems,
  type Literal,
} from '../helpers/vector-pdfs.js';

// Content-level redaction checked by independent readers: pdf.js places the kept text where it was, poppler
// renders every pixel outside the boxes as before and finds none of the removed words.

const H = 792;

/** The item pdf.js reads for `word`; fails the test when there is none. */
async function itemOf(bytes: Buffer, word: string) {
  const item = (await textItems(bytes)).find((entry) => entry.str.trim().startsWith(word));
  expect(item, `pdf.js reads an item starting with ${word}`).toBeDefined();
  return item as NonNullable<typeof item>;
}

describe('content-level redaction: text', () => {
  it('Tj, TJ, \' and " with Tc, Tw, Tz, Ts and kerning: removed glyphs leave, every other glyph stays in place', async () => {
    // Where each secret lies, from pdf-lib's Helvetica widths and the text state (PDF 32000-1, 9.4.4).
    const advance = async (text: string, tc: number, tw: number) => {
      let sum = 0;
      for (const char of text) sum += ((await helveticaWidth(char, 12)) + tc + (char === ' ' ? tw : 0)) * 0.9;
      return sum;
    };
    const secretBox = async (y: number, prefix: string, secret: string, tc: number, tw: number, kern = 0) => {
      const start = 72 + (await advance(prefix, tc, tw)) + (kern / 1000) * 12 * 0.9;
      return box(start + 0.5, y - 2, start + (await advance(secret, tc, tw)) - tc * 0.9 - 0.5, y + 10);
    };
    const content = [
      'BT /F1 12 Tf 0.3 Tc 3 Tw 90 Tz 20 TL 72 700 Td',
      '(Alpha Zebulon) Tj [-2500 (Keptone)] TJ',
      "(Beta Zebulon tail) '",
      '1 0.5 (Gamma Zebulon) " [-2500 (Kept) -3000 (two)] TJ',
      'T* 4 Ts [(Delta ) 120 (Zeb) 80 (ulon) -3000 (Keptthree)] TJ',
      'ET',
    ].join('\n');
    const source = await pagePdf({ content, resources: helvetica });
    const boxes = [
      await secretBox(700, 'Alpha ', 'Zebulon', 0.3, 3),
      await secretBox(680, 'Beta ', 'Zebulon', 0.3, 3),
      await secretBox(660, 'Gamma ', 'Zebulon', 0.5, 1),
      // The kerning inside "Zeb" 80 "ulon" shortens the secret by 80/1000 em.
      await secretBox(644, 'Delta ', 'Zebulon', 0.5, 1, -120).then((found) => ({ ...found, x2: found.x2 - 0.08 * 12 * 0.9 })),
    ];
    const before = render(source);
    const { result, bytes } = await redactPdf(source, boxes);
    expect(result.ok && result.removedGlyphs).toBeGreaterThanOrEqual(4 * 7);
    const out = bytes as Buffer;
    expect(pdftotext(out)).not.toMatch(/Zeb|ulon/);
    for (const word of ['Alpha', 'Keptone', 'Beta', 'Gamma', 'Kept', 'two', 'Delta', 'Keptthree']) {
      const [was, now] = [await itemOf(source, word), await itemOf(out, word)];
      expect({ word, x: now.x, y: now.y }).toEqual({ word, x: expect.closeTo(was.x, 3), y: expect.closeTo(was.y, 3) });
    }
    // "tail" shared its item with the secret: its place follows from the text state.
    expect((await itemOf(out, 'tail')).x).toBeCloseTo(72 + (await advance('Beta Zebulon ', 0.3, 3)), 3);
    // Pixels outside the boxes are those of the original page; inside, the boxes are solid.
    const after = render(out);
    // …outside the drawn black: the boxes, grown over the whole ink of glyphs they cut.
    expect(differingPixels(before, after, H, [...boxes, ...grownBoxes(result)])).toBe(0);
    for (const secret of boxes) expect(darkShare(after, H, secret)).toBe(1);
  });

  it('text in every render mode under a box goes, invisible text included; ActualText over it and Alt anywhere go with BDC', async () => {
    // ActualText of a sequence wholly outside the boxes stays (burn-in-actualtext.test.ts); over a removed glyph it goes.
    const content = '/Span << /ActualText (Actualsecret) >> BDC BT /F1 12 Tf 3 Tr 72 700 Td (Hiddenword) Tj ET EMC /Span << /Alt (Altsecret) >> BDC BT /F1 12 Tf 0 Tr 72 500 Td (Visible) Tj ET EMC';
    const source = await pagePdf({ content, resources: helvetica });
    const { result, bytes, content: written } = await redactPdf(source, [box(70, 695, 160, 712)]);
    expect(result.ok).toBe(true);
    expect(written).not.toMatch(/Actualsecret|Altsecret|ActualText/);
    expect(written).toContain('/Span BMC');
    const text = pdftotext(bytes as Buffer);
    expect(text).not.toContain('Hiddenword');
    expect(text).toContain('Visible');
  });

  it('text centred outside the crop box is removed (it was never visible); text inside stays', async () => {
    const content = 'BT /F1 12 Tf 20 60 Td (Outsidecrop) Tj ET BT /F1 12 Tf 150 600 Td (Insidecrop Secretword) Tj ET';
    const source = await pagePdf({ content, resources: helvetica, crop: [100, 150, 450, 550] });
    const start = 150 + (await helveticaWidth('Insidecrop ', 12));
    const { bytes } = await redactPdf(source, [box(start - 1, 596, start + 80, 612)]);
    const text = pdftotext(bytes as Buffer);
    expect(text).not.toMatch(/Outsidecrop|Secretword/);
    expect(text).toContain('Insidecrop');
  });

  it('text turned by cm and Tm: glyphs are placed through both matrices', async () => {
    // Turned 90° by the CTM (baseline going up from (300, 100)) and stretched 1.5 times along it by Tm.
    const content = 'q 0 1 -1 0 300 100 cm BT /F1 12 Tf 1.5 0 0 1 0 0 Tm (Upward Secretup) Tj ET Q BT /F1 12 Tf 72 700 Td (Levelkeep) Tj ET';
    const source = await pagePdf({ content, resources: helvetica });
    const start = 100 + 1.5 * (await helveticaWidth('Upward ', 12));
    const end = 100 + 1.5 * (await helveticaWidth('Upward Secretup', 12));
    // In user space the secret runs up the page, its glyphs to the left of x = 300.
    const secret = box(300 - 12, start + 0.5, 300 + 4, end);
    const { result, bytes } = await redactPdf(source, [secret]);
    const text = pdftotext(bytes as Buffer);
    expect(text).not.toContain('Secretup');
    expect(text).toContain('Upward');
    expect(text).toContain('Levelkeep');
    expect(differingPixels(render(source), render(bytes as Buffer), H, [secret, ...grownBoxes(result)])).toBe(0);
  });

  it('a box cutting a word: only the glyphs it meets go', async () => {
    const source = await pagePdf({ content: 'BT /F1 20 Tf 72 700 Td (Marigoldstreet) Tj ET', resources: helvetica });
    const half = 72 + (await helveticaWidth('Marig', 20));
    const { bytes } = await redactPdf(source, [box(60, 690, half - 2, 720)], { padding: 0 });
    expect(pdftotext(bytes as Buffer).trim()).toBe('oldstreet');
    expect((await itemOf(bytes as Buffer, 'oldstreet')).x).toBeCloseTo(half, 3);
  });

  it('polygons: a glyph in the notch of a concave polygon stays, glyphs under its arms go; the padding reaches round it', async () => {
    const content = 'BT /F1 12 Tf 100 700 Td (Leftarm) Tj ET BT /F1 12 Tf 200 700 Td (Innotch) Tj ET BT /F1 12 Tf 300 700 Td (Rightarm) Tj ET BT /F1 12 Tf 100 600 Td (Nearmiss) Tj ET';
    const source = await pagePdf({ content, resources: helvetica });
    // A U: arms over the first and third words, the notch over the second, open at the top.
    const u = [
      { x: 95, y: 690 },
      { x: 360, y: 690 },
      { x: 360, y: 720 },
      { x: 290, y: 720 },
      { x: 290, y: 696 },
      { x: 190, y: 696 },
      { x: 190, y: 720 },
      { x: 95, y: 720 },
    ];
    // A triangle whose corner ends above the glyphs of "Nearmiss": the ink of its N reaches 0.73 em up (608.8),
    // about 5.4 points from the corner.
    const triangle = [
      { x: 110, y: 614.2 },
      { x: 130, y: 650 },
      { x: 90, y: 650 },
    ];
    const polygon = (points: { x: number; y: number }[]) => ({ ...box(Math.min(...points.map((p) => p.x)), Math.min(...points.map((p) => p.y)), Math.max(...points.map((p) => p.x)), Math.max(...points.map((p) => p.y))), points });
    const tight = await redactPdf(source, [polygon(u), polygon(triangle)], { padding: 0 });
    const tightText = pdftotext(tight.bytes as Buffer);
    expect(tightText).not.toMatch(/Leftarm|Rightarm/);
    expect(tightText).toContain('Innotch');
    expect(tightText).toContain('Nearmiss');
    // Innotch's glyphs reach down to 700 - 0.225 × 12 = 697.3: inside the notch, clear of its floor at 696.
    const padded = await redactPdf(source, [polygon(triangle)], { padding: 7 });
    expect(pdftotext(padded.bytes as Buffer)).not.toContain('Nearmiss');
  });

  it('standard 14 fonts without /Widths: AFM widths through WinAnsi, MacRoman, Standard and /Differences', async () => {
    const fonts = {
      Font: {
        T: standardFont('Times-Roman', 'MacRomanEncoding'),
        C: standardFont('Courier-Bold', null),
        D: standardFont('Helvetica', { Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [65, 'W', 'i', 'm'] }),
        A: standardFont('Arial,Bold'),
      },
    };
    const content = [
      'BT /T 14 Tf 72 700 Td [(Times \\217t\\216) -2000 (Secretone) -3000 (Keptone)] TJ ET',
      'BT /C 11 Tf 72 650 Td [(Courier) -2000 (Secrettwo) -3000 (Kepttwo)] TJ ET',
      'BT /D 16 Tf 72 600 Td [(ABC) -2000 (ABCABC) -3000 (Keptthree)] TJ ET',
      'BT /A 13 Tf 72 550 Td [(Arial) -2000 (Secretfour) -3000 (Keptfour)] TJ ET',
    ].join('\n');
    const source = await pagePdf({ content, resources: () => fonts });
    const items = await textItems(source);
    expect(items.map((item) => item.str.trim())).toEqual(['Times èté', 'Secretone', 'Keptone', 'Courier', 'Secrettwo', 'Kepttwo', 'Wim', 'WimWim', 'Keptthree', 'Arial', 'Secretfour', 'Keptfour']);
    // Box the middle word of each line where pdf.js (with its own metrics) places it.
    const boxes = items.filter((_, index) => index % 3 === 1).map((item) => box(item.x + 0.5, item.y - 3, item.x + item.width - 0.5, item.y + 10));
    const { result, bytes } = await redactPdf(source, boxes, { padding: 0 });
    expect(result.ok).toBe(true);
    for (const kept of ['Keptone', 'Kepttwo', 'Keptthree', 'Keptfour']) {
      expect((await itemOf(bytes as Buffer, kept)).x, kept).toBeCloseTo((await itemOf(source, kept)).x, 3);
    }
    expect(differingPixels(render(source), render(bytes as Buffer), H, [...boxes, ...grownBoxes(result)])).toBe(0);
  });

  it('font metrics: /Differences and the AFM agree with pdf-lib; /Widths with FirstChar and MissingWidth', async () => {
    const doc = await PDFDocument.create();
    const font = doc.context.obj(standardFont('Helvetica', { Type: 'Encoding', Differences: [65, 'W', 'i'] }));
    const resolved = resolveFont(doc.context, font, 'D');
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    const helv = doc.embedStandardFont(StandardFonts.Helvetica);
    expect(resolved.font.width(65)).toBe(helv.widthOfTextAtSize('W', 1000));
    expect(resolved.font.width(66)).toBe(helv.widthOfTextAtSize('i', 1000));
    // Codes after the differences keep the base encoding (StandardEncoding: no /BaseEncoding given).
    expect(resolved.font.width(0x43)).toBe(helv.widthOfTextAtSize('C', 1000));
    expect(resolved.font.width(0x27)).toBe(helv.widthOfTextAtSize('\u2019', 1000));
    const widths = doc.context.obj({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'Whatever', FirstChar: 40, Widths: [500, 600], FontDescriptor: { MissingWidth: 321, Ascent: 800, Descent: -200 } });
    const simple = resolveFont(doc.context, widths, 'W');
    expect(simple.ok && [simple.font.width(40), simple.font.width(41), simple.font.width(42), simple.font.ascent, simple.font.descent]).toEqual([500, 600, 321, 0.8, -0.2]);
  });

  it('Type0 Identity-H: two-byte codes, /W ranges and lists, /DW', async () => {
    const toUnicode = (doc: PDFDocument) =>
      doc.context.register(
        doc.context.flateStream(
          '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0020> <007E> <0020> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end',
        ),
      );
    const resources = (doc: PDFDocument) => ({
      Font: {
        F0: {
          Type: 'Font',
          Subtype: 'Type0',
          BaseFont: 'ArialMT',
          Encoding: 'Identity-H',
          ToUnicode: toUnicode(doc),
          DescendantFonts: [
            doc.context.obj({
              Type: 'Font',
              Subtype: 'CIDFontType2',
              BaseFont: 'ArialMT',
              CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
              FontDescriptor: { Type: 'FontDescriptor', FontName: 'ArialMT', Flags: 32, FontBBox: [-665, -325, 2000, 1040], ItalicAngle: 0, Ascent: 905, Descent: -212, CapHeight: 716, StemV: 80 },
              DW: 480,
              W: [65, [700, 650, 720], 97, 122, 530, 32, 32, 280],
            }),
          ],
        },
      },
    });
    const hex = (text: string) => Buffer.from(Array.from(text).flatMap((char) => [0, char.charCodeAt(0)])).toString('hex');
    const content = `BT /F0 14 Tf 72 700 Td [<${hex('ABC keep ')}> <${hex('SECRET')}> 200 <${hex(' tail')}> -3000 <${hex('Keptend')}>] TJ ET`;
    const source = await pagePdf({ content, resources });
    // CIDs: A 700, B 650, C 720, space 280, lowercase 530, others (SECRET) DW 480.
    const start = 72 + (14 * (700 + 650 + 720 + 280 + 4 * 530 + 280)) / 1000;
    const secretWidth = (14 * 6 * 480) / 1000;
    const { result, bytes } = await redactPdf(source, [box(start + 1, 695, start + secretWidth - 1, 712)], { padding: 0 });
    expect(result.ok && result.removedGlyphs).toBe(6);
    const text = pdftotext(bytes as Buffer);
    expect(text).not.toContain('SECRET');
    expect(text).toMatch(/ABC keep/);
    expect((await itemOf(bytes as Buffer, 'Keptend')).x).toBeCloseTo((await itemOf(source, 'Keptend')).x, 3);
    expect((await itemOf(bytes as Buffer, 'tail')).x).toBeCloseTo((await itemOf(source, 'tail')).x, 3);
  });

  it('draws the boxes and their labels on top, upright on a page turned by /Rotate', async () => {
    const source = await pagePdf({ content: 'BT /F1 12 Tf 100 400 Td (Pemberton Wexford4417 closed) Tj ET', resources: helvetica, rotate: 90 });
    const start = 100 + (await helveticaWidth('Pemberton ', 12));
    const { result, content } = await redactPdf(source, [box(start - 1, 380, start + 72, 420, '(b)(4)')], { labels: true });
    expect(result.ok && result.labelFont).toBeTruthy();
    expect(content).toMatch(/re f/);
    // Turned 90° counter-clockwise in user space reads upright on a page shown turned 90° clockwise.
    expect(content).toMatch(/BT \/ObscuraLabel [\d.]+ Tf 0 1 -1 0 [\d.]+ [\d.]+ Tm \(\\\(b\\\)\\\(4\\\)\) Tj ET/);
  });
});

describe('content-level redaction: what it leaves to the raster path', () => {
  const image = (doc: PDFDocument) => ({
    Font: { F1: standardFont('Helvetica') },
    XObject: { Im1: doc.context.register(doc.context.stream(new Uint8Array([0, 255, 0, 255]), { Type: 'XObject', Subtype: 'Image', Width: 2, Height: 2, ColorSpace: 'DeviceGray', BitsPerComponent: 8 })) },
  });
  const form = (doc: PDFDocument) => ({
    Font: { F1: standardFont('Helvetica') },
    XObject: { Fx: doc.context.register(doc.context.stream('0 0 m 2 10 8 10 10 0 c f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10], Matrix: [2, 0, 0, 2, 300, 300] })) },
  });
  const cases: { name: string; content: string; resources: (doc: PDFDocument) => Literal; reason: RegExp }[] = [
    // Images of fine pixels are redacted in their pixels (burn-in-images.test.ts); 50 pt pixels are not.
    { name: 'an image of coarse pixels under a box', content: 'q 100 0 0 100 50 650 cm /Im1 Do Q', resources: image, reason: /an image under a box has pixels of 50.0 pt/ },
    { name: 'an inline image under a box', content: 'q 100 0 0 100 50 650 cm BI /W 1 /H 1 /BPC 8 /CS /G ID \u0000 EI Q', resources: helvetica, reason: /inline image/ },
    { name: 'a curve under a box (a signature)', content: '2 w 60 700 m 80 740 120 660 150 700 c S', resources: helvetica, reason: /curved path/ },
    { name: 'a long polyline under a box', content: '60 700 m 70 705 l 80 700 l 90 705 l 100 700 l 110 705 l S', resources: helvetica, reason: /many segments/ },
    { name: 'a curve inside a form XObject under a box', content: 'q 0.5 0 0 0.5 -75 550 cm /Fx Do Q', resources: form, reason: /in the form Fx: a curved path lies under a box/ },
    { name: 'an unclipped shading', content: '/Sh1 sh', resources: helvetica, reason: /shading/ },
    { name: 'clipping text under a box', content: 'BT /F1 12 Tf 7 Tr 72 700 Td (Clipword) Tj ET', resources: helvetica, reason: /clipping path/ },
  ];
  for (const entry of cases) {
    it(`bails on ${entry.name}`, async () => {
      const source = await pagePdf({ content: entry.content, resources: entry.resources });
      const { result } = await redactPdf(source, [box(50, 650, 200, 760)]);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.reason).toMatch(entry.reason);
    });
  }

  it('keeps what may lie under a box: rules, rectangles, images and curves away from it, clipped shadings', async () => {
    const content = [
      '0.5 w 50 690 m 300 690 l S 40 650 300 120 re f 0 0 m 10 0 l 10 10 l 0 10 l h S',
      'q 50 0 0 50 400 100 cm /Im1 Do Q 400 400 m 420 450 440 350 460 400 c S',
      'q 400 300 100 100 re W n /Sh1 sh Q',
      'BT /F1 12 Tf 72 700 Td (Secretword) Tj ET',
    ].join('\n');
    const resources = (doc: PDFDocument) => ({ ...image(doc), Shading: { Sh1: { ShadingType: 2, ColorSpace: 'DeviceGray', Coords: [0, 0, 1, 0], Function: { FunctionType: 2, Domain: [0, 1], C0: [0], C1: [1], N: 1 } } } });
    const source = await pagePdf({ content, resources });
    const { result, bytes } = await redactPdf(source, [box(60, 680, 200, 720)]);
    expect(result.ok).toBe(true);
    expect(pdftotext(bytes as Buffer)).not.toContain('Secretword');
    expect(differingPixels(render(source), render(bytes as Buffer), H, [box(60, 680, 200, 720)])).toBe(0);
  });

  it('a box over the whole page is left to the raster path', async () => {
    const source = await pagePdf({ content: 'BT /F1 12 Tf 72 700 Td (x) Tj ET', resources: helvetica });
    const { result } = await redactPdf(source, [box(0, 0, 612, 792)]);
    expect(!result.ok && result.reason).toMatch(/whole page/);
  });

  it('a page whose XObject dictionary names unused images keeps them out of the question', async () => {
    const doc = await PDFDocument.load(await pagePdf({ content: 'BT /F1 12 Tf 72 700 Td (x) Tj ET', resources: image }));
    expect(doc.getPage(0).node.Resources()?.has(PDFName.of('XObject'))).toBe(true);
    const { result } = await redactPdf(Buffer.from(await doc.save()), [box(50, 650, 200, 760)]);
    expect(result.ok).toBe(true);
  });
});
