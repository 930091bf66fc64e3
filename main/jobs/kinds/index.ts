import type { JobKind } from '../../common/schemas/jobs.js';
import { detectionHandler } from './detection.js';
import { ocrHandler } from './ocr.js';
import { scanHandler } from './scan.js';
import { summaryHandler } from './summary.js';
import { transcriptionHandler } from './transcription.js';
import type { JobKindHandler } from './types.js';

/** The handler of each kind that can run; a kind missing here fails with a clear message. */
export const JOB_HANDLERS: Partial<Record<JobKind, JobKindHandler>> = {
  scan: scanHandler,
  ocr: ocrHandler,
  detection: detectionHandler,
  summary: summaryHandler,
  transcription: transcriptionHandler,
};
