import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName, StandardFonts, degrees, type PDFContext, type PDFDict } from 'pdf-lib';
import type { BurnBox } from '../../main/common/export-tasks.js';
import { openPdf, textRuns } from '../../worker/burn-in/pdfjs.js';
import { InkCursor, pageInk } from '../../worker/burn-in/vector/ink.js';
import { addLabelFont, redactPageContent, type RedactOptions, type RedactResult } from '../../worker/burn-in/vector/redact.js';
import { tempDir } from './temp.js';

// Hand-written one-page PDFs for the content-level redaction tests, and independent readers of the result:
// pdf.js text items and poppler renderings.

/** pdf-lib's literal dictionaries (its LiteralObject type is not exported). */
export type Literal = NonNullable<Parameters<PDFContext['stream']>[1]>;

export interface PageSpec {
  content: string;
  /** Built with the page's context: dictionaries of fonts, XObjects… by resource kind. */
  resources?: (doc: PDFDocument) => Literal;
  size?: [number, number];
  crop?: [number, number, number, number];
  rotate?: number;
}

/** A one-page PDF with exactly this content (no pdf-lib operators), saved and loaded back as a reader would. */
export async function pagePdf(spec: PageSpec): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage(spec.size ?? [612, 792]);
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(spec.content)));
  page.node.set(PDFName.of('Resources'), doc.context.obj(spec.resources?.(doc) ?? {}));
  if (spec.crop) page.setCropBox(...spec.crop);
  if (spec.rotate) page.setRotation(degrees(spec.rotate));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** A standard 14 font dictionary, not embedded. */
export function standardFont(baseFont: string, encoding: Literal[string] = 'WinAnsiEncoding'): Literal {
  return { Type: 'Font', Subtype: 'Type1', BaseFont: baseFont, ...(encoding !== null && { Encoding: encoding }) };
}

export const helvetica = (): Literal => ({ Font: { F1: standardFont('Helvetica') } });

/** Advance of `text` in Helvetica at `size` from pdf-lib's metrics (independent of the code under test; no kerning, as in PDF text). */
export async function helveticaWidth(text: string, size: number): Promise<number> {
  const doc = await PDFDocument.create();
  const font = doc.embedStandardFont(StandardFonts.Helvetica);
  return Array.from(text).reduce((sum, char) => sum + font.widthOfTextAtSize(char, size), 0);
}

export interface Applied {
  result: RedactResult;
  /** The output PDF (the source with the page's content replaced), or null when redaction bailed. */
  bytes: Buffer | null;
  content: string;
}

/** Each glyph's ink on page `page` as the export reads it (pdf.js), or an error message. */
export async function inkOf(bytes: Uint8Array, page = 1): Promise<InkCursor | string> {
  const document = await openPdf(bytes);
  try {
    return new InkCursor(await pageInk(await document.getPage(page)));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await document.destroy();
  }
}

/** Redacts page 1 as the export does: glyphs' ink from pdf.js unless `withoutInk` (fonts' own extents). */
export async function redactPdf(bytes: Buffer, boxes: BurnBox[], options: Partial<RedactOptions> & { withoutInk?: boolean } = {}): Promise<Applied> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const { withoutInk, ...rest } = options;
  const ink = withoutInk ? undefined : await inkOf(bytes);
  if (typeof ink === 'string') throw new Error(ink);
  const result = redactPageContent(doc, 0, boxes, { padding: 1, labels: false, ...(ink && { ink }), ...rest });
  if (!result.ok) return { result, bytes: null, content: '' };
  const page = doc.getPage(0);
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(result.content)));
  if (result.labelFont) addLabelFont(doc.context, page.node.Resources() as PDFDict, result.labelFont);
  return { result, bytes: Buffer.from(await doc.save({ useObjectStreams: false })), content: Buffer.from(result.content).toString('latin1') };
}

/** The black drawn beyond the boxes (over glyphs they cut), as boxes: where pixels may differ too. */
export function grownBoxes(result: RedactResult): BurnBox[] {
  return result.ok ? result.drawn.flatMap((entry) => entry.rects.map((rect) => box(rect.x1, rect.y1, rect.x2, rect.y2))) : [];
}

export function box(x1: number, y1: number, x2: number, y2: number, label: string | null = null): BurnBox {
  return { x1, y1, x2, y2, points: [], label };
}

export interface TextItem {
  str: string;
  x: number;
  y: number;
  width: number;
}

/** pdf.js's text items of page 1 (empty ones dropped). */
export async function textItems(bytes: Buffer): Promise<TextItem[]> {
  const document = await openPdf(bytes);
  try {
    const page = await document.getPage(1);
    const runs = await textRuns(page);
    return runs.filter((run) => run.str.trim() !== '').map((run) => ({ str: run.str, x: run.transform[4] ?? 0, y: run.transform[5] ?? 0, width: run.width }));
  } finally {
    await document.destroy();
  }
}

export function pdftotext(bytes: Buffer): string {
  const dir = tempDir('obscura-vector-');
  try {
    fs.writeFileSync(path.join(dir, 'file.pdf'), bytes);
    return execFileSync('pdftotext', ['-q', path.join(dir, 'file.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Gray {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** Page 1 rendered by poppler in grey at `dpi` (unrotated pages: pixel (0, 0) is the top left of the crop box). */
export function render(bytes: Buffer, dpi = 144): Gray {
  const dir = tempDir('obscura-vector-');
  try {
    fs.writeFileSync(path.join(dir, 'file.pdf'), bytes);
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-aa', 'no', '-aaVector', 'no', '-f', '1', '-l', '1', path.join(dir, 'file.pdf'), path.join(dir, 'page')]);
    const name = fs.readdirSync(dir).find((entry) => entry.endsWith('.pgm'));
    if (!name) throw new Error('pdftoppm wrote no page');
    const data = fs.readFileSync(path.join(dir, name));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('not a PGM');
    return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(header[0].length) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Pixels that differ between two renderings of an unrotated page of height `pageHeight` points, outside the
 * given user-space rectangles (grown by `margin` points).
 */
export function differingPixels(a: Gray, b: Gray, pageHeight: number, skip: readonly BurnBox[], margin = 1.5, dpi = 144): number {
  const scale = dpi / 72;
  let count = 0;
  for (let y = 0; y < a.height; y += 1) {
    for (let x = 0; x < a.width; x += 1) {
      const ux = x / scale;
      const uy = pageHeight - y / scale;
      if (skip.some((rect) => ux >= Math.min(rect.x1, rect.x2) - margin && ux <= Math.max(rect.x1, rect.x2) + margin && uy >= Math.min(rect.y1, rect.y2) - margin && uy <= Math.max(rect.y1, rect.y2) + margin)) continue;
      if (a.pixels[y * a.width + x] !== b.pixels[y * b.width + x]) count += 1;
    }
  }
  return count;
}

/** Share of dark pixels (< 128) among the pixels wholly inside a user-space rectangle of an unrotated page. */
export function darkShare(image: Gray, pageHeight: number, rect: { x1: number; y1: number; x2: number; y2: number }, dpi = 144): number {
  const scale = dpi / 72;
  let dark = 0;
  let total = 0;
  for (let y = Math.ceil((pageHeight - rect.y2) * scale); y < Math.floor((pageHeight - rect.y1) * scale); y += 1) {
    for (let x = Math.ceil(rect.x1 * scale); x < Math.floor(rect.x2 * scale); x += 1) {
      total += 1;
      if ((image.pixels[y * image.width + x] ?? 255) < 128) dark += 1;
    }
  }
  return total === 0 ? 0 : dark / total;
}
