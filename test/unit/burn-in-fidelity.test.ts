import { PDFDocument, PDFName } from 'pdf-lib';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { BurnBox, DrawnBox } from '../../main/common/export-tasks.js';
import { asRects, comparePage, comparePixels, compareWords, drawnAreas, wordsOfPage } from '../../worker/burn-in/fidelity/index.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { rewrittenProblems, type RewrittenLists } from '../../worker/burn-in/rewrite-check.js';
import { pageWords, sortWords } from '../../worker/burn-in/vector-pages.js';
import { InkCursor, pageInk } from '../../worker/burn-in/vector/ink.js';
import { redactPageContent } from '../../worker/burn-in/vector/redact.js';
import { box, helvetica, helveticaWidth, pagePdf } from '../helpers/vector-pdfs.js';

// The two-way check: a rewritten page whose content lost text outside the drawn areas is caught by (b) words
// and (c) pixels, so method auto renders it instead. The leak check alone (the code before issue 15) passed it.
// Both run as verification runs them on the written file (verify.ts): the read-back against the rewriting's
// lists (rewrite-check.ts) first, then, on a page that passes it, comparePage against the source page.

const ABOVE = 'BT /F1 12 Tf 72 713 Td (Aboveline stays) Tj ET';
const MIDDLE = 'BT /F1 12 Tf 72 700 Td (Keepword Secretword) Tj ET';
const BELOW = 'BT /F1 12 Tf 72 687 Td (Belowline stays) Tj ET';
const PAGE = `${ABOVE} ${MIDDLE} ${BELOW}`;
const PADDING = 0.5;

async function secretBox(): Promise<BurnBox> {
  const start = 72 + (await helveticaWidth('Keepword ', 12));
  return box(start - 0.5, 698, start + (await helveticaWidth('Secretword', 12)) + 0.5, 709);
}

type Drawn = DrawnBox[];

/** A page rewritten by `redacted`: the file with its new content (no boxes drawn over it), the rewriting's lists and drawn areas. */
interface Rewritten {
  written: Uint8Array;
  lists: RewrittenLists;
  drawn: Drawn;
}

async function rewritten(bytes: Buffer, boxes: BurnBox[], redacted: (doc: PDFDocument, page: PDFPageProxy) => Promise<{ content: Uint8Array; drawn: Drawn }>): Promise<Rewritten> {
  const doc = await PDFDocument.load(bytes);
  const document = await openPdf(bytes);
  try {
    const page = await document.getPage(1);
    const words = await pageWords(page);
    const visible = { x1: 0, y1: 0, x2: 612, y2: 792 };
    const made = await redacted(doc, page);
    const { withheld, kept } = sortWords(words, [], boxes, PADDING, visible);
    doc.getPage(0).node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(made.content)));
    return { written: await doc.save({ useObjectStreams: false }), lists: { boxes, visible, kept, withheld: [...withheld] }, drawn: made.drawn };
  } finally {
    await document.destroy();
  }
}

/**
 * The written page checked as verify() checks a page redacted in its content: read back against its own lists,
 * and when it passes, compared with the source page outside the drawn areas. Its problems; empty when it passes.
 */
async function checked(bytes: Buffer, made: Rewritten, twoWay = true): Promise<string[]> {
  const [source, output] = await Promise.all([openPdf(bytes), openPdf(made.written)]);
  try {
    const [sourcePage, outputPage] = await Promise.all([source.getPage(1), output.getPage(1)]);
    const outputWords = await wordsOfPage(outputPage);
    const rejected = rewrittenProblems(outputWords, made.lists);
    if (rejected.length > 0 || !twoWay) return rejected;
    const drawn = asRects(drawnAreas(made.lists.boxes, PADDING, made.drawn));
    return (await comparePage({ source: { document: source, page: sourcePage }, output: { document: output, page: outputPage }, drawn, kind: 'vector', outputWords })).problems;
  } finally {
    await Promise.all([source.destroy(), output.destroy()]);
  }
}

