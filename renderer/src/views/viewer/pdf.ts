// pdf.js in the browser: the worker script is a separate file of the build (Vite `?url`), and the data it
// loads (character maps, standard fonts, wasm decoders) is served from the app's own origin. No eval.
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

function assetUrl(folder: string): string {
  return new URL(`./pdfjs/${folder}/`, document.baseURI).href;
}

export type { PDFDocumentProxy, PDFPageProxy, PageViewport, RenderTask } from 'pdfjs-dist';

export function openPdf(bytes: Uint8Array): { promise: Promise<PDFDocumentProxy>; destroy(): void } {
  const task = getDocument({
    data: bytes,
    isEvalSupported: false,
    enableXfa: false,
    cMapUrl: assetUrl('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: assetUrl('standard_fonts'),
    wasmUrl: assetUrl('wasm'),
  });
  return { promise: task.promise, destroy: () => void task.destroy() };
}
