import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { OcrModel } from '../../main/common/schemas/ocr.js';
import { languageDataDir, tesseractWorkerScript, type OcrLanguage } from '../../main/services/ocr-assets.js';
import { parseTsv, type RecognizedPage } from './tsv.js';

// One tesseract.js engine per pool thread, started on first use and kept: loading the wasm core and the
// language data costs about a quarter of a second, recognising a page a few seconds. tesseract.js runs the
// engine in a thread of its own; when piscina ends this thread (time limit, idle), that thread ends too.

let engine: { language: OcrLanguage; model: OcrModel; worker: Promise<Worker> } | null = null;
/** Tasks of one thread run one at a time; this keeps engine parameters from mixing if that ever changes. */
let queue: Promise<unknown> = Promise.resolve();

async function startEngine(language: OcrLanguage, model: OcrModel): Promise<Worker> {
  const worker = await createWorker(language, OEM.LSTM_ONLY, {
    langPath: languageDataDir(language, model),
    workerPath: tesseractWorkerScript(),
    // Read from the installed package every time; never write a cache next to the app.
    cacheMethod: 'none',
    gzip: true,
    errorHandler: () => undefined,
  });
  // Automatic page segmentation, as the tesseract command does (tesseract.js's default treats the page as
  // one block and reads across columns). Tesseract's notes ("Estimating resolution as …") would otherwise
  // go to the server's stderr.
  await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' });
  return worker;
}

function engineFor(language: OcrLanguage, model: OcrModel): Promise<Worker> {
  if (engine?.language !== language || engine.model !== model) {
    const previous = engine;
    engine = { language, model, worker: startEngine(language, model) };
    void previous?.worker.then((worker) => worker.terminate()).catch(() => undefined);
    // A failed start is not kept: the next page tries again.
    const current = engine;
    current.worker.catch(() => {
      if (engine === current) engine = null;
    });
  }
  return engine.worker;
}

export interface RecognizeOptions {
  language: OcrLanguage;
  model: OcrModel;
  /** Resolution of a rendered page; null lets tesseract read it from the image or estimate it. */
  dpi: number | null;
}

/**
 * Recognises one image (any format leptonica reads: PNG, JPEG, TIFF, BMP, PNM) and returns its words in
 * image pixels. Rendered pages and page pictures come as uncompressed grey TIFF (grey-tiff.ts).
 */
export function recognize(image: Uint8Array, options: RecognizeOptions): Promise<RecognizedPage> {
  const run = queue.then(async () => {
    const worker = await engineFor(options.language, options.model);
    await worker.setParameters({ user_defined_dpi: options.dpi === null ? '0' : String(Math.round(options.dpi)) });
    try {
      const result = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: false, tsv: true });
      return parseTsv(result.data.tsv ?? '');
    } catch (error) {
      // tesseract.js rejects with plain strings.
      throw error instanceof Error ? error : new Error(`tesseract could not read the image: ${String(error)}`);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
