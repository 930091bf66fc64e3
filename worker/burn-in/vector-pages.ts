import fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BurnBox, BurnPageRequest, DrawnBox, ExportBurnTask, LayerWord, RewrittenPage } from '../../main/common/export-tasks.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { CannotCopyPage, prepareCopy } from './copy.js';
import { hiddenContent, readAnew, type PageReader } from '../pdf-glyphs/index.js';
import type { KeptSource } from './kept-sources.js';
import { drawnAreas } from './fidelity/index.js';
import { loadWritable } from './decrypt/index.js';
import { center, contains, mayBeCovered, type Rect } from './geometry.js';
import { core, under } from './rewrite-check.js';
import { fontWidthsOf, openPdf, textRuns } from './pdfjs.js';
import { deflated, type FormCopy } from './vector/forms.js';
import { redactImage, type ImageData } from './vector/images.js';
import { InkCursor, pageInk } from './vector/ink.js';
import { redactPageContent } from './vector/redact.js';
import { layerText, token, wordsFromRuns, type SourceWord } from './words.js';
import { WRITE_WHOLE } from '../pdf-lib-load.js';

// Method auto for PDF pages: each page with boxes is first redacted in its content (worker/burn-in/vector/).
// A page that cannot be rewritten is rendered (raster path) instead; the reason travels with it. The rewritten
// pages are read back by pdf.js, independently of the rewriting, not here but once, on the written file
// (verify.ts): no word of the source that lay under a box may come back, no word of the result may lie under one
// (rewrite-check.ts), and the two-way check against the source page (fidelity/). A page either refuses is
// rendered and the file made again (main/jobs/export/verify.ts).

/** A rewritten page, or why the page must be rendered. */
export type VectorOutcome = RewrittenPage | string;

/** A page rewritten in its content, before its content is written. */
interface Candidate {
  /** 1-based. */
  page: number;
  boxes: readonly BurnBox[];
  visible: Rect;
  /** Words the page's text put under a box (tokens), and the words that stay. */
  withheld: Set<string>;
  kept: LayerWord[];
  /** Stored words the page's text lacks (OCR of a scan) that stay: the page's invisible text layer. */
  ocrLayer?: LayerWord[];
  /** Copies of forms the new content draws (their text redacted); none when absent. */
  forms?: FormCopy[];
  /** Images the new content draws redacted in their pixels; none when absent. */
  images?: RedactedImage[];
}

interface RedactedImage {
  name: string;
  replaces: string;
  data: ImageData;
  bytes: Uint8Array;
}

interface Rewritten extends Candidate {
  content: Uint8Array;
  labelFont: string | null;
  labels: LayerWord[];
  /** The stored (OCR) words of the page, as given. */
  stored: SourceWord[] | null;
  removedGlyphs: number;
  drawn: DrawnBox[];
}

function storedWords(words: readonly PageWord[] | null): SourceWord[] {
  return (words ?? [])
    .filter((word) => word.text.trim() !== '')
    .map((word) => ({ text: word.text, x1: Math.min(word.x1, word.x2), y1: Math.min(word.y1, word.y2), x2: Math.max(word.x1, word.x2), y2: Math.max(word.y1, word.y2), slackX: 0, slackY: 0 }));
}

/** The words of a page as pdf.js reads them, placed with the page's own font widths (fonts loaded first). */
export async function pageWords(page: PDFPageProxy, reader: Pick<PageReader, 'textContent'> = readAnew): Promise<SourceWord[]> {
  // Annotations drawn (a superset of the fonts of forms mode): the list the glyph reading and the ink use too.
  await page.getOperatorList({ intent: 'display', annotationMode: 1 });
  return wordsFromRuns(await textRuns(page, reader), fontWidthsOf(page));
}

/**
 * The words of pages whose annotation appearances were flattened into their content (prepareCopy), read back
 * by pdf.js: the text annotations show (a FreeText's, a field's value) is then page text, which the leak check
 * must know on both sides (pdf.js leaves annotations out of a page's text).
 */
async function flattenedWords(source: PDFDocument, pages: readonly number[]): Promise<Map<number, SourceWord[]>> {
  const words = new Map<number, SourceWord[]>();
  if (pages.length === 0) return words;
  const scratch = await PDFDocument.create({ updateMetadata: false });
  for (const copy of await scratch.copyPages(source, pages.map((page) => page - 1))) scratch.addPage(copy);
  const document = await openPdf(await scratch.save({ ...WRITE_WHOLE, useObjectStreams: false }));
  try {
    for (const [index, number] of pages.entries()) {
      const page = await document.getPage(index + 1);
      try {
        words.set(number, await pageWords(page));
      } finally {
        page.cleanup();
      }
    }
  } finally {
    await document.destroy();
  }
  return words;
}

