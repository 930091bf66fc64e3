import { expect } from 'vitest';
import { z } from 'zod';
import { Job } from '../../main/common/schemas/jobs.js';
import type { OcrResult } from '../../main/common/schemas/ocr.js';
import { PageWord } from '../../main/common/schemas/pages.js';
import type { AppClient } from './app-session.js';
import { createCase, uploadDocuments, type TestInstance } from './instance.js';
import { dataOf } from './integration-support.js';
import { characterErrorRate, contains, matchWords, type TruthPage } from './ocr-fixtures.js';

// OCR through the real path: upload, POST …/ocr-jobs, the scheduler and worker threads, then the stored
// pages read back through GET /ocr/text.

export async function uploadFile(instance: TestInstance, name: string, bytes: Buffer, key?: string): Promise<string> {
  const caseId = await createCase(instance, `OCR ${name}`, key);
  const [document] = await uploadDocuments(instance, caseId, [{ name, bytes }], key);
  if (!document) throw new Error('upload returned no document');
  return document.id;
}

export async function startOcrJob(instance: TestInstance, documentId: string, options?: Record<string, unknown>): Promise<Job> {
  const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/ocr-jobs`, ...(options && { body: options }) });
  return dataOf(response, Job, 202);
}

export async function waitForJob(instance: TestInstance, jobId: string, timeoutMs = 90_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = dataOf(await instance.request({ method: 'GET', url: `/api/v1/jobs/${jobId}` }), Job);
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function ocrResultOf(job: Job): OcrResult {
  expect(job.status, job.error_message ?? '').toBe('completed');
  return job.result as unknown as OcrResult;
}

export const StoredPage = z.object({
  document_id: z.string(),
  page_number: z.number().int(),
  source: z.enum(['text_layer', 'ocr', 'transcript']),
  job_id: z.string().nullable(),
  unit: z.enum(['pdf_points', 'image_pixels', 'seconds']),
  width: z.number(),
  height: z.number(),
  rotation: z.number(),
  text: z.string(),
  word_count: z.number().int(),
  mean_confidence: z.number().nullable(),
  created_at: z.string(),
  words: z.array(PageWord),
});
export type StoredPage = z.infer<typeof StoredPage>;

const TextBody = z.object({ success: z.literal(true), doc_id: z.string(), page_count: z.number(), pages: z.array(StoredPage) });

/** The stored pages with their words, through the application API. */
export async function storedPages(client: AppClient, documentId: string): Promise<StoredPage[]> {
  const response = await client.request('GET', `/ocr/text?doc_id=${documentId}&user_id=${client.userId}&words=true`);
  expect(response.statusCode, response.body).toBe(200);
  return TextBody.parse(response.json()).pages;
}

/** Recognised text close to the truth, and every word OCR got right boxed where it was drawn. */
export function expectRecognised(page: Pick<StoredPage, 'text' | 'words'>, truth: TruthPage, maxCer = 0.05): void {
  expect(characterErrorRate(truth.text, page.text), page.text).toBeLessThan(maxCer);
  const matches = matchWords(truth.words, page.words);
  const found = matches.filter((match) => match.word !== null);
  expect(found.length / matches.length).toBeGreaterThan(0.9);
  for (const { truth: expected, word } of found) {
    if (word) expect(contains(word, expected.at), `${word.text} [${word.x1}, ${word.y1}, ${word.x2}, ${word.y2}] holds ${String(expected.at)}`).toBe(true);
  }
}
