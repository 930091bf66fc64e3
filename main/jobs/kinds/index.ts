import type { JobKind } from '../../common/schemas/jobs.js';
import { scanHandler } from './scan.js';
import type { JobKindHandler } from './types.js';

/** The handler of each kind that can run; a kind missing here fails with a clear message. */
export const JOB_HANDLERS: Partial<Record<JobKind, JobKindHandler>> = {
  scan: scanHandler,
};
