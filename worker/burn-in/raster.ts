import { createCanvas, loadImage, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { BurnBox, BurnSettings } from '../../main/common/export-tasks.js';
import { ensureLabelFont } from '../fonts.js';
import { encodePageImage, type EncodedImage, type PixelRect } from './page-image/index.js';

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
  const family = ensureLabelFont();
  context.font = `${size}px "${family}"`;
  let width = context.measureText(label).width;
  if (width > across * usable) {
    size = (size * across * usable) / width;
    context.font = `${size}px "${family}"`;
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

export type { EncodedImage } from './page-image/index.js';

/** The painted boxes' pixel rectangles (polygons by their bounds), for checking a lossy page image keeps them black. */
export function boxPixelRects(boxes: readonly BurnBox[], options: PaintOptions): PixelRect[] {
  return boxes.map((box) => {
    if (box.points.length < 3) return pixelRect(box, options);
    const xs = box.points.map((point) => point.x);
    const ys = box.points.map((point) => point.y);
    return pixelRect({ ...box, x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys), points: [] }, options);
  });
}

/**
 * The page image, chosen per page (see page-image/): CCITT G4 for black-and-white pages, /Indexed Flate for pages
 * of few colours, JPEG for photos when the boxes stay black, lossless Flate otherwise.
 */
export async function encodePage(canvas: Canvas, settings: BurnSettings, boxes: readonly PixelRect[] = []): Promise<EncodedImage> {
  return encodePageImage(canvas, settings, boxes);
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
