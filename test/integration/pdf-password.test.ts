import { sql } from 'kysely';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document } from '../../main/common/schemas/documents.js';
import { closeHarness, harness, runJob, type Harness } from '../helpers/analysis-support.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { dataOf, errorOf } from '../helpers/integration-support.js';
import { onPostgres } from '../helpers/test-database.js';

// Issue 18: password-protected PDFs are detected at upload, wait for their password, and are decrypted
// into a working copy on the worker pool. Encrypted files are made here with qpdf; results are read back
// with qpdf and pdftotext.

const PASSWORD = 'Kestrel-7741-user';
let h: Harness;
let work: string;

function encrypted(text: string, name: string, user: string, bits: '256' | '128' = '256'): Buffer {
  const plain = path.join(work, `${name}.plain.pdf`);
  const out = path.join(work, `${name}.pdf`);
  fs.writeFileSync(plain, minimalPdf(text));
  execFileSync('qpdf', ['--encrypt', user, 'owner-secret', bits, ...(bits === '128' ? ['--use-aes=y'] : []), '--', plain, out]);
  return fs.readFileSync(out);
}

function blobOf(sha256: string): string {
  return h.instance.runtime.blobs.pathFor(sha256);
}

beforeAll(async () => {
  work = tempDir('obscura-password-');
  h = await harness();
});
afterAll(async () => {
  await closeHarness(h);
});

describe('password-protected PDFs', () => {
  it('marks a PDF that needs a password at upload completion, and only that one', async () => {
    const caseId = await createCase(h.instance, 'Passwords');
    const docs = await uploadDocuments(h.instance, caseId, [
      { name: 'locked.pdf', bytes: encrypted('Locked ledger', 'locked', PASSWORD) },
      { name: 'owner-only.pdf', bytes: encrypted('Owner only', 'owner-only', '') },
      { name: 'plain.pdf', bytes: minimalPdf('Plain text') },
    ]);
    const states = docs.map((doc) => (doc as unknown as Document).password_state);
    expect(states).toEqual(['needs_password', null, null]);
    const fetched = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${docs[0]?.id}` }), Document);
    expect(fetched).toMatchObject({ password_state: 'needs_password', original_sha256: null });
  });

  it('fails a job on a document waiting for its password with the file name and what to do', async () => {
    const caseId = await createCase(h.instance, 'Passwords jobs');
    const [doc] = await uploadDocuments(h.instance, caseId, [{ name: 'minutes-2024.pdf', bytes: encrypted('Minutes', 'minutes', PASSWORD) }]);
    // The scan (safety preflight) still runs and reports the encryption; reading the content waits.
    expect((await runJob(h.instance, String(doc?.id), 'scan')).status).toBe('completed');
    const job = await runJob(h.instance, String(doc?.id), 'ocr');
    expect(job.status).toBe('failed');
    expect(job.error_message).toContain('minutes-2024.pdf');
    expect(job.error_message).toContain('supply its password');
    expect(job.error_message).not.toContain('[object');
  });

  it('refuses a wrong password with 422 naming the file and changes nothing', async () => {
    const caseId = await createCase(h.instance, 'Passwords wrong');
    const [doc] = await uploadDocuments(h.instance, caseId, [{ name: 'payroll.pdf', bytes: encrypted('Payroll', 'payroll', PASSWORD) }]);
    const error = errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${doc?.id}/password`, body: { password: 'not-it' } }), 422, 'unprocessable_entity');
    expect(error.message).toContain('payroll.pdf');
    const after = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${doc?.id}` }), Document);
    expect(after).toMatchObject({ password_state: 'needs_password', sha256: doc?.sha256, original_sha256: null });
    // A document that needs no password cannot be given one.
    const [plain] = await uploadDocuments(h.instance, caseId, [{ name: 'open.pdf', bytes: minimalPdf('Open') }]);
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${plain?.id}/password`, body: { password: 'x' } }), 409, 'conflict');
    // Another organization's key does not find the document.
    errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${doc?.id}/password`, body: { password: PASSWORD }, key: h.instance.orgs[1]?.api_key }), 404, 'resource_not_found');
  });

  for (const bits of ['256', '128'] as const) {
    it(`decrypts into a working copy with the right password (AES-${bits}), keeps the original and never stores the password`, async () => {
      const caseId = await createCase(h.instance, `Passwords right ${bits}`);
      const bytes = encrypted(`Secret ledger ${bits}`, `ledger-${bits}`, PASSWORD, bits);
      const [doc] = await uploadDocuments(h.instance, caseId, [{ name: `ledger-${bits}.pdf`, bytes }]);
      const decrypted = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${doc?.id}/password`, body: { password: PASSWORD } }), Document);
      expect(decrypted.password_state).toBe('decrypted');
      expect(decrypted.original_sha256).toBe(doc?.sha256);
      expect(decrypted.sha256).not.toBe(doc?.sha256);
      // The working copy opens without a password and carries the text; the original is still encrypted.
      const copy = blobOf(decrypted.sha256);
      expect(execFileSync('qpdf', ['--warning-exit-0', '--show-encryption', copy], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toContain('File is not encrypted');
      expect(execFileSync('pdftotext', [copy, '-'], { encoding: 'utf8' })).toContain(`Secret ledger ${bits}`);
      expect(fs.readFileSync(blobOf(String(doc?.sha256))).equals(bytes)).toBe(true);
      // A second attempt is a conflict; jobs now run on the working copy.
      errorOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${doc?.id}/password`, body: { password: PASSWORD } }), 409, 'conflict');
      const ocr = await runJob(h.instance, String(doc?.id), 'ocr');
      expect(ocr.status).toBe('completed');
      // Neither the database (with its WAL) nor the change log hold the password.
      if (onPostgres()) {
        // Every row of every table, as text: the password is in none of them.
        const tables = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`.execute(h.instance.runtime.db);
        expect(tables.rows.length).toBeGreaterThan(10);
        for (const { name } of tables.rows) {
          const rows = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(name)} AS t`.execute(h.instance.runtime.db);
          for (const { row } of rows.rows) expect(row.includes(PASSWORD), name).toBe(false);
        }
        return;
      }
      const dir = h.instance.dataDir;
      const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((name) => /\.(sqlite|db)(-wal)?$/.test(name) || name.endsWith('-wal'));
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) expect(fs.readFileSync(path.join(dir, name)).includes(PASSWORD)).toBe(false);
    });
  }
});
