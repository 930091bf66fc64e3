import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { GreyPage } from './poppler.js';

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
