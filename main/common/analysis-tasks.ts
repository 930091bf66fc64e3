import type { DetectionFinding, DetectionPlan } from './schemas/detection.js';
import type { PageWord } from './schemas/pages.js';
import type { ExtractiveSummary } from './schemas/summary.js';

// Worker tasks of the text-analysis kinds (detection, summary); joined into the unions of worker-messages.ts.

/** One stored page as a task carries it (from document_pages). */
export interface TaskPage {
  page_number: number;
  unit: 'pdf_points' | 'image_pixels' | 'seconds';
  rotation: number;
  text: string;
  words: PageWord[];
}

export interface DetectionTask {
  kind: 'detection';
  jobId: number;
  pages: TaskPage[];
  plan: DetectionPlan;
}

export interface DetectionTaskResult {
  kind: 'detection';
  findings: DetectionFinding[];
}

export interface SummaryTask {
  kind: 'summary';
  jobId: number;
  pages: { page_number: number; unit: TaskPage['unit']; text: string }[];
  sentences: number;
}

export interface SummaryTaskResult {
  kind: 'summary';
  result: ExtractiveSummary;
}
