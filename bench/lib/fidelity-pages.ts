import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { displayWords, type DisplayWord, type GreyPage } from './poppler.js';

// Page geometry and the comparisons of the release-fidelity bench (issues 15, 25), kept apart from its run:
// display space ↔ user space for a crop box and /Rotate, words of layers that are off, pixels and words compared.

export type Rect = { x1: number; y1: number; x2: number; y2: number };

export interface PageGeometry {
  rotate: number;
  crop: [number, number, number, number];
  media: [number, number, number, number];
}

export function geometry(bytes: Buffer, dir: string): PageGeometry[] {
  const file = path.join(dir, 'geometry.pdf');
  fs.writeFileSync(file, bytes);
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', '-box', file], { encoding: 'utf8' });
  const pages: PageGeometry[] = [];
  for (const match of info.matchAll(/^Page +(\d+) rot: +(\d+)$/gm)) pages[Number(match[1]) - 1] = { rotate: Number(match[2]), crop: [0, 0, 0, 0], media: [0, 0, 0, 0] };
  for (const match of info.matchAll(/^Page +(\d+) (CropBox|MediaBox): +([\d.-]+) +([\d.-]+) +([\d.-]+) +([\d.-]+)$/gm)) {
    const page = pages[Number(match[1]) - 1];
    if (page) page[match[2] === 'CropBox' ? 'crop' : 'media'] = [Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])];
  }
  return pages;
}

/** Display rect (top-left origin, 72 dpi) → the page's unrotated user space, for a crop box and /Rotate. */
export function toUser(rect: Rect, page: PageGeometry): Rect {
  const [cx1, cy1, cx2, cy2] = page.crop;
  const map = (x: number, y: number): [number, number] => {
    switch (page.rotate) {
      case 90:
        return [cx1 + y, cy1 + x];
      case 180:
        return [cx2 - x, cy1 + y];
      case 270:
        return [cx2 - y, cy2 - x];
      default:
        return [cx1 + x, cy2 - y];
    }
  };
  const [ax, ay] = map(rect.x1, rect.y1);
  const [bx, by] = map(rect.x2, rect.y2);
  return { x1: Math.min(ax, bx), y1: Math.min(ay, by), x2: Math.max(ax, bx), y2: Math.max(ay, by) };
}

/** The page's unrotated user space → display rect (top-left origin, 72 dpi): toUser's inverse. */
export function toDisplay(rect: Rect, page: PageGeometry): Rect {
  const [cx1, cy1, cx2, cy2] = page.crop;
  const map = (x: number, y: number): [number, number] => {
    switch (page.rotate) {
      case 90:
        return [y - cy1, x - cx1];
      case 180:
        return [cx2 - x, y - cy1];
      case 270:
        return [cy2 - y, cx2 - x];
      default:
        return [x - cx1, cy2 - y];
    }
  };
  const [ax, ay] = map(rect.x1, rect.y1);
  const [bx, by] = map(rect.x2, rect.y2);
  return { x1: Math.min(ax, bx), y1: Math.min(ay, by), x2: Math.max(ax, bx), y2: Math.max(ay, by) };
}

/**
 * Words in optional content that is off: poppler leaves them out, so they are read from a copy whose catalogue
 * has no /OCProperties (every group then shows), and kept where the original reading has no such word.
 */
export async function layersOff(bytes: Buffer, words: readonly DisplayWord[]): Promise<DisplayWord[]> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch {
    return [];
  }
  if (!doc.catalog.has(PDFName.of('OCProperties'))) return [];
  doc.catalog.delete(PDFName.of('OCProperties'));
  const all = displayWords(Buffer.from(await doc.save()), true);
  return all.filter((word) => !words.some((other) => other.page === word.page && other.text === word.text && Math.abs(other.x1 - word.x1) < 1 && Math.abs(other.y1 - word.y1) < 1));
}


/**
 * Pixels off by more than `grey` outside the masks, with 2×2 averaging when `halve` (rendered pages). With
 * `second` (the same pages by another renderer), a pixel counts only when both renderers see it changed:
 * renderers snap glyphs to their pixel grid each their own way (poppler up to half a pixel across the line),
 * while a cut glyph's outside part is drawn as a shape at its exact place, so one renderer alone sees its edges
 * move; ink really lost or added shows in both.
 */
