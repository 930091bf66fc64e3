// First: keeps V8's Array.prototype.push before pdf.js's core-js replaces it (native-builtins.ts).
import { restoreNativeBuiltins } from './native-builtins.js';
import type { WorkerEnvelope, WorkerTaskResult } from '../main/common/worker-messages.js';

/**
 * Each kind of task's code, loaded the first time the thread runs one: a thread that only exports never loads
 * intake's mail and Office readers or OCR (loading every kind took about 2.5 s of CPU a thread, exports alone
 * about 1.3). pdf.js's core-js may replace push as a module loads, so it is put back after each load.
 */
async function load<T>(module: Promise<T>): Promise<T> {
  const loaded = await module;
  restoreNativeBuiltins();
  return loaded;
}

/**
 * Piscina's entry: runs one task and returns its result. A throw rejects only this task; a task that runs
 * past its limit is aborted by the scheduler and piscina replaces this thread. Never opens the database.
 */
export default async function runTask({ task, progressPort }: WorkerEnvelope): Promise<WorkerTaskResult> {
  try {
    switch (task.kind) {
      case 'scan': {
        const { scan } = await load(import('./scan.js'));
        return { kind: 'scan', result: await scan(task, (progress) => progressPort.postMessage(progress)) };
      }
      case 'detection': {
        const { runDetection } = await load(import('./detection/index.js'));
        return { kind: 'detection', findings: runDetection(task, (progress) => progressPort.postMessage(progress)) };
      }
      case 'summary': {
        const { summarize } = await load(import('./summary.js'));
        return { kind: 'summary', result: summarize(task) };
      }
      case 'ocr-plan': {
        const { ocrPlan } = await load(import('./ocr/index.js'));
        return { kind: 'ocr-plan', plan: await ocrPlan(task) };
      }
      case 'ocr-page': {
        const { ocrPage } = await load(import('./ocr/index.js'));
        return { kind: 'ocr-page', page: await ocrPage(task) };
      }
      case 'export-burn': {
        const { burnPages } = await load(import('./burn-in/burn.js'));
        return await burnPages(task, (progress) => progressPort.postMessage({ type: 'progress', jobId: task.exportId, progress }));
      }
      case 'export-assemble': {
        const { assemble } = await load(import('./burn-in/assemble.js'));
        return await assemble(task, (progress) => progressPort.postMessage({ type: 'progress', jobId: task.exportId, progress }));
      }
      case 'export-verify': {
        const { verify } = await load(import('./burn-in/verify.js'));
        return await verify(task);
      }
      case 'export-search': {
        const { searchOutput } = await load(import('./burn-in/verify.js'));
        return await searchOutput(task);
      }
      case 'release-package': {
        const { releasePackageDocument } = await load(import('./release-package/index.js'));
        return await releasePackageDocument(task);
      }
      case 'intake': {
        const { runIntake } = await load(import('./intake/index.js'));
        return { kind: 'intake', outcome: await runIntake(task) };
      }
      case 'pdf-password': {
        const { openPdf } = await load(import('./pdf-password/index.js'));
        return { kind: 'pdf-password', outcome: await openPdf(task) };
      }
      case 'search-match': {
        const { searchMatch } = await load(import('./search.js'));
        return searchMatch(task);
      }
    }
  } finally {
    progressPort.close();
  }
}
