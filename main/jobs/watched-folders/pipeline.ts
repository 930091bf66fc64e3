import { z } from 'zod';
import { DomainError } from '../../common/errors.js';
import { CreateExportBody } from '../../common/schemas/exports.js';
import { JOB_OPTIONS, type StartableJobKind } from '../../common/schemas/jobs.js';
import type { WatchedFolderPipeline } from '../../common/schemas/watched-folders.js';
import { findExportById } from '../../db/queries/exports.js';
import type { WatchedFileRow } from '../../db/schema.js';
import { createExport } from '../../services/exports.js';
import {
  acceptSuggestions,
  completeStep,
  isOutputPathReserved,
  markOutputWritten,
  parsePipeline,
  parseSteps,
  recordStepReference,
  reloadFile,
  setOutputPath,
  startJobStep,
} from '../../services/watched-files.js';
import { conversionReadiness } from '../../services/intake/index.js';
import { passwordBlock } from '../../services/pdf-password/index.js';
import { detectionOptions } from '../../services/watched-folders.js';
import { missingScopesAtRun } from '../../services/watched-folder-scopes.js';
import { findWatchedFolder } from '../../db/queries/watched-folders.js';
import { copyAtomically, outputPath } from './output.js';
import type { RunnerContext } from './runner-context.js';

/** A step that cannot succeed for this file: the file goes to failed/ with this message. */
export class StepFailure extends Error {
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(message);
  }
}

function isStartable(kind: string): kind is StartableJobKind {
  return Object.hasOwn(JOB_OPTIONS, kind);
}

const ScanOutcome = z.object({
  pdf: z.object({ parses: z.boolean(), parse_error: z.string().nullable() }).nullable(),
  verdict: z.string(),
  findings: z.array(z.object({ severity: z.string(), message: z.string() })),
});

/** Scan results that stop the pipeline: an unreadable PDF always, a dangerous file when the folder says so. */
function inspectScan(pipeline: WatchedFolderPipeline) {
  return (result: unknown) => {
    const scan = ScanOutcome.parse(result);
    if (scan.pdf && !scan.pdf.parses) throw new StepFailure('scan', `the PDF cannot be read: ${scan.pdf.parse_error ?? 'unknown error'}`);
    if (pipeline.scan.fail_on_danger && scan.verdict === 'danger') {
      const reasons = scan.findings.filter((finding) => finding.severity === 'danger').map((finding) => finding.message);
      throw new StepFailure('scan', `the scan judged the file dangerous: ${reasons.join('; ')}`);
    }
  };
}

/** A change the step makes, refused by the domain (e.g. a template deleted since): the file's failure. */
async function asStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new StepFailure(step, error.message);
    throw error;
  }
}

async function runJobStep(
  context: RunnerContext,
  fileId: number,
  index: number,
  kind: string,
  options: Record<string, unknown>,
  inspect?: (result: unknown) => void,
): Promise<void> {
  if (!isStartable(kind)) throw new StepFailure(kind, `${kind} jobs are not available in this version`);
  const jobId = await asStep(kind, () => context.transaction((trx, ctx) => startJobStep(trx, ctx, fileId, index, kind, options)));
  if (jobId === null) return;
  const job = await context.waiter.waitForJob(jobId, context.signal);
  if (job.status === 'failed') throw new StepFailure(kind, job.error_message ?? `the ${kind} job failed`);
  inspect?.(job.result === null ? {} : JSON.parse(job.result));
  await context.transaction((trx, ctx) => completeStep(trx, fileId, index, { job_id: String(jobId) }, ctx.clock.now().toISOString()));
}

async function runExportStep(context: RunnerContext, file: WatchedFileRow, index: number, pipeline: WatchedFolderPipeline): Promise<void> {
  const step = pipeline.export;
  if (!step || file.case_id === null || file.document_id === null) throw new StepFailure('export', 'the file has no document to export');
  let exportId = parseSteps(file)[index]?.job_id ?? null;
  if (exportId === null) {
    const body = CreateExportBody.parse({
      case_id: String(file.case_id),
      format: step.format,
      filters: { ...step.filters, document_ids: [String(file.document_id)] },
      ...(step.options && { options: step.options }),
    });
    exportId = await asStep('export', () =>
      context.transaction(async (trx, ctx) => {
        const created = await createExport(trx, ctx, body);
        await recordStepReference(trx, file.id, index, Number(created.id), ctx.clock.now().toISOString());
        return created.id;
      }),
    );
  }
  const row = await context.waiter.waitForExport(Number(exportId), context.signal);
  if (row.status !== 'completed') throw new StepFailure('export', row.error_message ?? `the export was ${row.status}`);
  await context.transaction((trx, ctx) => completeStep(trx, file.id, index, { export_id: String(exportId) }, ctx.clock.now().toISOString()));
}

