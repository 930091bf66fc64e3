import type { DetectionTask, DetectionTaskResult, SummaryTask, SummaryTaskResult } from './analysis-tasks.js';
import type { ExportAssembleResult, ExportAssembleTask, ExportBurnResult, ExportBurnTask, ExportSearchResult, ExportSearchTask, ExportVerifyResult, ExportVerifyTask } from './export-tasks.js';
import type { OcrPageTask, OcrPageTaskResult, OcrPlanTask, OcrPlanTaskResult } from './ocr-tasks.js';
import type { IntakeTask, IntakeTaskResult } from './intake-tasks.js';
import type { PdfPasswordTask, PdfPasswordTaskResult } from './pdf-password-tasks.js';
import type { ReleasePackageResult, ReleasePackageTask } from './release-package-tasks.js';
import type { SearchMatchResult, SearchMatchTask } from './search-tasks.js';
import type { ScanOptions, ScanResult } from './schemas/jobs.js';

export type { DetectionTask, DetectionTaskResult, SummaryTask, SummaryTaskResult } from './analysis-tasks.js';
export type { ExportAssembleResult, ExportAssembleTask, ExportBurnResult, ExportBurnTask, ExportSearchResult, ExportSearchTask, ExportVerifyResult, ExportVerifyTask } from './export-tasks.js';
export type { OcrPageTask, OcrPageTaskResult, OcrPlanTask, OcrPlanTaskResult } from './ocr-tasks.js';
export type { IntakeTask, IntakeTaskResult } from './intake-tasks.js';
export type { PdfPasswordTask, PdfPasswordTaskResult } from './pdf-password-tasks.js';
export type { ReleasePackageResult, ReleasePackageTask } from './release-package-tasks.js';
export type { SearchMatchResult, SearchMatchTask } from './search-tasks.js';

// Messages between the scheduler and the worker threads. Plain data only (structured clone); a worker
// never opens the database, so everything it needs travels in the task.

export interface ScanTask {
  kind: 'scan';
  jobId: number;
  /** Absolute path of the stored blob. */
  blobPath: string;
  sha256: string;
  options: ScanOptions;
}

/** Every task a worker runs; later kinds join this union. */
export type WorkerTask = ScanTask | DetectionTask | SummaryTask | OcrPlanTask | OcrPageTask | ExportBurnTask | ExportAssembleTask | ExportVerifyTask | ExportSearchTask | ReleasePackageTask | IntakeTask | PdfPasswordTask | SearchMatchTask;

export interface ScanTaskResult {
  kind: 'scan';
  result: ScanResult;
}

export type WorkerTaskResult = ScanTaskResult | DetectionTaskResult | SummaryTaskResult | OcrPlanTaskResult | OcrPageTaskResult | ExportBurnResult | ExportAssembleResult | ExportVerifyResult | ExportSearchResult | ReleasePackageResult | IntakeTaskResult | PdfPasswordTaskResult | SearchMatchResult;

/** The result type that answers a task of kind K. */
export type ResultFor<K extends WorkerTask['kind']> = Extract<WorkerTaskResult, { kind: K }>;

/** Posted by a worker on the task's progress port while it runs. */
export interface WorkerProgress {
  type: 'progress';
  jobId: number;
  /** 0..1 */
  progress: number;
}

/** What piscina hands the worker: the task and a port for progress (transferred, not cloned). */
export interface WorkerEnvelope {
  task: WorkerTask;
  progressPort: { postMessage(message: WorkerProgress): void; close(): void };
}
