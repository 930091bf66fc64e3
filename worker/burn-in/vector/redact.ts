import { decodePDFRawStream, PDFArray, PDFContentStream, PDFRawStream, type PDFContext, type PDFDocument, type PDFObject, type PDFPage } from 'pdf-lib';
import type { BurnBox } from '../../../main/common/export-tasks.js';
import type { Rect } from '../geometry.js';
import { drawnAreas, type DrawnRedaction } from './drawn.js';
import type { FormCopy } from './forms.js';
import type { ImageCopy } from './images.js';
import { areaOf } from './geometry.js';
import type { InkCursor } from './ink.js';
import { rewriteContent } from './interpret.js';
import { freeFontName, overlayContent, type DrawnLabel } from './overlay.js';
import { dictAt, resolved } from './pdf-values.js';

// Content-level redaction of one page: glyphs under the boxes leave the content stream, everything else stays
// as it was (vectors, fonts, images away from the boxes), and the boxes are drawn on top. Pages it cannot
// rewrite safely are reported with the reason; the caller renders those instead.

export interface RedactOptions {
  /** Points added on every side of each box. */
  padding: number;
  labels: boolean;
  /** Each glyph's ink as pdf.js reads the page (worker/burn-in/vector/ink.ts); without it, the fonts' extents. */
  ink?: InkCursor;
}

export type RedactResult =
  | {
      ok: true;
      /** The rewritten content with the boxes on top: the page's new /Contents. */
      content: Uint8Array;
      /** The rewritten content alone (what the page shows beside the boxes), for checking. */
      redacted: Uint8Array;
      removedGlyphs: number;
      /** Resource name the labels use for Helvetica-Bold (see addLabelFont); null when no label is drawn. */
      labelFont: string | null;
      /** The labels drawn, as text (a reader extracts them like any text). */
      labels: DrawnLabel[];
      /** The page's visible area (crop box within the media box). */
      visible: Rect;
      /** Per box, the black drawn beyond it over the glyphs it cuts. */
      drawn: DrawnRedaction[];
      /** Copies of forms whose text was redacted, drawn by the new content under their names. */
      forms: FormCopy[];
      /** Images under a box, to be redacted in their pixels (images.ts redactImage) and drawn under these names. */
      images: ImageCopy[];
    }
  | { ok: false; reason: string };

function contentBytes(context: PDFContext, object: PDFObject | undefined): Uint8Array[] {
  const value = resolved(context, object);
  if (value instanceof PDFArray) return value.asArray().flatMap((item) => contentBytes(context, item));
  if (value instanceof PDFRawStream) return [decodePDFRawStream(value).decode()];
  if (value instanceof PDFContentStream) return [value.getUnencodedContents()];
  if (value === undefined) return [];
  throw new Error('the page content is not a stream');
}

/** The page's content streams joined (a stream boundary separates tokens, so a line feed goes between). */
export function pageContent(doc: PDFDocument, pageIndex: number): Uint8Array {
  const page = doc.getPage(pageIndex);
  const parts = contentBytes(doc.context, page.node.Contents());
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [Buffer.from('\n'), part])));
}

export function visibleArea(doc: PDFDocument, pageIndex: number): Rect {
  return pageVisibleArea(doc.getPage(pageIndex));
}

/** The part of the media box the crop box shows. */
export function pageVisibleArea(page: PDFPage): Rect {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  return {
    x1: Math.max(media.x, crop.x),
    y1: Math.max(media.y, crop.y),
    x2: Math.min(media.x + media.width, crop.x + crop.width),
    y2: Math.min(media.y + media.height, crop.y + crop.height),
  };
}

function rotationOf(doc: PDFDocument, pageIndex: number): number {
  return ((Math.round(doc.getPage(pageIndex).getRotation().angle / 90) * 90) % 360 + 360) % 360;
}

/** Whether one box (with its padding) covers the whole visible area: the page is then rendered. */
function coversPage(boxes: readonly BurnBox[], padding: number, visible: Rect): boolean {
  return boxes.some((box) => {
    if (box.points.length >= 3) return false;
    const area = areaOf(box, padding).bounds;
    return area.x1 <= visible.x1 && area.y1 <= visible.y1 && area.x2 >= visible.x2 && area.y2 >= visible.y2;
  });
}

/**
 * Rewrites page `pageIndex` of `doc` (read only: nothing in the document changes) so that no glyph whose ink
 * meets a box (grown by the padding) or centred outside the visible area remains, and draws the boxes, grown
 * over the whole ink of the glyphs they cut, with their labels.
 */
export function redactPageContent(doc: PDFDocument, pageIndex: number, boxes: readonly BurnBox[], options: RedactOptions): RedactResult {
  const visible = visibleArea(doc, pageIndex);
  if (!(visible.x2 > visible.x1 && visible.y2 > visible.y1)) return { ok: false, reason: 'the page has no visible area' };
  if (coversPage(boxes, options.padding, visible)) return { ok: false, reason: 'a box covers the whole page' };
  let content: Uint8Array;
  try {
    content = pageContent(doc, pageIndex);
  } catch (error) {
    return { ok: false, reason: `the page content cannot be decoded: ${error instanceof Error ? error.message : String(error)}` };
  }
  const node = doc.getPage(pageIndex).node;
  const resources = node.Resources();
  const areas = boxes.map((box) => areaOf(box, options.padding));
  const rewritten = rewriteContent(doc.context, resources, content, { areas, visible, ...(options.ink && { ink: options.ink }) });
  if (!rewritten.ok) return rewritten;
  const labelFont = options.labels && boxes.some((box) => box.label) ? freeFontName(dictAt(doc.context, resources, 'Font')) : null;
  const drawn = drawnAreas(areas, rewritten.removed);
  const overlay = overlayContent(boxes, { padding: options.padding, rotate: rotationOf(doc, pageIndex), labelFont, grown: drawn.flatMap((entry) => entry.rects) });
  return {
    ok: true,
    content: Buffer.concat([rewritten.content, overlay.content]),
    redacted: rewritten.content,
    removedGlyphs: rewritten.removedGlyphs,
    labelFont: overlay.labels.length > 0 ? labelFont : null,
    labels: overlay.labels,
    visible,
    drawn,
    forms: rewritten.forms,
    images: rewritten.images,
  };
}

export { addLabelFont } from './overlay.js';