/** A word whose middle lies under a padded box, or whose centre lies outside the visible area. */
function underOrOutside(word: SourceWord, boxes: readonly BurnBox[], padding: number, visible: Rect): boolean {
  return !contains(visible, center(word)) || under(boxes, core(word), padding);
}

/**
 * What the leak check looks for on a rewritten page: words of the page's text (or of its stored words) whose
 * middle lies under a padded box or whose centre lies outside the visible area. Every other word of the page's
 * own text is the allowance (the same word may stand elsewhere).
 */
export function sortWords(fromText: readonly SourceWord[], stored: readonly SourceWord[], boxes: readonly BurnBox[], padding: number, visible: Rect) {
  const withheld = new Set<string>();
  const kept: LayerWord[] = [];
  for (const word of fromText) {
    if (underOrOutside(word, boxes, padding, visible)) withheld.add(token(word.text));
    else kept.push({ text: word.text, x1: word.x1, y1: word.y1, x2: word.x2, y2: word.y2 });
  }
  for (const word of stored) if (underOrOutside(word, boxes, padding, visible)) withheld.add(token(word.text));
  withheld.delete('');
  return { withheld, kept };
}

/**
 * Stored words (OCR) that the page's own text does not hold: text a scan shows only as pixels. Those clear of
 * every box by the rendered pages' rule (any part within the padding and a quarter unit) become the rewritten
 * page's invisible text layer, so a scan redacted in its content stays as searchable as a rendered one. The
 * page's own text outranks them: a word it puts near a box never joins the layer, wherever OCR placed it.
 */
async function imageOnlyWords(fromText: readonly SourceWord[], stored: readonly SourceWord[], boxes: readonly BurnBox[], padding: number, visible: Rect): Promise<LayerWord[]> {
  const margin = padding + 0.25;
  const refused = new Set<string>();
  for (const word of fromText) if (mayBeCovered(word, boxes, margin, visible)) refused.add(token(word.text));
  const layer: LayerWord[] = [];
  for (const word of stored) {
    const middle = center(word);
    if (mayBeCovered(word, boxes, margin, visible) || refused.has(token(word.text)) || fromText.some((text) => contains(text, middle))) continue;
    const text = await layerText(word.text);
    if (text !== '') layer.push({ text, x1: word.x1, y1: word.y1, x2: word.x2, y2: word.y2 });
  }
  return layer;
}

function contentFile(task: ExportBurnTask, page: number): string {
  return `${task.workPrefix}-d${task.source.documentId}-p${page}.content`;
}

/**
 * Tries every requested page of a PDF in its content. Pages that pass come back as RewrittenPage (their
 * content written beside the page images); the others as the reason they must be rendered.
 */
