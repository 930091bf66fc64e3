import { describe, expect, it } from 'vitest';
import type { RewrittenPage } from '../../main/common/export-tasks.js';
import { outlineBounds, splitCodes } from '../../worker/burn-in/vector/ink.js';
import { bboxWords, boxOver, chromiumPdf, pdflatex, popplerText, release, SETTINGS, stextWords, type StextWord } from '../helpers/burn-producers.js';
import { PDFDocument, PDFName } from 'pdf-lib';
import { box, darkShare, pagePdf, pdftotext, redactPdf, render, type Literal } from '../helpers/vector-pdfs.js';
import { comparePixels, renderArea, type Grey } from '../../worker/burn-in/fidelity/pixels.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';

// Removal decided by each glyph's own ink: a box over one word of tightly set lines (pdfTeX, 10 pt leading for a
// 10 pt font: the descenders of one line end about a point above the ascenders of the next) takes that word
// only; the lines above and below keep every letter. A glyph the box cuts keeps its outside part, cut by the box
// in the file itself, so the black is exactly the box. Before, glyphs reached down 0.32 em by the font's FontBBox.

const LINES = ['This is the upper line of text', 'This is the second line of text', 'This is the lower line of text'];

function tightPage(preamble = ''): Buffer {
  return pdflatex(`\\fontsize{10}{10}\\selectfont\\noindent ${LINES.join('\\\\\n')}`, preamble);
}

/**
 * The box a reviewer draws over a word's letters: mutool's extent along the line; across it, from just below
 * the baseline to the top of the tallest letters (Computer Modern's ascenders: 0.694 em).
 */
function wordBox(words: StextWord[], text: string): StextWord {
  const word = words.find((entry) => entry.text === text);
  if (!word) throw new Error(`mutool reads no word ${text}: ${words.map((entry) => entry.text).join(' ')}`);
  return { ...word, y1: word.baseline - 0.3, y2: word.baseline + 0.71 * 9.9626 };
}

const DPI = 144;

/** Page 1 as pdf.js draws it (what the export's own check compares), in grey. */
async function pdfjsPage(bytes: Uint8Array): Promise<Grey> {
  const document = await openPdf(bytes);
  try {
    const page = await document.getPage(1);
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = page.view;
    return await renderArea(document, page, { x1, y1, x2, y2 }, DPI);
  } finally {
    await document.destroy();
  }
}

/** Mean ink (0 white … 1 black) of the pixels wholly inside a user-space rectangle. */
function inkWithin(image: Grey, pageHeight: number, rect: { x1: number; y1: number; x2: number; y2: number }): number {
  const scale = DPI / 72;
  let sum = 0;
  let count = 0;
  for (let y = Math.ceil((pageHeight - rect.y2) * scale); y < Math.floor((pageHeight - rect.y1) * scale); y += 1) {
    for (let x = Math.ceil(rect.x1 * scale); x < Math.floor(rect.x2 * scale); x += 1) {
      sum += 1 - (image.pixels[y * image.width + x] ?? 255) / 255;
      count += 1;
    }
  }
  return count === 0 ? 0 : sum / count;
}

