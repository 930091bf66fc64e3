import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Rect } from '../geometry.js';

// Renders a page's area in grey and compares two renderings outside masked rectangles.

export interface Grey {
  width: number;
  height: number;
  /** 0 black … 255 white, row by row from the top. */
  pixels: Uint8Array;
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: Canvas; context: SKRSContext2D };
}

/**
 * The user-space rectangle `area` of a page rendered at `dpi`, unrotated, annotations drawn as the burn-in draws
 * them. Pages of different files are rendered on the same grid when given the same area.
 */
export async function renderArea(document: PDFDocumentProxy, page: PDFPageProxy, area: Rect, dpi: number): Promise<Grey> {
  const scale = dpi / 72;
  const width = Math.max(1, Math.ceil((area.x2 - area.x1) * scale));
  const height = Math.max(1, Math.ceil((area.y2 - area.y1) * scale));
  const { canvas, context } = (document.canvasFactory as CanvasFactory).create(width, height);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  const viewport = page.getViewport({ scale, rotation: 0 });
  const [x0 = 0, , , y1 = 0] = page.view;
  // The page's own view maps (x0, y1) to pixel (0, 0); shift it so (area.x1, area.y2) lands there instead.
  const transform = [1, 0, 0, 1, (x0 - area.x1) * scale, (area.y2 - y1) * scale];
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport, transform, annotationMode: 1, intent: 'display' }).promise;
  const rgba = context.getImageData(0, 0, width, height).data;
  const pixels = new Uint8Array(width * height);
  for (let index = 0; index < pixels.length; index += 1) {
    const at = index * 4;
    pixels[index] = ((rgba[at] ?? 255) * 77 + (rgba[at + 1] ?? 255) * 150 + (rgba[at + 2] ?? 255) * 29) >>> 8;
  }
  return { width, height, pixels };
}

/** 2×2 box average: what a comparison of page images made at another resolution and bit depth looks at. */
export function halve(image: Grey): Grey {
  const width = Math.max(1, image.width >> 1);
  const height = Math.max(1, image.height >> 1);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = 2 * y * image.width + 2 * x;
      const sum = (image.pixels[at] ?? 255) + (image.pixels[at + 1] ?? 255) + (image.pixels[at + image.width] ?? 255) + (image.pixels[at + image.width + 1] ?? 255);
      pixels[y * width + x] = sum >> 2;
    }
  }
  return { width, height, pixels };
}

export interface PixelComparison {
  compared: number;
  differing: number;
  /** Bounding box of the differing pixels (pixel grid), for a reason message; null when none differ. */
  where: { x1: number; y1: number; x2: number; y2: number } | null;
}

/** Counts pixels outside every mask rectangle (pixel grid, inclusive-exclusive) whose grey differs by more than `grey`. */
export function comparePixels(a: Grey, b: Grey, masks: readonly Rect[], grey: number): PixelComparison {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  const masked = new Uint8Array(width * height);
  for (const mask of masks) {
    const left = Math.max(0, Math.floor(mask.x1));
    const right = Math.min(width, Math.ceil(mask.x2));
    for (let y = Math.max(0, Math.floor(mask.y1)); y < Math.min(height, Math.ceil(mask.y2)); y += 1) masked.fill(1, y * width + left, y * width + Math.max(left, right));
  }
  let compared = 0;
  let differing = 0;
  let where: PixelComparison['where'] = null;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (masked[y * width + x]) continue;
      compared += 1;
      if (Math.abs((a.pixels[y * a.width + x] ?? 255) - (b.pixels[y * b.width + x] ?? 255)) > grey) {
        differing += 1;
        where = where ? { x1: Math.min(where.x1, x), y1: Math.min(where.y1, y), x2: Math.max(where.x2, x + 1), y2: Math.max(where.y2, y + 1) } : { x1: x, y1: y, x2: x + 1, y2: y + 1 };
      }
    }
  }
  return { compared, differing, where };
}
