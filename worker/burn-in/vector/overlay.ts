import { Encodings } from '@pdf-lib/standard-fonts';
import { PDFDict, PDFName, type PDFContext, type PDFRef } from 'pdf-lib';
import type { BurnBox } from '../../../main/common/export-tasks.js';
import { WIN_ANSI } from './encodings.js';
import { formatName, formatNumber, literalString } from './serialize.js';
import { standardMetrics } from './standard-fonts.js';

// The black boxes drawn over a rewritten page, with their exemption labels in white: the same rules as the
// raster path (worker/burn-in/raster.ts paintBoxes), in points.

const LABEL_FONT = 'Helvetica-Bold';
/** Labels smaller than this are not printed (the raster path's minimum at ordinary resolutions). */
const MIN_LABEL_SIZE = 5;
const MAX_LABEL_SIZE = 12;
/** Half of Helvetica-Bold's cap height (718/1000 em): centres a label vertically. */
const HALF_CAP_HEIGHT = 0.359;

/** WinAnsi codes of a label; characters it lacks become "?". */
function labelBytes(label: string): number[] {
  return Array.from(label.normalize('NFKC'), (char) => {
    const codePoint = char.codePointAt(0) ?? 0;
    return Encodings.WinAnsi.canEncodeUnicodeCodePoint(codePoint) ? Encodings.WinAnsi.encodeUnicodeCodePoint(codePoint).code : 0x3f;
  });
}

function labelWidth(codes: readonly number[], size: number): number {
  const metrics = standardMetrics(LABEL_FONT);
  return (codes.reduce((sum, code) => sum + (metrics.width(WIN_ANSI[code] ?? '') ?? 556), 0) * size) / 1000;
}

function n(value: number): string {
  return formatNumber(value);
}

/** Where a label goes and how large, or null when it does not fit (raster.ts drawLabel, in points). */
function labelOf(box: BurnBox, rotate: number): { codes: number[]; size: number; matrix: number[] } | null {
  if (!box.label) return null;
  const x1 = Math.min(box.x1, box.x2);
  const x2 = Math.max(box.x1, box.x2);
  const y1 = Math.min(box.y1, box.y2);
  const y2 = Math.max(box.y1, box.y2);
  const turned = rotate === 90 || rotate === 270;
  const across = turned ? y2 - y1 : x2 - x1;
  const tall = turned ? x2 - x1 : y2 - y1;
  const usable = box.points.length >= 3 ? 0.5 : 0.9;
  const codes = labelBytes(box.label);
  let size = Math.min(tall * usable * 0.8, MAX_LABEL_SIZE);
  let width = labelWidth(codes, size);
  if (width > across * usable) {
    size = (size * across * usable) / width;
    width = labelWidth(codes, size);
  }
  if (!(size >= MIN_LABEL_SIZE) || size > tall * usable) return null;
  // Upright on the displayed page: the text turns with the page's /Rotate (counter-clockwise in user space).
  const angle = (rotate * Math.PI) / 180;
  const cos = Math.round(Math.cos(angle) * 1e9) / 1e9;
  const sin = Math.round(Math.sin(angle) * 1e9) / 1e9;
  const dx = -width / 2;
  const dy = -HALF_CAP_HEIGHT * size;
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2;
  return { codes, size, matrix: [cos, sin, -sin, cos, cx + dx * cos - dy * sin, cy + dx * sin + dy * cos] };
}

/** A label as drawn: its text and the box it is centred in. */
export interface DrawnLabel {
  text: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * Content drawing every box in opaque black (rectangles grown by the padding; polygons filled and stroked with
 * twice the padding, round joins), the black grown over cut glyphs (`grown`) and, with `labelFont`, the labels that fit in white; `labels` lists the
 * label texts drawn (they are text a reader extracts).
 */
export function overlayContent(
  boxes: readonly BurnBox[],
  options: { padding: number; rotate: number; labelFont: string | null; grown?: readonly { x1: number; y1: number; x2: number; y2: number }[] },
): { content: Uint8Array; labels: DrawnLabel[] } {
  const pad = options.padding;
  const lines = ['q 0 g 0 G 1 j 1 J'];
  for (const box of boxes) {
    if (box.points.length >= 3) {
      const path = box.points.map((point, index) => `${n(point.x)} ${n(point.y)} ${index === 0 ? 'm' : 'l'}`).join(' ');
      lines.push(pad > 0 ? `${n(2 * pad)} w ${path} h B` : `${path} h f`);
    } else {
      const x1 = Math.min(box.x1, box.x2) - pad;
      const y1 = Math.min(box.y1, box.y2) - pad;
      lines.push(`${n(x1)} ${n(y1)} ${n(Math.abs(box.x2 - box.x1) + 2 * pad)} ${n(Math.abs(box.y2 - box.y1) + 2 * pad)} re f`);
    }
  }
  // Black over the whole ink of glyphs a box cuts (worker/burn-in/vector/drawn.ts).
  for (const rect of options.grown ?? []) lines.push(`${n(rect.x1)} ${n(rect.y1)} ${n(rect.x2 - rect.x1)} ${n(rect.y2 - rect.y1)} re f`);
  const labels: DrawnLabel[] = [];
  if (options.labelFont) {
    const font = formatName(options.labelFont);
    for (const box of boxes) {
      const label = labelOf(box, options.rotate);
      if (!label) continue;
      labels.push({ text: Buffer.from(label.codes).toString('latin1'), x1: Math.min(box.x1, box.x2), y1: Math.min(box.y1, box.y2), x2: Math.max(box.x1, box.x2), y2: Math.max(box.y1, box.y2) });
      const text = Buffer.from(literalString(Uint8Array.from(label.codes))).toString('latin1');
      lines.push(`1 g BT ${font} ${n(label.size)} Tf ${label.matrix.map(n).join(' ')} Tm ${text} Tj ET`);
    }
  }
  lines.push('Q');
  return { content: Buffer.from(`${lines.join('\n')}\n`, 'latin1'), labels };
}

/** A font resource name not used by the page: the labels' Helvetica-Bold goes there. */
export function freeFontName(fonts: PDFDict | undefined): string {
  let name = 'ObscuraLabel';
  for (let suffix = 1; fonts?.has(PDFName.of(name)); suffix += 1) name = `ObscuraLabel${suffix}`;
  return name;
}

/**
 * The labels' font, one object a document: readers load a font once per object (pdf.js by reference), so a
 * dictionary written into each page's resources was a font of its own on every page, read and converted again
 * for each (and its glyphs drawn from a fresh cache).
 */
const labelFonts = new WeakMap<PDFContext, PDFRef>();

/** Adds the labels' font (standard Helvetica-Bold, WinAnsi, not embedded) to a resource dictionary. */
export function addLabelFont(context: PDFContext, resources: PDFDict, name: string): void {
  const existing = context.lookupMaybe(resources.get(PDFName.of('Font')), PDFDict);
  // A copy: the font dictionary may be shared with other pages.
  const fonts = existing ? existing.clone(context) : (context.obj({}) as PDFDict);
  let font = labelFonts.get(context);
  if (!font) {
    font = context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: LABEL_FONT, Encoding: 'WinAnsiEncoding' }));
    labelFonts.set(context, font);
  }
  fonts.set(PDFName.of(name), font);
  resources.set(PDFName.of('Font'), fonts);
}
