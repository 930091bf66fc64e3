import { ScanOptions } from '../../common/schemas/jobs.js';
import type { JobKindHandler } from './types.js';

export const scanHandler: JobKindHandler = {
  async run({ job, blob, pool, signal, reportProgress }) {
    const task = { kind: 'scan' as const, jobId: job.id, blobPath: blob.path, sha256: blob.sha256, options: ScanOptions.parse(JSON.parse(job.options)) };
    const outcome = await pool.run(task, { signal, onProgress: (message) => reportProgress(message.progress) });
    return outcome.result;
  },
};
