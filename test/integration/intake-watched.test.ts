import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../main/jobs/pool.js';
import { startIntake } from '../../main/services/intake/index.js';
import { composeMessage, documentBytes, pdfText } from '../helpers/intake-support.js';
import { createFolder, FAST_WATCH, folderFiles, settled, sleep, startWatchHarness, waitFor, watching, type WatchHarness } from '../helpers/watched-folders.js';

// A watched folder's steps (scan, detection) read the document's stored content: for an e-mail that must be
// the PDF intake renders, never the raw .eml. Intake is started only after the file is stored and its
// pipeline could begin, so a pipeline that did not wait would run its jobs on the raw message.

let h: WatchHarness;
let intakePool: WorkerPool | null = null;
let stopIntake: (() => Promise<void>) | null = null;

beforeAll(async () => {
  h = await startWatchHarness();
});
afterAll(async () => {
  await stopIntake?.();
  await intakePool?.destroy();
  await h.close();
});

describe('watched folder and intake', () => {
  it('runs scan, OCR and detection only after the e-mail is converted, on the rendered PDF', async () => {
    const dir = path.join(h.root, 'mail-drop');
    fs.mkdirSync(dir, { recursive: true });
    const folder = await createFolder(h.instance, {
      name: 'mail drop',
      path: dir,
      target: { mode: 'case_per_file' },
      // The default patterns take PDFs and images only.
      patterns: ['*.eml', '*.msg'],
      pipeline: { scan: { enabled: true, fail_on_danger: false }, ocr: {}, detection: {} },
      watch: FAST_WATCH,
    });
    await watching(h.instance, folder.id);
    const raw = await composeMessage({
      from: 'Ana Núñez <ana.nunez@example.org>',
      to: 'Private Person <private.person@example.com>',
      subject: 'Dock permit',
      text: 'Please call me about the dock permit. My e-mail is private.person@example.com.',
    });
    fs.writeFileSync(path.join(dir, 'permit.eml'), raw);
    const stored = await waitFor(async () => (await folderFiles(h.instance, folder.id)).find((file) => file.document_id !== null && file.state === 'processing'), 20_000, 'file stored');
    const documentId = Number(stored.document_id);
    // Long enough for a pipeline that does not wait to have queued and run its scan.
    await sleep(2_500);
    const early = await h.instance.runtime.db.selectFrom('jobs').selectAll().where('document_id', '=', documentId).execute();
    expect(early).toEqual([]);
    intakePool = new WorkerPool(1);
    const runner = await startIntake(h.instance.runtime, intakePool);
    stopIntake = () => runner.stop();
    const [file] = await settled(h.instance, folder.id, 1, 90_000);
    expect(file).toMatchObject({ state: 'done', error_message: null });
    expect(file?.steps.map((step) => [step.name, step.status])).toEqual([
      ['scan', 'done'],
      ['ocr', 'done'],
      ['detection', 'done'],
    ]);
    const intake = await h.instance.runtime.db.selectFrom('document_intake').selectAll().where('document_id', '=', documentId).executeTakeFirstOrThrow();
    expect(intake.status).toBe('converted');
    const jobs = await h.instance.runtime.db.selectFrom('jobs').selectAll().where('document_id', '=', documentId).orderBy('id').execute();
    expect(jobs.map((job) => [job.kind, job.status])).toEqual([
      ['scan', 'completed'],
      ['ocr', 'completed'],
      ['detection', 'completed'],
    ]);
    // Queued after conversion, and the scan read a PDF.
    for (const job of jobs) expect(job.created_at >= intake.updated_at).toBe(true);
    const scan = JSON.parse(jobs[0]?.result ?? '{}') as { file: { document_type: string }; pdf: { parses: boolean } | null };
    expect(scan.file.document_type).toBe('pdf');
    expect(scan.pdf?.parses).toBe(true);
    // Detection found the address in the rendered header and body.
    const suggestions = await h.instance.runtime.db.selectFrom('redactions').selectAll().where('document_id', '=', documentId).execute();
    expect(suggestions.length).toBeGreaterThan(0);
    expect(pdfText(await documentBytes(h.instance, String(documentId)))).toContain('private.person@example.com');
  }, 150_000);

  it('a file whose conversion fails goes to failed/ with the intake error', async () => {
    const dir = path.join(h.root, 'bad-drop');
    fs.mkdirSync(dir, { recursive: true });
    const folder = await createFolder(h.instance, { name: 'bad drop', path: dir, target: { mode: 'case_per_file' }, patterns: ['*.msg'], pipeline: { scan: { enabled: true } }, watch: FAST_WATCH });
    await watching(h.instance, folder.id);
    // An OLE header with nothing behind it: taken as an Outlook file at the door (by its bytes and name), then
    // failed by intake (the runner started by the test above).
    const ole = Buffer.alloc(1536);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    fs.writeFileSync(path.join(dir, 'broken.msg'), ole);
    const [file] = await settled(h.instance, folder.id, 1, 90_000);
    expect(file).toMatchObject({ state: 'failed', error_step: 'intake' });
    expect(file?.error_message).toContain('broken.msg: not a readable Outlook message');
    const jobs = await h.instance.runtime.db.selectFrom('jobs').selectAll().where('document_id', '=', Number(file?.document_id)).execute();
    expect(jobs).toEqual([]);
  }, 120_000);
});