export async function rewritePages(
  document: PDFDocumentProxy,
  bytes: Uint8Array,
  requests: readonly BurnPageRequest[],
  task: ExportBurnTask,
  /** Filled with the words of pages whose annotation appearances were flattened (their text included). */
  flattenedText?: Map<number, SourceWord[]>,
  /** Where the pages read here are kept for the export's check (kept-sources.ts); default read anew and let go. */
  kept?: KeptSource,
): Promise<Map<number, VectorOutcome>> {
  const reader = kept?.reader ?? readAnew;
  const outcomes = new Map<number, VectorOutcome>();
  const wanted = requests.filter((request) => request.boxes.length > 0);
  if (wanted.length === 0) return outcomes;
  let source: PDFDocument;
  try {
    source = await loadWritable(bytes);
  } catch (error) {
    for (const request of wanted) outcomes.set(request.page, `pdf-lib cannot read the file: ${error instanceof Error ? error.message : String(error)}`);
    return outcomes;
  }
  if (source.getPageCount() !== document.numPages) {
    for (const request of wanted) outcomes.set(request.page, 'pdf-lib and pdf.js count the pages differently');
    return outcomes;
  }
  const { padding, labels } = task.settings;
  const candidates: Rewritten[] = [];
  const flattened: number[] = [];
  const copyable: BurnPageRequest[] = [];
  for (const request of wanted) {
    try {
      // The page as assembly will copy it: cut down to what draws it, annotation appearances flattened.
      if (prepareCopy(source, request.page - 1) > 0) flattened.push(request.page);
      copyable.push(request);
    } catch (error) {
      if (!(error instanceof CannotCopyPage)) throw error;
      outcomes.set(request.page, error.message);
    }
  }
  let annotated: Map<number, SourceWord[]>;
  try {
    annotated = await flattenedWords(source, flattened);
    for (const [page, words] of annotated) flattenedText?.set(page, words);
  } catch (error) {
    for (const page of flattened) outcomes.set(page, `the page with its annotations flattened cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    annotated = new Map();
  }
  for (const request of copyable) {
    if (outcomes.has(request.page)) continue;
    const page = await document.getPage(request.page);
    let words: SourceWord[];
    let ink: InkCursor;
    try {
      // Text a viewer of the source never shows (a layer that is off, invisible text that is no OCR layer of
      // the page's picture, text outside the crop box or under an opaque fill) must not travel: such a page is
      // rendered, its text layer made only of what shows.
      const hidden = task.keepHidden ? [] : hiddenContent(await reader.glyphs(document, page));
      if (hidden.length > 0) {
        outcomes.set(request.page, `the page holds text its viewer does not show (${hidden.map((entry) => `${entry.kind}: ${entry.glyphs} glyph(s)`).join(', ')})`);
        continue;
      }
      // Each glyph's own ink decides whether it goes (pdf.js reads the fonts' outlines).
      ink = new InkCursor(await pageInk(page));
      words = annotated.get(request.page) ?? (await pageWords(page, reader));
    } catch (error) {
      outcomes.set(request.page, `pdf.js cannot read the page's glyphs: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    } finally {
      if (kept) await kept.keep(page, true);
      else page.cleanup();
    }
    let result: ReturnType<typeof redactPageContent>;
    try {
      result = redactPageContent(source, request.page - 1, request.boxes, { padding, labels, ink });
    } catch (error) {
      // Whatever the rewriting did not foresee (malformed objects, numbers out of range) is the raster path's.
      result = { ok: false, reason: `the content could not be rewritten: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!result.ok) {
      outcomes.set(request.page, result.reason);
      continue;
    }
    const images: RedactedImage[] = [];
    try {
      for (const copy of result.images) images.push({ name: copy.name, replaces: copy.replaces, ...(await redactImage(source, copy)) });
    } catch (error) {
      outcomes.set(request.page, `an image under a box cannot be redacted in its pixels: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const stored = storedWords(request.words);
    const sorted = sortWords(words, stored, request.boxes, padding, result.visible);
    const ocrLayer = await imageOnlyWords(words, stored, request.boxes, padding, result.visible);
    candidates.push({
      stored,
      page: request.page,
      boxes: request.boxes,
      content: result.content,
      labelFont: result.labelFont,
      // The labels are text too: the leak check allows what they say.
      labels: result.labels,
      removedGlyphs: result.removedGlyphs,
      forms: result.forms,
      images,
      drawn: result.drawn.map((entry) => ({
        box: entry.box,
        redactionId: request.boxes[entry.box]?.id ?? null,
        rects: entry.rects.map((rect): [number, number, number, number] => [rect.x1, rect.y1, rect.x2, rect.y2]),
        growth: entry.growth,
      })),
      visible: result.visible,
      ...sorted,
      ocrLayer,
    });
  }
  // Read back once, on the written file (verify.ts, rewrite-check.ts): a page that fails is refused there and
  // rendered, the file made again.
  for (const candidate of candidates) {
    const file = contentFile(task, candidate.page);
    fs.writeFileSync(file, deflateSync(candidate.content));
    const forms: NonNullable<RewrittenPage['forms']> = [];
    for (const [index, form] of (candidate.forms ?? []).entries()) {
      const path = `${file}-form${index + 1}`;
      fs.writeFileSync(path, deflated(form.content));
      forms.push({ name: form.name, object: [form.ref.objectNumber, form.ref.generationNumber], contentPath: path });
    }
    const images: NonNullable<RewrittenPage['images']> = [];
    for (const [index, image] of (candidate.images ?? []).entries()) {
      const path = `${file}-image${index + 1}`;
      fs.writeFileSync(path, image.bytes);
      images.push({ name: image.name, replaces: image.replaces, contentPath: path, data: image.data });
    }
    outcomes.set(candidate.page, {
      method: 'vector',
      page: candidate.page,
      contentPath: file,
      labelFont: candidate.labelFont,
      removedGlyphs: candidate.removedGlyphs,
      drawn: candidate.drawn,
      drawnAreas: drawnAreas(candidate.boxes, padding, candidate.drawn),
      ...(forms.length > 0 && { forms }),
      ...(images.length > 0 && { images }),
      words: [...candidate.kept, ...candidate.labels, ...(candidate.ocrLayer ?? [])],
      ...(candidate.ocrLayer && candidate.ocrLayer.length > 0 && { textLayer: candidate.ocrLayer }),
      withheld: [...candidate.withheld],
      labels: candidate.labels.map((label) => label.text),
      rewriting: { boxes: [...candidate.boxes], visible: candidate.visible },
      ...(candidate.stored && { stored: candidate.stored.map(({ text, x1, y1, x2, y2 }) => ({ text, x1, y1, x2, y2 })) }),
    });
  }
  return outcomes;
}
