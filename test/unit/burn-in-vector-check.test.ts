import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString, type PDFDict } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { BurnBox, ExportBurnTask } from '../../main/common/export-tasks.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { wordsOfPage } from '../../worker/burn-in/fidelity/index.js';
import { rewrittenProblems, type RewrittenLists } from '../../worker/burn-in/rewrite-check.js';
import { pageWords, rewritePages, sortWords } from '../../worker/burn-in/vector-pages.js';
import { addLabelFont, pageContent, redactPageContent } from '../../worker/burn-in/vector/redact.js';
import { leakedWords } from '../../worker/burn-in/words.js';
import { tempDir } from '../helpers/temp.js';
import { box, helvetica, helveticaWidth, pagePdf, standardFont } from '../helpers/vector-pdfs.js';

// The safety net of method auto: a rewritten page is read back by pdf.js from the written file against the
// rewriting's own lists (rewrite-check.ts, run by verify.ts), and a page that still shows withheld text, or text
// under a box, is refused there and goes to the raster path instead.

const LINE = 'BT /F1 12 Tf 72 700 Td (Keepword Secretword) Tj ET BT /F1 12 Tf 72 500 Td (Otherline) Tj ET';

async function secretBox(): Promise<BurnBox> {
  const start = 72 + (await helveticaWidth('Keepword ', 12));
  return box(start - 1, 696, start + (await helveticaWidth('Secretword', 12)) + 1, 711);
}

/** The rewriting's lists for `boxes` on page 1 of `bytes`, as rewritePages sorts the page's words. */
async function listsFor(bytes: Buffer, boxes: BurnBox[]): Promise<RewrittenLists> {
  const document = await openPdf(bytes);
  try {
    const words = await pageWords(await document.getPage(1));
    const visible = { x1: 0, y1: 0, x2: 612, y2: 792 };
    const { withheld, kept } = sortWords(words, [], boxes, 1, visible);
    return { boxes, visible, kept, withheld: [...withheld] };
  } finally {
    await document.destroy();
  }
}

/** Page 1 of `bytes` with `redacted(doc)` as its content, written, read back by pdf.js as verification reads it and checked against `lists`. */
async function readBack(bytes: Buffer, lists: RewrittenLists, redacted: (doc: PDFDocument) => Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  doc.getPage(0).node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(redacted(doc))));
  const document = await openPdf(await doc.save({ useObjectStreams: false }));
  try {
    return rewrittenProblems(await wordsOfPage(await document.getPage(1)), lists);
  } finally {
    await document.destroy();
  }
}

/** The page as released: the rewritten content (boxes and labels included) read by pdf.js, split like verification does. */
async function releasedWords(bytes: Uint8Array, contentPath: string, labelFont: string | null): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const page = doc.getPage(0);
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(fs.readFileSync(contentPath), { Filter: 'FlateDecode' })));
  if (labelFont) addLabelFont(doc.context, page.node.Resources() as PDFDict, labelFont);
  const document = await openPdf(await doc.save());
  try {
    const content = await (await document.getPage(1)).getTextContent();
    return content.items.flatMap((item) => ('str' in item ? item.str.split(/\s+/u) : []));
  } finally {
    await document.destroy();
  }
}

