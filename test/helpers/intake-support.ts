import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { WorkerPool } from '../../main/jobs/pool.js';
import { startIntake } from '../../main/services/intake/index.js';
import { startInstance, type TestInstance } from './instance.js';
import { tempDir } from './temp.js';

/** A message built by nodemailer's own MIME composer (encodings, encoded words, multipart as it writes them). */
export function composeMessage(options: Mail.Options): Promise<Buffer> {
  return new Promise((resolve, reject) => new MailComposer(options).compile().build((error, message) => (error ? reject(error) : resolve(message))));
}

export interface IntakeHarness {
  instance: TestInstance;
  close(): Promise<void>;
}

/** A real instance with the intake runner on a real worker pool (compiled worker: npm run build:main first). */
export async function startIntakeInstance(): Promise<IntakeHarness> {
  const instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
  const pool = new WorkerPool(2);
  const runner = await startIntake(instance.runtime, pool);
  return {
    instance,
    async close() {
      await runner.stop();
      await pool.destroy();
      await instance.close();
    },
  };
}

export interface IntakeStateBody {
  document_id: string;
  status: string;
  error: string | null;
  warnings: string[];
  pages: number | null;
  depth: number;
  duplicate_of: string | null;
  near_duplicate_of: string | null;
  near_duplicate_score: number | null;
  thread_id: string | null;
  thread_inclusive: boolean;
  children: number;
  original: { sha256: string; media_type: string; size: number; format: string } | null;
}

export async function intakeOf(instance: TestInstance, documentId: string): Promise<IntakeStateBody> {
  const response = await instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/intake` });
  if (response.statusCode !== 200) throw new Error(`intake state: ${response.statusCode} ${response.body}`);
  return (response.json() as { data: IntakeStateBody }).data;
}

/** Waits until the document's intake has settled (converted, failed or waiting for LibreOffice). */
export async function settledIntake(instance: TestInstance, documentId: string, timeoutMs = 60_000): Promise<IntakeStateBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await intakeOf(instance, documentId);
    if (['converted', 'failed', 'needs_libreoffice'].includes(state.status)) return state;
    if (Date.now() > deadline) throw new Error(`intake of ${documentId} still ${state.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The stored content of a document, read straight from the blob store. */
export async function documentBytes(instance: TestInstance, documentId: string): Promise<Buffer> {
  const response = await instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}` });
  const { sha256 } = (response.json() as { data: { sha256: string } }).data;
  return fs.readFileSync(instance.runtime.blobs.pathFor(sha256));
}

/** pdftotext (poppler) and pdffonts: independent readers of what intake rendered. */
export function pdfText(bytes: Buffer): string {
  const dir = tempDir('obscura-intake-pdf-');
  const file = path.join(dir, 'x.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function pdfFonts(bytes: Buffer): string {
  const dir = tempDir('obscura-intake-pdf-');
  const file = path.join(dir, 'x.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('pdffonts', [file], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