describe('fidelity: the two-way check of a rewritten page', () => {
  it('passes a page that lost only what lay under its box', async () => {
    const bytes = await pagePdf({ content: PAGE, resources: helvetica });
    const boxes = [await secretBox()];
    const good = await rewritten(bytes, boxes, async (doc, page) => {
      const result = redactPageContent(doc, 0, boxes, { padding: PADDING, labels: false, ink: new InkCursor(await pageInk(page)) });
      if (!result.ok) throw new Error(result.reason);
      const drawn = result.drawn.map((entry) => ({ box: entry.box, redactionId: null, growth: entry.growth, rects: entry.rects.map((rect): [number, number, number, number] => [rect.x1, rect.y1, rect.x2, rect.y2]) }));
      return { content: result.redacted, drawn };
    });
    expect(await checked(bytes, good)).toEqual([]);
  });

  it('catches a line above the box erased with it: (b) words and (c) pixels, where the leak check saw nothing', async () => {
    const bytes = await pagePdf({ content: PAGE, resources: helvetica });
    const boxes = [await secretBox()];
    const erased = async () => ({ content: Buffer.from(`BT /F1 12 Tf 72 700 Td (Keepword) Tj ET ${BELOW}`), drawn: [] });
    // The check before issue 15: nothing under the box survives, so the page passed.
    const made = await rewritten(bytes, boxes, erased);
    expect(await checked(bytes, made, false)).toEqual([]);
    const problems = await checked(bytes, made);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^2 of 4 word\(s\) outside the drawn areas are missing from its text \(first at x 72\.0, y 7\d\d\.\d\)$/);
    expect(problems[1]).toMatch(/pixel\(s\) outside the drawn areas differ from the source \(at most 24 may\)/);
  });

  it('catches a few letters cut from a word beside the box by pixels, and the word by its text', async () => {
    const bytes = await pagePdf({ content: PAGE, resources: helvetica });
    const boxes = [await secretBox()];
    // "Keepword" lost its last two letters (as font-wide bounds once cut neighbours): no box covers them.
    const cut = await rewritten(bytes, boxes, async () => ({ content: Buffer.from(`${ABOVE} BT /F1 12 Tf 72 700 Td (Keepwo) Tj ET ${BELOW}`), drawn: [] }));
    const problems = await checked(bytes, cut);
    expect(problems.some((problem) => /word\(s\) outside the drawn areas are missing/.test(problem))).toBe(true);
    expect(problems.some((problem) => /pixel\(s\) outside the drawn areas differ/.test(problem))).toBe(true);
  });
});

describe('fidelity: the parts', () => {
  it('drawn areas are the padded boxes (polygons by their bounds) and the recorded growth', () => {
    const polygon = { x1: 0, y1: 0, x2: 0, y2: 0, points: [{ x: 10, y: 10 }, { x: 30, y: 12 }, { x: 20, y: 40 }] };
    expect(drawnAreas([box(100, 100, 150, 120), polygon], 1, [{ rects: [[150, 98, 155, 121]] }])).toEqual([
      [99, 99, 151, 121],
      [9, 9, 31, 41],
      [150, 98, 155, 121],
    ]);
  });

  it('compareWords: words touching a drawn area are not looked for; the others must stand within 1 pt', () => {
    const word = (text: string, x1: number, y1 = 700) => ({ text, x1, y1, x2: x1 + 40, y2: y1 + 12, slackX: 0.1, slackY: 0 });
    const source = [word('alpha', 72), word('beta', 120), word('gamma', 200)];
    const drawn = asRects([[118, 698, 162, 714]]);
    const visible = { x1: 0, y1: 0, x2: 612, y2: 792 };
    expect(compareWords(source, [word('alpha', 72.6), word('gamma', 200)], drawn, visible)).toMatchObject({ checked: 2, missing: 0 });
    expect(compareWords(source, [word('alpha', 73.5), word('gamma', 200)], drawn, visible)).toMatchObject({ checked: 2, missing: 1, firstMissing: { x1: 72, y1: 700 } });
    expect(compareWords(source, [word('gamma', 200)], drawn, visible).missing).toBe(1);
    // Glued to a neighbour by the reader: still there.
    expect(compareWords([word('alpha', 72)], [{ ...word('alphaomega', 71.5), x2: 160 }], [], visible).missing).toBe(0);
  });

  it('compareWords: an estimated word may stand off by its own and its counterpart\'s slack, not more', () => {
    // A word shared out of a long run (no font widths) whose run a removal split: the output's estimate of the
    // untouched word moved 2.4 pt. Both estimates declare 0.8 pt slack each: 1 + 0.8 + 0.8 = 2.6 pt allowed.
    const estimated = (x1: number, slackX: number) => ({ text: 'untouched', x1, y1: 700, x2: x1 + 50, y2: 712, slackX, slackY: 0 });
    const visible = { x1: 0, y1: 0, x2: 612, y2: 792 };
    expect(compareWords([estimated(300, 0.8)], [estimated(302.4, 0.8)], [], visible).missing).toBe(0);
    expect(compareWords([estimated(300, 0.8)], [estimated(302.8, 0.8)], [], visible).missing).toBe(1);
    // Exact boxes (no slack) keep the stated 1 pt.
    expect(compareWords([estimated(300, 0)], [estimated(301.2, 0)], [], visible).missing).toBe(1);
    // Glued to a neighbour, with estimates as loose.
    expect(compareWords([estimated(300, 0.8)], [{ ...estimated(298, 0.8), text: 'untouchedword', x2: 400 }], [], visible).missing).toBe(0);
  });

  it('comparePixels: counts pixels beyond the grey tolerance outside the masks only', () => {
    const a = { width: 4, height: 2, pixels: new Uint8Array([255, 255, 0, 0, 255, 255, 255, 255]) };
    const b = { width: 4, height: 2, pixels: new Uint8Array([255, 200, 255, 255, 255, 255, 255, 0]) };
    expect(comparePixels(a, b, [], 64)).toMatchObject({ compared: 8, differing: 3 });
    expect(comparePixels(a, b, [{ x1: 2, y1: 0, x2: 4, y2: 1 }], 64)).toMatchObject({ compared: 6, differing: 1, where: { x1: 3, y1: 1, x2: 4, y2: 2 } });
  });
});
