import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { GreyPage } from './poppler.js';
import type { PageAnnotation } from './release-oracle.js';

// pdf.js renderings for the release-fidelity bench. A page the export rendered is pdf.js's drawing of the
// source stored as an image, so its pixels are compared with pdf.js's drawing of the source page: the same
// engine on both sides (issue 15), not poppler's, which substitutes non-embedded fonts (ZapfDingbats, emoji)
// and makes up form fields differently. Same grid as pdftoppm -cropbox: the displayed page, top-left origin.

interface CanvasFactory {
  create(width: number, height: number): { canvas: Canvas; context: SKRSContext2D };
}

export type OpenPdf = (bytes: Uint8Array) => Promise<PDFDocumentProxy>;

/** One page rendered by pdf.js in grey at `dpi`, rotated as displayed, annotations drawn (as viewers do). */
export async function pdfjsGreyPage(open: OpenPdf, bytes: Buffer, pageNumber: number, dpi: number): Promise<GreyPage> {
  const document = await open(bytes);
  try {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const { canvas, context } = (document.canvasFactory as CanvasFactory).create(width, height);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport, annotationMode: 1, intent: 'display' }).promise;
    const rgba = context.getImageData(0, 0, width, height).data;
    const pixels = new Uint8Array(width * height);
    for (let index = 0; index < pixels.length; index += 1) {
      const at = index * 4;
      pixels[index] = ((rgba[at] ?? 255) * 77 + (rgba[at + 1] ?? 255) * 150 + (rgba[at + 2] ?? 255) * 29) >>> 8;
    }
    page.cleanup();
    return { width, height, pixels };
  } finally {
    await document.destroy();
  }
}

/** A page's annotations a viewer shows (not Hidden, not NoView): display rectangles (72 dpi, top-left origin), subtypes. */
export async function annotationAreas(openPdf: OpenPdf, bytes: Buffer, pageNumber: number): Promise<PageAnnotation[]> {
  const document = await openPdf(bytes);
  try {
    const page = await document.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    const annotations = (await page.getAnnotations({ intent: 'display' })) as { rect?: number[]; annotationFlags?: number; subtype?: string }[];
    return annotations
      .filter((annotation) => Array.isArray(annotation.rect) && annotation.rect.length === 4 && ((annotation.annotationFlags ?? 0) & (2 | 32)) === 0)
      .map((annotation) => {
        const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle(annotation.rect as number[]);
        return { subtype: annotation.subtype ?? '', rect: { x1: Math.min(x1, x2), y1: Math.min(y1, y2), x2: Math.max(x1, x2), y2: Math.max(y1, y2) } };
      });
  } finally {
    await document.destroy();
  }
}
