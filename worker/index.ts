// First: keeps V8's Array.prototype.push before pdf.js's core-js replaces it (native-builtins.ts).
import { restoreNativeBuiltins } from './native-builtins.js';
import type { WorkerEnvelope, WorkerTaskResult } from '../main/common/worker-messages.js';
import { assemble } from './burn-in/assemble.js';
import { burnPages } from './burn-in/burn.js';
import { searchOutput, verify } from './burn-in/verify.js';
import { runDetection } from './detection/index.js';
import { ocrPage, ocrPlan } from './ocr/index.js';
import { runIntake } from './intake/index.js';
import { openPdf } from './pdf-password/index.js';
import { releasePackageDocument } from './release-package/index.js';
import { scan } from './scan.js';
import { searchMatch } from './search.js';
import { summarize } from './summary.js';

restoreNativeBuiltins();

/**
 * Piscina's entry: runs one task and returns its result. A throw rejects only this task; a task that runs
 * past its limit is aborted by the scheduler and piscina replaces this thread. Never opens the database.
 */
export default async function runTask({ task, progressPort }: WorkerEnvelope): Promise<WorkerTaskResult> {
  try {
    switch (task.kind) {
      case 'scan':
        return { kind: 'scan', result: await scan(task, (progress) => progressPort.postMessage(progress)) };
      case 'detection':
        return { kind: 'detection', findings: runDetection(task, (progress) => progressPort.postMessage(progress)) };
      case 'summary':
        return { kind: 'summary', result: summarize(task) };
      case 'ocr-plan':
        return { kind: 'ocr-plan', plan: await ocrPlan(task) };
      case 'ocr-page':
        return { kind: 'ocr-page', page: await ocrPage(task) };
      case 'export-burn':
        return await burnPages(task, (progress) => progressPort.postMessage({ type: 'progress', jobId: task.exportId, progress }));
      case 'export-assemble':
        return await assemble(task, (progress) => progressPort.postMessage({ type: 'progress', jobId: task.exportId, progress }));
      case 'export-verify':
        return await verify(task);
      case 'export-search':
        return await searchOutput(task);
      case 'release-package':
        return await releasePackageDocument(task);
      case 'intake':
        return { kind: 'intake', outcome: await runIntake(task) };
      case 'pdf-password':
        return { kind: 'pdf-password', outcome: await openPdf(task) };
      case 'search-match':
        return searchMatch(task);
    }
  } finally {
    progressPort.close();
  }
}
