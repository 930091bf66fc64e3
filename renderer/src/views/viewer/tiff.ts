// Browsers cannot show TIFF. The export's own converter wraps each TIFF page, still encoded, in a PDF page
// measuring the image in pixels (1 unit = 1 pixel); pdf.js then renders it like any PDF page. The converter
// and pdf-lib are loaded only when a TIFF is opened.
import { errorText } from '../../api/errors.js';
import { openPdf, type PDFDocumentProxy } from './pdf.js';

/** A TIFF the converter refuses (tiled, JPEG-in-TIFF, …): its reason, in the converter's words. */
export class UnsupportedTiffError extends Error {
  constructor(readonly reason: string) {
    super(`this TIFF cannot be shown: ${reason}`);
  }
}

/** The converter's reason, in a clerk's words where its own are technical. */
function plainReason(reason: string): string {
  const compression = /TIFF compression (\d+) is not supported/.exec(reason)?.[1];
  if (compression === '6') return 'its pages use an old form of JPEG inside the TIFF (compression 6), which the viewer does not read';
  if (compression) return `its pages use a compression the viewer does not read (TIFF compression ${compression})`;
  return reason;
}

export function openTiff(bytes: Uint8Array): { promise: Promise<PDFDocumentProxy>; destroy(): void } {
  let destroyed = false;
  let destroyPdf: (() => void) | null = null;
  const promise = (async () => {
    const { tiffAsPdf } = await import('../../../../worker/burn-in/tiff.js');
    let pdf: Uint8Array;
    try {
      pdf = (await tiffAsPdf(bytes)).pdf;
    } catch (error) {
      throw new UnsupportedTiffError(plainReason(errorText(error)));
    }
    if (destroyed) throw new DOMException('closed', 'AbortError');
    const opened = openPdf(pdf);
    destroyPdf = opened.destroy;
    return opened.promise;
  })();
  return {
    promise,
    destroy: () => {
      destroyed = true;
      destroyPdf?.();
    },
  };
}