describe('method auto: the check of rewritten pages', () => {
  it('labels are text on a rewritten page: a withheld "(b)" is not taken for a leak of the label "(b)(6)"', async () => {
    const bytes = new Uint8Array(await pagePdf({ content: 'BT /F1 12 Tf 72 700 Td (Item \\(b\\) applies) Tj ET', resources: helvetica }));
    const start = 72 + (await helveticaWidth('Item ', 12));
    const boxes = [box(start - 0.5, 696, start + (await helveticaWidth('(b)', 12)) + 0.5, 711, '(b)(6)')];
    const dir = tempDir('obscura-vector-pages-');
    const task: ExportBurnTask = {
      kind: 'export-burn',
      exportId: 1,
      source: { documentId: 3, path: path.join(dir, 'source.pdf'), documentType: 'pdf' },
      pages: [{ page: 1, boxes, words: null }],
      allPages: false,
      settings: { dpi: 72, padding: 0.5, labels: true, imageMode: 'auto', jpegQuality: 80, method: 'auto' },
      workPrefix: path.join(dir, 'work'),
    };
    const document = await openPdf(bytes);
    try {
      const outcome = (await rewritePages(document, bytes, task.pages, task)).get(1);
      if (typeof outcome !== 'object') throw new Error(`not rewritten: ${String(outcome)}`);
      expect(outcome.withheld).toEqual(['(b)']);
      const released = await releasedWords(bytes, outcome.contentPath, outcome.labelFont);
      expect(released).toContain('(b)(6)');
      expect(leakedWords(released, outcome.words, outcome.withheld)).toBe(0);
      // Without the labels among the words that stay, the label would count as the withheld "(b)".
      expect(leakedWords(released, outcome.words.filter((word) => word.text !== '(b)(6)'), outcome.withheld)).toBe(1);
    } finally {
      await document.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });


  it('the words of the page under a box are withheld; the others are the allowance', async () => {
    const lists = await listsFor(await pagePdf({ content: LINE, resources: helvetica }), [await secretBox()]);
    expect(lists.withheld).toEqual(['Secretword']);
    expect(lists.kept.map((word) => word.text)).toEqual(['Keepword', 'Otherline']);
  });

  it('passes a correctly rewritten page, and fails one that still holds the text under its box', async () => {
    const bytes = await pagePdf({ content: LINE, resources: helvetica });
    const boxes = [await secretBox()];
    const lists = await listsFor(bytes, boxes);
    const good = await readBack(bytes, lists, (doc) => {
      const result = redactPageContent(doc, 0, boxes, { padding: 1, labels: true });
      if (!result.ok) throw new Error(result.reason);
      return result.redacted;
    });
    expect(good).toEqual([]);

    const untouched = await readBack(bytes, lists, (doc) => pageContent(doc, 0));
    expect(untouched).toEqual(['1 word(s) that lay under a box are still in its text', 'text still lies under a box']);

    // Moved away from the box but still there: the words are counted, not only placed.
    const moved = await readBack(bytes, lists, () => Buffer.from('BT /F1 12 Tf 72 700 Td (Keepword) Tj ET BT /F1 12 Tf 300 100 Td (Secretword) Tj ET BT /F1 12 Tf 72 500 Td (Otherline) Tj ET'));
    expect(moved).toEqual(['1 word(s) that lay under a box are still in its text']);
  });

  it('rewritePages: rewrites what it can, hands the rest to the raster path with the reason', async () => {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const image = doc.context.register(doc.context.stream(new Uint8Array([0, 255, 0, 255]), { Type: 'XObject', Subtype: 'Image', Width: 2, Height: 2, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }));
    const contents = [LINE, `q 200 0 0 40 150 690 cm /Im1 Do Q ${LINE}`, LINE];
    for (const content of contents) {
      const page = doc.addPage([612, 792]);
      page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(content)));
      page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: standardFont('Helvetica') }, XObject: { Im1: image } }));
    }
    // Page 3 shows a stamp: its appearance is drawn by the page's content (flattened), the page rewritten.
    const appearance = doc.context.register(doc.context.stream('0 0 10 10 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }));
    doc.getPage(2).node.set(PDFName.of('Annots'), doc.context.obj([doc.context.obj({ Type: 'Annot', Subtype: 'Stamp', Rect: [0, 0, 10, 10], AP: { N: appearance }, Contents: PDFString.of('note') })]));
    const bytes = new Uint8Array(await doc.save());
    const dir = tempDir('obscura-vector-pages-');
    const boxes = [{ ...(await secretBox()), label: '(b)(6)' }];
    const task: ExportBurnTask = {
      kind: 'export-burn',
      exportId: 1,
      source: { documentId: 7, path: path.join(dir, 'source.pdf'), documentType: 'pdf' },
      pages: [1, 2, 3].map((page) => ({ page, boxes, words: null })),
      allPages: false,
      settings: { dpi: 72, padding: 1, labels: true, imageMode: 'auto', jpegQuality: 80, method: 'auto' },
      workPrefix: path.join(dir, 'work'),
    };
    const document = await openPdf(bytes);
    try {
      const outcomes = await rewritePages(document, bytes, task.pages, task);
      const first = outcomes.get(1);
      expect(first).toMatchObject({ method: 'vector', page: 1, withheld: ['Secretword'], labelFont: 'ObscuraLabel' });
      // Its 2 × 2 pixels are 100 × 20 pt each: blackened whole, they would reach far beyond the box.
      expect(outcomes.get(2)).toMatch(/an image under a box has pixels of 100.0 pt/);
      const third = outcomes.get(3);
      expect(third).toMatchObject({ method: 'vector', page: 3 });
      if (typeof third === 'object') expect(inflateSync(fs.readFileSync(third.contentPath)).toString('latin1')).toMatch(/q 1 0 0 1 0 0 cm \/ObscuraAnnot1 Do Q/);
      if (typeof first !== 'object') return;
      const written = inflateSync(fs.readFileSync(first.contentPath)).toString('latin1');
      expect(written).not.toContain('Secretword');
      expect(written).toMatch(/re f/);
      expect(written).toMatch(/\/ObscuraLabel [\d.]+ Tf/);
      expect(first.removedGlyphs).toBeGreaterThanOrEqual(10);
    } finally {
      await document.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
