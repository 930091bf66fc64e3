import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { finished, startJob, upload } from '../helpers/analysis-support.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

// The last line of defence behind the parser limits: with a watchdog limit below what the process already
// uses, any running task is stopped and its job fails with the reason; the server goes on answering.

describe('security: worker memory watchdog', () => {
  let instance: TestInstance;
  let scheduler: JobScheduler;
  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false }, parserLimits: { watchdogRssMb: 1 } } });
    scheduler = startScheduler(instance.runtime, { poolSize: 1 });
  });
  afterAll(async () => {
    await scheduler.stop();
    await instance.close();
  });

  it('a task running while resident memory is over the limit is stopped; its job fails naming parserLimits.watchdogRssMb', async () => {
    const documentId = await upload(instance, 'ocr-me.pdf', minimalPdf('watchdog'));
    const job = await finished(instance, (await startJob(instance, documentId, 'ocr', { force_ocr: true })).id, 60_000);
    expect(job.status).toBe('failed');
    expect(job.error_message).toMatch(/watchdog limit of 1 MiB \(parserLimits\.watchdogRssMb\)/);
    expect((await instance.request({ method: 'GET', url: '/api/v1/me' })).statusCode).toBe(200);
  }, 90_000);
});
