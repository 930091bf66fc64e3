import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document } from '../../main/common/schemas/documents.js';
import { createCase } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { dataOf } from '../helpers/integration-support.js';
import { createFolder, settled, startWatchHarness, watching, type WatchHarness } from '../helpers/watched-folders.js';

// Issue 18: a password-protected PDF dropped into a watched folder becomes a document waiting for its
// password; the folder's steps fail naming the file and what to do, and the password then opens it.

let h: WatchHarness;

beforeAll(async () => {
  h = await startWatchHarness();
});
afterAll(async () => {
  await h.close();
});

describe('password-protected PDFs in watched folders', () => {
  it('marks the document, fails the file saying to supply the password, and decrypts with it', async () => {
    const caseId = await createCase(h.instance, 'Folder passwords');
    const plain = path.join(h.root, 'plain.pdf');
    fs.writeFileSync(plain, minimalPdf('Sealed report'));
    const locked = path.join(h.root, 'sealed-report.pdf');
    execFileSync('qpdf', ['--encrypt', 'Heron-552', 'owner-x', '256', '--', plain, locked]);
    const dir = path.join(h.root, 'inbox');
    fs.mkdirSync(dir);
    const folder = await createFolder(h.instance, { name: 'Inbox', path: dir, target: { mode: 'case', case_id: caseId }, watch: { stability_ms: 250, rescan_interval_seconds: 1 } });
    await watching(h.instance, folder.id);
    fs.copyFileSync(locked, path.join(dir, 'sealed-report.pdf'));
    const [file] = await settled(h.instance, folder.id, 1, 40_000);
    expect(file?.state).toBe('failed');
    expect(file?.error_message).toContain('sealed-report.pdf');
    expect(file?.error_message).toContain('supply its password');
    const document = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${file?.document_id}` }), Document);
    expect(document.password_state).toBe('needs_password');
    const opened = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${document.id}/password`, body: { password: 'Heron-552' } }), Document);
    expect(opened.password_state).toBe('decrypted');
    expect(execFileSync('pdftotext', [h.instance.runtime.blobs.pathFor(opened.sha256), '-'], { encoding: 'utf8' })).toContain('Sealed report');
  }, 60_000);
});
