import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../helpers/temp.js';
import { orgId } from '../helpers/integration-support.js';
import {
  createFolder,
  folderFiles,
  folderStatus,
  listTree,
  paddedPdf,
  settled,
  sleep,
  startWatchHarness,
  waitFor,
  watching,
  writeSlowly,
  type WatchHarness,
} from '../helpers/watched-folders.js';

// How files arrive in real life: slowly, renamed into place, twice, broken, or gone again.

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('watched folder files', () => {
  let h: WatchHarness;
  let counter = 0;
  const newDir = (name: string) => {
    const dir = path.join(h.root, `${name}-${(counter += 1)}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  const documentsWith = (hash: string) =>
    h.instance.runtime.db.selectFrom('documents').selectAll().where('organization_id', '=', orgId(h.instance)).where('sha256', '=', hash).execute();
  const folderFor = async (name: string, extra: Record<string, unknown> = {}) => {
    const dir = newDir(name);
    const folder = await createFolder(h.instance, { name, path: dir, target: { mode: 'case_per_file' }, ...extra });
    await watching(h.instance, folder.id);
    return { dir, folder };
  };

  beforeAll(async () => {
    h = await startWatchHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('a file written slowly in chunks is taken once, complete', async () => {
    const { dir, folder } = await folderFor('slow', { watch: { stability_ms: 400, rescan_interval_seconds: 0.3 } });
    const bytes = paddedPdf(minimalPdf('Slow scanner output'), 96 * 1024);
    // Eight chunks, 150 ms apart: the whole write takes about three times the stability window.
    await writeSlowly(path.join(dir, 'slow.pdf'), bytes, 8, 150);
    const files = await settled(h.instance, folder.id, 1);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ relative_path: 'slow.pdf', state: 'done', size: bytes.length, sha256: sha256(bytes) });
    expect(await documentsWith(sha256(bytes))).toHaveLength(1);
    // No document was ever made from a partial state of the file.
    const all = await h.instance.runtime.db.selectFrom('documents').select('file_name').where('file_name', '=', 'slow.pdf').execute();
    expect(all).toHaveLength(1);
  });

  it('a file renamed into place is taken once, after the rename; the partial name never', async () => {
    const { dir, folder } = await folderFor('rename');
    const bytes = paddedPdf(minimalPdf('Copied then renamed'), 64 * 1024);
    await writeSlowly(path.join(dir, 'report.pdf.part'), bytes, 4, 150);
    await fsp.rename(path.join(dir, 'report.pdf.part'), path.join(dir, 'report.pdf'));
    const files = await settled(h.instance, folder.id, 1);
    expect(files.map((file) => [file.relative_path, file.state, file.sha256])).toEqual([['report.pdf', 'done', sha256(bytes)]]);
    expect(await documentsWith(sha256(bytes))).toHaveLength(1);
  });

  it('the same content twice makes one document; the second is recorded as a duplicate, with a log line', async () => {
    const { dir, folder } = await folderFor('duplicates');
    const bytes = minimalPdf('Dropped twice by two people');
    fs.writeFileSync(path.join(dir, 'first.pdf'), bytes);
    const [first] = await settled(h.instance, folder.id, 1);
    fs.mkdirSync(path.join(dir, 'again'));
    fs.writeFileSync(path.join(dir, 'again', 'copy of first.pdf'), bytes);
    fs.writeFileSync(path.join(dir, 'third.pdf'), bytes);
    const files = await settled(h.instance, folder.id, 3);
    const documents = await documentsWith(sha256(bytes));
    expect(documents).toHaveLength(1);
    expect(String(documents[0]?.id)).toBe(first?.document_id);
    const duplicates = files.filter((file) => file.duplicate_of !== null);
    expect(duplicates.map((file) => file.relative_path).sort()).toEqual(['again/copy of first.pdf', 'third.pdf']);
    for (const file of duplicates) {
      expect(file).toMatchObject({ state: 'done', duplicate_of: first?.id, document_id: first?.document_id, steps: [] });
      expect(h.logs.some((line) => line.includes(`${file.relative_path}: same content`) && line.includes(`as first.pdf (file ${first?.id ?? ''}); no new document`))).toBe(true);
    }
    expect((await folderStatus(h.instance, folder.id)).counts).toMatchObject({ done: 3, duplicates: 2, stored: 3 });
    // Every source was moved away: no file is left to be taken again.
    expect(listTree(dir).every((name) => name.startsWith('processed/'))).toBe(true);
  });

  it('a corrupt PDF goes to failed/ with its error beside it', async () => {
    const { dir, folder } = await folderFor('corrupt');
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'), Buffer.alloc(2000, 0x20), Buffer.from('\ntruncated')]);
    fs.writeFileSync(path.join(dir, 'broken.pdf'), broken);
    fs.writeFileSync(path.join(dir, 'good.pdf'), minimalPdf('The good one next to it'));
    const files = await settled(h.instance, folder.id, 2);
    const failed = files.find((file) => file.relative_path === 'broken.pdf');
    expect(failed).toMatchObject({ state: 'failed', error_step: 'scan', disposed_path: path.join(folder.path, 'failed', 'broken.pdf') });
    expect(failed?.error_message).toMatch(/^the PDF cannot be read: /);
    expect(failed?.steps).toEqual([{ name: 'scan', status: 'failed', job_id: expect.any(String), detail: null }]);
    expect(files.find((file) => file.relative_path === 'good.pdf')?.state).toBe('done');
    expect(fs.readFileSync(path.join(dir, 'failed', 'broken.pdf'))).toEqual(broken);
    const note = fs.readFileSync(path.join(dir, 'failed', 'broken.pdf.error.txt'), 'utf8');
    expect(note).toContain('File:     broken.pdf');
    expect(note).toContain('Step:     scan');
    expect(note).toContain(`Error:    ${failed?.error_message ?? ''}`);
    const status = await folderStatus(h.instance, folder.id);
    expect(status.counts).toMatchObject({ done: 1, failed: 1 });
    expect(status.last_errors).toEqual([{ file_id: failed?.id, relative_path: 'broken.pdf', error_step: 'scan', error_message: failed?.error_message, at: expect.any(String) }]);
    // What sits in failed/ is never taken again.
    const before = status.last_scan_at;
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).last_scan_at !== before);
    expect(await folderFiles(h.instance, folder.id)).toHaveLength(2);
  });

  it('bytes that are no document type fail at store; no document is made', async () => {
    const { dir, folder } = await folderFor('unsupported');
    const bytes = Buffer.from('just some text pretending to be a PDF\n'.repeat(50));
    fs.writeFileSync(path.join(dir, 'fake.pdf'), bytes);
    const [file] = await settled(h.instance, folder.id, 1);
    expect(file).toMatchObject({ state: 'failed', error_step: 'store', document_id: null });
    expect(file?.error_message).toContain('not a PDF, PNG, JPEG, TIFF, audio or video file');
    expect(await documentsWith(sha256(bytes))).toHaveLength(0);
    expect(listTree(dir)).toEqual(['failed/fake.pdf', 'failed/fake.pdf.error.txt']);
  });

  it('a file removed before it was read is recorded as vanished; nothing is made and nothing goes to failed/', async () => {
    const { dir, folder } = await folderFor('vanish', { watch: { stability_ms: 1500, rescan_interval_seconds: 0.3 } });
    const bytes = minimalPdf('Here for a moment');
    const file = path.join(dir, 'brief.pdf');
    fs.writeFileSync(file, bytes);
    // Seen (recorded as waiting) but not yet stable, then removed.
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).counts.waiting === 1);
    fs.rmSync(file);
    const files = await settled(h.instance, folder.id, 1);
    expect(files.map((entry) => [entry.relative_path, entry.state, entry.document_id])).toEqual([['brief.pdf', 'vanished', null]]);
    expect(await documentsWith(sha256(bytes))).toHaveLength(0);
    expect(listTree(dir)).toEqual([]);
    expect((await folderStatus(h.instance, folder.id)).counts).toMatchObject({ vanished: 1, failed: 0, done: 0 });

    // Dropped again later, it is a new file and is taken.
    fs.writeFileSync(file, bytes);
    const again = await settled(h.instance, folder.id, 2);
    expect(again.map((entry) => entry.state)).toEqual(['vanished', 'done']);
  });

  it('a clean restart resumes files mid-way without taking any twice', async () => {
    const { dir, folder } = await folderFor('restart', { pipeline: { scan: { enabled: true } } });
    const contents = Array.from({ length: 12 }, (_, index) => minimalPdf(`restart file ${index}`));
    contents.forEach((bytes, index) => fs.writeFileSync(path.join(dir, `r${index}.pdf`), bytes));
    // Stop while some are stored and others not yet.
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).counts.stored >= 3, 15_000, 'three stored');
    await h.restartFolders();
    const files = await settled(h.instance, folder.id, 12, 30_000);
    expect(files.map((file) => file.state)).toEqual(Array(12).fill('done'));
    expect(new Set(files.map((file) => file.relative_path)).size).toBe(12);
    for (const bytes of contents) expect(await documentsWith(sha256(bytes))).toHaveLength(1);
    const jobs = await h.instance.runtime.db
      .selectFrom('jobs')
      .select(['document_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('document_id', 'in', files.map((file) => Number(file.document_id)))
      .groupBy('document_id')
      .execute();
    expect(jobs.map((row) => Number(row.n))).toEqual(Array(12).fill(1));
  }, 60_000);

  it('a file that keeps changing is not taken until it settles', async () => {
    const { dir, folder } = await folderFor('growing', { watch: { stability_ms: 300, rescan_interval_seconds: 0.2 } });
    const target = path.join(dir, 'log-like.pdf');
    const final = minimalPdf('Final state after many appends');
    fs.writeFileSync(target, '%PDF-1.4\n');
    for (let index = 0; index < 8; index += 1) {
      await sleep(120);
      fs.appendFileSync(target, `% line ${index}\n`);
    }
    expect((await folderStatus(h.instance, folder.id)).counts.stored).toBe(0);
    fs.writeFileSync(target, final);
    const files = await settled(h.instance, folder.id, 1);
    expect(files.map((file) => [file.state, file.sha256])).toEqual([['done', sha256(final)]]);
  });
});