describe('glyph-accurate removal', () => {
  for (const [fonts, preamble] of [
    ['Type 1', ''],
    ['bitmap Type 3 (T1 encoding without cm-super)', '\\usepackage[T1]{fontenc}'],
  ] as const) {
  it(`pdfTeX, tight leading, ${fonts} fonts: a box over the letters of "second" leaves the lines above and below whole`, async () => {
    const source = tightPage(preamble);
    const target = wordBox(stextWords(source), 'second');
    const { bytes, pages } = await release(source, new Map([[1, [boxOver(target, 'r-1')]]]), { ...SETTINGS, padding: 0.5 });
    const page = pages[0] as RewrittenPage;
    expect(page.method).toBe('vector');
    const text = popplerText(bytes);
    expect(text, text).not.toContain('second');
    expect(text).toContain(LINES[0]);
    expect(text).toContain(LINES[2]);
    expect(text).toMatch(/This is the\s+line of text/);
    expect(page.drawn).toEqual([expect.objectContaining({ box: 0, redactionId: 'r-1' })]);
  });
  }

  it('Chromium, an e-mail set solid (line-height 1): a box over one word leaves the lines above and below whole', async () => {
    const lines = ['Home phone numbers are kept here', 'Please ring Juniperhall at the side door', 'The house has doorbells on both sides'];
    const source = await chromiumPdf(`<html><body style="font: 15px/1 'DejaVu Sans', sans-serif; margin: 40px">${lines.map((line) => `<div>${line}</div>`).join('')}</body></html>`);
    const target = stextWords(source).find((word) => word.text === 'Juniperhall');
    expect(target).toBeDefined();
    const word = target as StextWord;
    // Over the word's letters: from just below the baseline to the top of its capitals and ascenders.
    const box = { ...boxOver(word, 'r-mail'), y1: word.baseline - 0.3, y2: word.baseline + 0.76 * 15 * 0.75 };
    const { bytes, pages } = await release(source, new Map([[1, [box]]]), { ...SETTINGS, padding: 0.5 });
    expect((pages[0] as RewrittenPage).method).toBe('vector');
    const text = popplerText(bytes);
    expect(text).not.toContain('Juniperhall');
    expect(text).toContain(lines[0]);
    expect(text).toContain(lines[2]);
    expect(text).toMatch(/Please ring\s+at the side door/);
  });

  it('a box cutting glyphs: their parts outside it stay, as shapes cut by the box in the file; the black is the box', async () => {
    const source = tightPage();
    const target = wordBox(stextWords(source), 'second');
    // Only the middle of the word, cutting its first and last glyphs.
    const width = target.x2 - target.x1;
    const cut = { ...boxOver(target, 'r-2'), x1: target.x1 + 0.1 * width, x2: target.x2 - 0.1 * width };
    const { bytes, pages } = await release(source, new Map([[1, [cut]]]), { ...SETTINGS, padding: 0.5 });
    const page = pages[0] as RewrittenPage;
    expect(page.method).toBe('vector');
    const text = popplerText(bytes);
    expect(text).not.toMatch(/second|secon|econd/);
    expect(text).toContain(LINES[0]);
    expect(text).toContain(LINES[2]);
    expect(page.drawn).toEqual([expect.objectContaining({ box: 0, growth: 0, rects: [] })]);
    // Outside the padded box every pixel is the source's, the cut letters' outer parts included (they have ink),
    // as pdf.js draws both (poppler rasterises glyphs and shapes by different rules: see "underneath" below).
    const height = (await PDFDocument.load(source)).getPage(0).getHeight();
    const padded = box(cut.x1 - 0.5, cut.y1 - 0.5, cut.x2 + 0.5, cut.y2 + 0.5);
    const [before, after] = [await pdfjsPage(source), await pdfjsPage(bytes)];
    const firstLetterOutside = { x1: target.x1, y1: cut.y1 + 1, x2: padded.x1 - 0.3, y2: cut.y2 - 1 };
    const inkBefore = inkWithin(before, height, firstLetterOutside);
    expect(inkBefore).toBeGreaterThan(0.1);
    expect(inkWithin(after, height, firstLetterOutside)).toBeCloseTo(inkBefore, 2);
    const scale = DPI / 72;
    const mask = { x1: padded.x1 * scale - 1, y1: (height - padded.y2) * scale - 1, x2: padded.x2 * scale + 1, y2: (height - padded.y1) * scale + 1 };
    expect(comparePixels(before, after, [mask], 64).differing).toBe(0);
    // What is written outside the box draws nothing under it: without the black on top, the box is blank.
    const alone = await redactPdf(source, [cut], { padding: 0.5 });
    if (!alone.result.ok) throw new Error(alone.result.reason);
    const doc = await PDFDocument.load(source);
    doc.getPage(0).node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(alone.result.redacted)));
    const underneath = render(Buffer.from(await doc.save()));
    expect(darkShare(underneath, height, { x1: padded.x1 + 0.2, y1: padded.y1 + 0.2, x2: padded.x2 - 0.2, y2: padded.y2 - 0.2 })).toBe(0);
    expect(darkShare(underneath, height, firstLetterOutside)).toBeGreaterThan(0.1);
  });

  it('a Type 3 glyph away from every box no longer sends the page to rendering; one under a box goes, measured by d1', async () => {
    const type3 = (doc: { context: { register: (o: unknown) => unknown; stream: (s: string) => unknown } }): Literal => ({
      Font: {
        F1: { Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' },
        T3: {
          Type: 'Font',
          Subtype: 'Type3',
          FontBBox: [0, 0, 1000, 1000],
          FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
          // A bullet: a small square from 200 to 500 in glyph space.
          CharProcs: { bullet: doc.context.register(doc.context.stream('700 0 200 200 500 500 d1 200 200 300 300 re f')) },
          Encoding: { Type: 'Encoding', Differences: [65, 'bullet'] },
          FirstChar: 65,
          LastChar: 65,
          Widths: [700],
        },
      },
    } as unknown as Literal);
    const content = 'BT /T3 12 Tf 72 700 Td (A) Tj ET BT /F1 12 Tf 90 700 Td (Listitem Secretword) Tj ET BT /T3 12 Tf 72 600 Td (AA) Tj ET';
    const source = await pagePdf({ content, resources: type3 as never });
    const secret = bboxWords(source).find((word) => word.text === 'Secretword') as NonNullable<ReturnType<typeof bboxWords>[number]>;
    const away = await redactPdf(source, [boxOver(secret)]);
    expect(away.result.ok).toBe(true);
    expect(pdftotext(away.bytes as Buffer)).not.toContain('Secretword');
    expect(away.content).toContain('(A) Tj');
    // The bullets on the line at 600: the box covers the second one's square (x 80.4 to 84) only, by its d1 box.
    const onBullet = await redactPdf(source, [box(80, 601, 85, 607)], { padding: 0 });
    expect(onBullet.result.ok && onBullet.result.removedGlyphs).toBe(1);
    expect(onBullet.content).toMatch(/\[\(A\) -700\]TJ|\[\(A\)\s*-700\s*\]\s*TJ/);
  });

  it('outline bounds and code splitting', () => {
    // moveTo 0.1 0.2, curveTo (control points count), lineTo, closePath
    expect(outlineBounds([0, 0.1, 0.2, 2, 0.5, 0.9, 0.6, -0.1, 0.7, 0.3, 1, 0.1, 0.2, 4])).toEqual({ x1: 0.1, y1: -0.1, x2: 0.7, y2: 0.9 });
    expect(outlineBounds([])).toBe('none');
    expect(outlineBounds([9, 1, 1])).toBeUndefined();
    // One- and two-byte codes of a CMap: the only split that reads as pdf.js's codes.
    expect(splitCodes([Uint8Array.from([0x41, 0x81, 0x40, 0x42])], [0x41, 0x8140, 0x42])).toEqual([[1, 2, 1]]);
    expect(splitCodes([Uint8Array.from([0x00, 0x41])], [0x41])).toEqual([[2]]);
    expect(splitCodes([Uint8Array.from([0x41])], [0x42])).toBeNull();
  });
});