/** Copies the export's file to the output folder under the name recorded for it (chosen once). */
async function runOutputStep(context: RunnerContext, file: WatchedFileRow, index: number, pipeline: WatchedFolderPipeline): Promise<void> {
  const step = pipeline.export;
  const exportId = parseSteps(file).find((entry) => entry.name === 'export')?.job_id;
  const exported = exportId ? await findExportById(context.runtime.db, Number(exportId)) : undefined;
  if (!step || !exported?.result_sha256) throw new StepFailure('output', 'the export has no file');
  let target = file.output_path;
  if (target === null) {
    // Chosen and recorded in one transaction, so two files with the same name never pick the same path.
    target = await context.transaction(async (trx, ctx) => {
      const chosen = await outputPath(step.output_path, file.relative_path, step.format, (candidate) => isOutputPathReserved(trx, candidate));
      await setOutputPath(trx, file.id, chosen, ctx.clock.now().toISOString());
      return chosen;
    });
  }
  try {
    await copyAtomically(await context.runtime.blobs.localPath(exported.result_sha256), target, `obscura-${file.id}`);
  } catch (error) {
    throw new StepFailure('output', `cannot write ${target}: ${(error as Error).message}`);
  }
  await context.transaction((trx, ctx) => markOutputWritten(trx, file.id, index, ctx.clock.now().toISOString()));
}

/** How often a file waits on its document's intake conversion (e-mail, Office, text) before its first step. */
const CONVERSION_POLL_MS = 500;

/** Resolves true once the document is converted (or needs none), false when the runner stops; a failed conversion fails the file. */
async function awaitConversion(context: RunnerContext, documentId: number): Promise<boolean> {
  for (;;) {
    const readiness = await conversionReadiness(context.runtime.db, documentId);
    if (readiness.state === 'ready') return true;
    if (readiness.state === 'failed') throw new StepFailure('intake', readiness.error);
    if (context.signal.aborted) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, CONVERSION_POLL_MS);
      function done() {
        clearTimeout(timer);
        context.signal.removeEventListener('abort', done);
        resolve();
      }
      context.signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** The folder's saver must still hold the scopes of its accepting and exporting steps (issue 26). */
async function assertFolderScopes(context: RunnerContext, name: string, pipeline: WatchedFolderPipeline): Promise<void> {
  const folder = (await findWatchedFolder(context.runtime.db, context.folder.organization_id, context.folder.id)) ?? context.folder;
  const missing = await missingScopesAtRun(context.runtime.db, folder, pipeline);
  if (missing.length > 0) {
    const who = folder.saved_by ? `${folder.saved_by}, who saved the folder,` : 'the folder was saved before step scopes were checked and';
    throw new StepFailure(name, `${who} does not hold ${missing.join(', ')} now; save the folder again as someone who does`);
  }
}

/**
 * Runs the file's remaining steps in order, after intake has converted the file's document (scan, OCR and
 * detection must read the rendered PDF, never the raw e-mail or Office file). Each step's effect (a job, an export, decisions, the output
 * name) is recorded before the step waits, so after a restart the step finds it and waits again instead of
 * starting it twice.
 */
export async function runPipeline(context: RunnerContext, fileId: number): Promise<void> {
  let file = await reloadFile(context.runtime.db, fileId);
  const pipeline = parsePipeline(file);
  const count = parseSteps(file).length;
  if (file.document_id !== null && count > 0 && !(await awaitConversion(context, file.document_id))) return;
  // A PDF waiting for its password fails the file at once, naming it and saying what to do (issue 18).
  const locked = file.document_id !== null && count > 0 ? await passwordBlock(context.runtime.db, file.document_id, 'ocr') : null;
  if (locked) throw new StepFailure('password', locked);
  file = await reloadFile(context.runtime.db, fileId);
  for (let index = 0; index < count; index += 1) {
    if (context.signal.aborted || file.state !== 'processing') return;
    const step = parseSteps(file)[index];
    if (!step || step.status === 'done') continue;
    if (step.name === 'auto_accept' || step.name === 'export') await assertFolderScopes(context, step.name, pipeline);
    switch (step.name) {
      case 'scan':
        await runJobStep(context, fileId, index, 'scan', pipeline.scan.options ?? {}, inspectScan(pipeline));
        break;
      case 'ocr':
        await runJobStep(context, fileId, index, 'ocr', pipeline.ocr?.options ?? {});
        break;
      case 'detection':
        await runJobStep(context, fileId, index, 'detection', detectionOptions(pipeline));
        break;
      case 'auto_accept': {
        const kinds = pipeline.auto_accept?.kinds ?? [];
        const accepted = await asStep('auto_accept', () => context.transaction((trx, ctx) => acceptSuggestions(trx, ctx, fileId, index, kinds)));
        if (accepted > 0) context.log(`${file.relative_path}: accepted ${accepted} suggestion(s) of ${kinds.join(', ')}`);
        break;
      }
      case 'export':
        await runExportStep(context, file, index, pipeline);
        break;
      case 'output':
        await runOutputStep(context, file, index, pipeline);
        break;
    }
    file = await reloadFile(context.runtime.db, fileId);
  }
}
