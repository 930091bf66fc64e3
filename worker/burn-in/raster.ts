import { createCanvas, loadImage, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { BurnBox, BurnSettings, PageImageEncoding } from '../../main/common/export-tasks.js';
import { encodeG4 } from './ccitt.js';
import { stripJpegMetadata } from './metadata/jpeg.js';

// Painting boxes onto a rendered page and turning the pixels into the page image of the output.

/** Maps the document's units (PDF user space or image pixels) to canvas pixels. */
export type ToPixel = (x: number, y: number) => [number, number];

export interface PaintOptions {
  toPixel: ToPixel;
  /** Padding in the document's units. */
  padding: number;
  /** Canvas pixels per document unit, for stroke widths and label sizes. */
  pixelsPerUnit: number;
  labels: boolean;
  /** The page's /Rotate: labels are turned so they read upright on the displayed page. */
  rotate: number;
}

/**
 * Fills every box in opaque black. Rectangles are snapped outwards to whole pixels; polygons are filled and
 * their outline stroked past the padding, so edge pixels are fully covered rather than blended.
 */
export function paintBoxes(context: SKRSContext2D, boxes: readonly BurnBox[], options: PaintOptions): void {
  context.save();
  context.fillStyle = '#000000';
  context.strokeStyle = '#000000';
  context.lineJoin = 'round';
  for (const box of boxes) {
    if (box.points.length >= 3) {
      context.beginPath();
      box.points.forEach((point, index) => {
        const [px, py] = options.toPixel(point.x, point.y);
        if (index === 0) context.moveTo(px, py);
        else context.lineTo(px, py);
      });
      context.closePath();
      context.fill();
      context.lineWidth = 2 * options.padding * options.pixelsPerUnit + 2;
      context.stroke();
    } else {
      const rect = pixelRect(box, options);
      context.fillRect(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top);
    }
  }
  if (options.labels) for (const box of boxes) if (box.label) drawLabel(context, box, box.label, options);
  context.restore();
}

function pixelRect(box: BurnBox, options: PaintOptions) {
  const pad = options.padding;
  const [ax, ay] = options.toPixel(box.x1 - pad, box.y1 - pad);
  const [bx, by] = options.toPixel(box.x2 + pad, box.y2 + pad);
  return { left: Math.floor(Math.min(ax, bx)), top: Math.floor(Math.min(ay, by)), right: Math.ceil(Math.max(ax, bx)), bottom: Math.ceil(Math.max(ay, by)) };
}

function drawLabel(context: SKRSContext2D, box: BurnBox, label: string, options: PaintOptions): void {
  const rect = pixelRect({ ...box, points: [] }, { ...options, padding: 0 });
  const turned = options.rotate === 90 || options.rotate === 270;
  const across = turned ? rect.bottom - rect.top : rect.right - rect.left;
  const tall = turned ? rect.right - rect.left : rect.bottom - rect.top;
  // Polygons: only the middle half of their bounds is assumed to be inside.
  const usable = box.points.length >= 3 ? 0.5 : 0.9;
  const unit = options.pixelsPerUnit;
  let size = Math.min(tall * usable * 0.8, 12 * unit);
  const minimum = Math.max(6, 5 * unit);
  context.font = `bold ${size}px sans-serif`;
  let width = context.measureText(label).width;
  if (width > across * usable) {
    size = (size * across * usable) / width;
    context.font = `bold ${size}px sans-serif`;
    width = context.measureText(label).width;
  }
  if (size < minimum || size > tall * usable) return;
  context.save();
  context.translate((rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2);
  context.rotate((-options.rotate * Math.PI) / 180);
  context.fillStyle = '#ffffff';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(label, 0, 0);
  context.restore();
}

export interface EncodedImage {
  bytes: Uint8Array;
  encoding: PageImageEncoding;
  width: number;
  height: number;
}

/** A pixel darker than this becomes black in a 1-bit page (antialiased strokes keep their weight). */
const BILEVEL_THRESHOLD = 160;

interface PixelStats {
  colourful: number;
  midtones: number;
  sampled: number;
}

/** Colour and grey counts over every third pixel of every third row: plenty to tell a text page from a photo. */
function statsOf(pixels: Uint32Array, width: number, height: number): PixelStats {
  let colourful = 0;
  let midtones = 0;
  let sampled = 0;
  for (let y = 1; y < height; y += 3) {
    const row = y * width;
    for (let x = 1; x < width; x += 3) {
      sampled += 1;
      const value = pixels[row + x] as number;
      if (value === 0xffffffff || value === 0xff000000) continue;
      const r = value & 0xff;
      const g = (value >>> 8) & 0xff;
      const b = (value >>> 16) & 0xff;
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      if (max - min > 48) colourful += 1;
      else if (max > 48 && max < 208) midtones += 1;
    }
  }
  return { colourful, midtones, sampled };
}

/**
 * Whether a page is black-and-white in substance: almost no colour and few grey pixels beyond the antialiased
 * edges of text and lines. Photos and tinted backgrounds stay JPEG.
 */
function looksBilevel(stats: PixelStats): boolean {
  return stats.colourful <= stats.sampled * 0.002 && stats.midtones <= stats.sampled * 0.06;
}

function encodeBilevel(bytes: Buffer, width: number, height: number): Uint8Array {
  // Signed view: opaque white is -1 and opaque black -16777216, so the common pixels cost one comparison.
  const pixels = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  const rowBytes = width * 4;
  const white = Buffer.alloc(rowBytes, 0xff);
  return encodeG4(width, height, (y, out) => {
    const start = y * width;
    const end = start + width;
    // Most rows of a page are blank: one memcmp instead of a pixel loop.
    if (bytes.compare(white, 0, rowBytes, start * 4, end * 4) === 0) return 0;
    let count = 0;
    let black = false;
    for (let index = start; index < end; index += 1) {
      const value = pixels[index] as number;
      if (value === -1) {
        if (black) {
          out[count++] = index - start;
          black = false;
        }
        continue;
      }
      const isBlack = value === -16777216 || ((value & 0xff) * 77 + ((value >>> 8) & 0xff) * 150 + ((value >>> 16) & 0xff) * 29) >>> 8 < BILEVEL_THRESHOLD;
      if (isBlack !== black) {
        out[count++] = index - start;
        black = isBlack;
      }
    }
    return count;
  });
}

/** The page image: 1-bit CCITT G4 for black-and-white pages (per `imageMode`), JPEG otherwise. */
export async function encodePage(canvas: Canvas, settings: BurnSettings): Promise<EncodedImage> {
  const { width, height } = canvas;
  if (settings.imageMode !== 'color') {
    // The raw RGBA surface (one copy, no ImageData object); opaque, so premultiplication changes nothing.
    const bytes = canvas.data();
    const pixels = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
    if (settings.imageMode === 'bilevel' || looksBilevel(statsOf(pixels, width, height))) {
      return { bytes: encodeBilevel(bytes, width, height), encoding: 'ccitt-g4', width, height };
    }
  }
  const jpeg = await canvas.encode('jpeg', settings.jpegQuality);
  const bytes = new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  // The encoder adds an ICC profile segment (APP2); the PDF's colour space decides, and outputs carry no segments.
  return { bytes: stripJpegMetadata(bytes)?.bytes ?? bytes, encoding: 'jpeg', width, height };
}

/**
 * A PNG or JPEG drawn as it is displayed (the decoder applies EXIF orientation, as browsers do) on white, so
 * transparent areas read as paper. Exports burn these pixels and OCR reads them: both use the same picture.
 */
export async function imageOnWhite(bytes: Uint8Array): Promise<{ canvas: Canvas; context: SKRSContext2D }> {
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, image.width, image.height);
  context.drawImage(image, 0, 0);
  return { canvas, context };
}