export function differingPixels(a: GreyPage, b: GreyPage, masks: readonly Rect[], grey: number, halve: boolean, second?: { a: GreyPage; b: GreyPage }): number {
  const step = halve ? 2 : 1;
  let differing = 0;
  const at = (image: GreyPage, x: number, y: number) => {
    let sum = 0;
    for (let dy = 0; dy < step; dy += 1) for (let dx = 0; dx < step; dx += 1) sum += image.pixels[(y + dy) * image.width + x + dx] ?? 255;
    return sum / (step * step);
  };
  for (let y = 0; y + step <= Math.min(a.height, b.height); y += step) {
    for (let x = 0; x + step <= Math.min(a.width, b.width); x += step) {
      if (masks.some((mask) => x + step > mask.x1 && x < mask.x2 && y + step > mask.y1 && y < mask.y2)) continue;
      if (Math.abs(at(a, x, y) - at(b, x, y)) <= grey) continue;
      if (second && Math.abs(at(second.a, x, y) - at(second.b, x, y)) <= grey) continue;
      differing += 1;
    }
  }
  return differing;
}

/** Cells (or pixels) of a word's area that must differ for the word to count as visibly gone. */
export const WORD_PIXELS = 3;

/** Pixels (2×2 cells when `halve`) off by more than `grey` inside one area. */
export function differingWithin(a: GreyPage, b: GreyPage, area: Rect, grey: number, halve: boolean): number {
  const step = halve ? 2 : 1;
  const clipped = { x1: Math.floor(area.x1), y1: Math.floor(area.y1), x2: Math.ceil(area.x2), y2: Math.ceil(area.y2) };
  let differing = 0;
  const at = (image: GreyPage, x: number, y: number) => {
    let sum = 0;
    for (let dy = 0; dy < step; dy += 1) for (let dx = 0; dx < step; dx += 1) sum += image.pixels[(y + dy) * image.width + x + dx] ?? 255;
    return sum / (step * step);
  };
  for (let y = Math.max(0, clipped.y1 - (clipped.y1 % step)); y + step <= Math.min(a.height, b.height, clipped.y2 + step); y += step) {
    for (let x = Math.max(0, clipped.x1 - (clipped.x1 % step)); x + step <= Math.min(a.width, b.width, clipped.x2 + step); x += step) {
      if (Math.abs(at(a, x, y) - at(b, x, y)) > grey) differing += 1;
    }
  }
  return differing;
}

/** Share of a word area's ink (darkness) the output must keep for the word to count as still drawn. */
export const INK_KEPT = 0.5;

export function inkWithin(image: GreyPage, area: Rect): number {
  let ink = 0;
  for (let y = Math.max(0, Math.floor(area.y1)); y < Math.min(image.height, Math.ceil(area.y2)); y += 1) {
    for (let x = Math.max(0, Math.floor(area.x1)); x < Math.min(image.width, Math.ceil(area.x2)); x += 1) ink += 255 - (image.pixels[y * image.width + x] ?? 255);
  }
  return ink;
}

/** Levenshtein distance between two words, by code point. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let row = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= y.length; j += 1) next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length] ?? 0;
}

/** Code points of `word` a glued candidate lacks (as a multiset): what a layer changed in a word it holds. */
export function lacking(word: string, candidate: string): number {
  const left = [...candidate];
  let missing = 0;
  for (const char of word) {
    const at = left.indexOf(char);
    if (at < 0) missing += 1;
    else left.splice(at, 1);
  }
  return missing;
}

/**
 * The words as their codes read (poppler, every simple font given a ToUnicode of byte → U+00xx): a Symbol or
 * ZapfDingbats string's codes ("lazy" for λαζψ) stand in its content stream, which pdftotext reads otherwise.
 */
export async function codeWords(bytes: Buffer): Promise<DisplayWord[]> {
  // Only an allowance: a file pdf-lib cannot rewrite (broken xref, encryption) gets none, the stricter side.
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const identity = doc.context.register(doc.context.stream('/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Bytes def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <00> <FF> <0000> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end'));
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
      const subtype = object.get(PDFName.of('Subtype'));
      if ([PDFName.of('Type1'), PDFName.of('TrueType'), PDFName.of('MMType1'), PDFName.of('Type3')].includes(subtype as PDFName)) object.set(PDFName.of('ToUnicode'), identity);
    }
    return displayWords(Buffer.from(await doc.save()), true);
  } catch {
    return [];
  }
}
