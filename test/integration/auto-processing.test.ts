import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaseProcessing, ProcessingSettings } from '../../main/common/schemas/auto-processing.js';
import { Document } from '../../main/common/schemas/documents.js';
import { Job } from '../../main/common/schemas/jobs.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { dataOf, errorOf, pageOf } from '../helpers/integration-support.js';
import { waitFor } from '../helpers/watched-folders.js';

// Issue 18: uploads run scan → OCR → detection by themselves (the organization's setting, on by default),
// and a case reports per-document progress, an ETA and failures naming the file and the reason.

let instance: TestInstance;
let scheduler: JobScheduler;
let work: string;

beforeAll(async () => {
  instance = await startInstance({ autoProcess: true, config: { rateLimits: { enabled: false } } });
  scheduler = startScheduler(instance.runtime, { poolSize: 2 });
  work = tempDir('obscura-auto-');
});
afterAll(async () => {
  await scheduler.stop();
  await instance.close();
});

async function progress(caseId: string, key?: string) {
  return dataOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/processing`, ...(key && { key }) }), CaseProcessing);
}

function settledProgress(caseId: string) {
  return waitFor(async () => {
    const state = await progress(caseId);
    return state.in_progress === 0 ? state : undefined;
  }, 60_000, 'case processing settled');
}

describe('automatic processing', () => {
  it('is on by default and runs scan, OCR and detection on an upload without a click', async () => {
    expect(dataOf(await instance.request({ method: 'GET', url: '/api/v1/processing-settings' }), ProcessingSettings)).toEqual({ auto_process: true });
    const caseId = await createCase(instance, 'Auto');
    const [doc] = await uploadDocuments(instance, caseId, [{ name: 'contact.pdf', bytes: minimalPdf('Write to jane.roe@example.org today') }]);
    const first = await progress(caseId);
    expect(first.documents).toHaveLength(1);
    expect(['scan', 'ocr', 'detection', 'done']).toContain(first.documents[0]?.state);
    const state = await settledProgress(caseId);
    expect(state).toMatchObject({ total: 1, done: 1, failed: 0, in_progress: 0, eta_seconds: 0, failures: [] });
    const jobs = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${doc?.id}/jobs` }), Job);
    expect(jobs.data.map((job) => [job.kind, job.status])).toEqual([
      ['scan', 'completed'],
      ['ocr', 'completed'],
      ['detection', 'completed'],
    ]);
    // Detection ran on the OCR'd words: the e-mail address is a pending suggestion.
    const detection = jobs.data[2]?.result as { suggestions?: number; created?: number } | null;
    expect(JSON.stringify(detection)).toMatch(/[1-9]/);
  }, 90_000);

  it('lists failures with the file name and the reason, and waits for a password', async () => {
    const caseId = await createCase(instance, 'Auto failures');
    const plain = path.join(work, 'plain.pdf');
    fs.writeFileSync(plain, minimalPdf('Vault'));
    execFileSync('qpdf', ['--encrypt', 'Osprey-19', 'owner', '256', '--', plain, path.join(work, 'vault.pdf')]);
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')]);
    const docs = await uploadDocuments(instance, caseId, [
      { name: 'vault.pdf', bytes: fs.readFileSync(path.join(work, 'vault.pdf')) },
      { name: 'broken-scan.pdf', bytes: broken },
    ]);
    const state = await settledProgress(caseId);
    const byName = new Map(state.documents.map((doc) => [doc.file_name, doc]));
    expect(byName.get('vault.pdf')?.state).toBe('needs_password');
    expect(byName.get('broken-scan.pdf')?.state).toBe('failed');
    const reasons = new Map(state.failures.map((failure) => [failure.file_name, failure.reason]));
    expect(reasons.get('vault.pdf')).toContain('password');
    expect(reasons.get('broken-scan.pdf')).toMatch(/\S/);
    expect(reasons.get('broken-scan.pdf')).toContain('the scan could not open the PDF');
    expect(JSON.stringify(state)).not.toContain('[object');
    // pdf.js's own exceptions reach the job's message as text, not "[object Object]".
    const started = dataOf(await instance.request({ method: 'POST', url: `/api/v1/documents/${docs[1]?.id}/ocr-jobs` }), Job, 202);
    const ocr = await waitFor(async () => {
      const job = dataOf(await instance.request({ method: 'GET', url: `/api/v1/jobs/${started.id}` }), Job);
      return job.status === 'failed' || job.status === 'completed' ? job : undefined;
    }, 30_000, 'ocr job settled');
    expect(ocr.status).toBe('failed');
    expect(ocr.error_message).toMatch(/^the ocr job failed: \S/);
    expect(ocr.error_message).not.toContain('[object');
    // Supplying the password starts the waiting document's chain.
    dataOf(await instance.request({ method: 'POST', url: `/api/v1/documents/${docs[0]?.id}/password`, body: { password: 'Osprey-19' } }), Document);
    const after = await settledProgress(caseId);
    expect(after.documents.find((doc) => doc.file_name === 'vault.pdf')?.state).toBe('done');
  }, 90_000);

  it('starts nothing when the organization turns it off, and keeps the case to its organization', async () => {
    const other = instance.orgs[1]?.api_key;
    errorOf(await instance.request({ method: 'PATCH', url: '/api/v1/processing-settings', body: { auto_process: 'yes' } }), 400, 'validation_error');
    dataOf(await instance.request({ method: 'PATCH', url: '/api/v1/processing-settings', body: { auto_process: false }, key: other }), ProcessingSettings);
    const caseId = await createCase(instance, 'Manual', other);
    const [doc] = await uploadDocuments(instance, caseId, [{ name: 'manual.pdf', bytes: minimalPdf('Manual') }], other);
    const state = await progress(caseId, other);
    expect(state).toMatchObject({ auto_process: false, total: 1, in_progress: 0 });
    expect(state.documents[0]?.state).toBe('not_started');
    expect(pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${doc?.id}/jobs`, key: other }), Job).data).toEqual([]);
    // The first organization's setting is untouched; its key cannot read the other's case.
    expect(dataOf(await instance.request({ method: 'GET', url: '/api/v1/processing-settings' }), ProcessingSettings).auto_process).toBe(true);
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/processing` }), 404, 'resource_not_found');
  }, 60_000);
});
