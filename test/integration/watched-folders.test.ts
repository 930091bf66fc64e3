import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WatchedFolder, WatchedFolderStatus } from '../../main/common/schemas/watched-folders.js';
import type { Scope } from '../../main/common/scopes.js';
import { localDate } from '../../main/jobs/watched-folders/output.js';
import { issueApiKey } from '../../main/services/api-keys.js';
import { createCase } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { dataOf, errorOf, eventsOf, orgId, pageOf, tinyPng } from '../helpers/integration-support.js';
import { createFolder, folderFiles, folderStatus, listTree, settled, startWatchHarness, waitFor, watching, type WatchHarness } from '../helpers/watched-folders.js';

// Watched folders through the real API, real folders, SQLite and worker threads (scan runs from dist/).

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('watched folders', () => {
  let h: WatchHarness;
  let counter = 0;
  const newDir = (name: string) => {
    const dir = path.join(h.root, `${name}-${(counter += 1)}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  const documents = () => h.instance.runtime.db.selectFrom('documents').selectAll().where('organization_id', '=', orgId(h.instance)).execute();

  beforeAll(async () => {
    h = await startWatchHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  describe('the resource', () => {
    async function keyWith(scopes: readonly Scope[]): Promise<string> {
      const db = h.instance.runtime.db;
      const account = await db.selectFrom('service_accounts').select('id').where('organization_id', '=', orgId(h.instance)).executeTakeFirstOrThrow();
      return (await issueApiKey(db, { organizationId: orgId(h.instance), serviceAccountId: account.id, name: scopes.join(' '), scopes, expiresAt: null, now: new Date().toISOString() })).plaintext;
    }

    it('is created with defaults filled in, audited, and read back; documents:read reads, documents:write manages', async () => {
      const dir = newDir('resource');
      const created = await createFolder(h.instance, { name: 'Inbox', path: dir, target: { mode: 'case_per_file' } });
      expect(created).toMatchObject({
        name: 'Inbox',
        path: fs.realpathSync(dir),
        origin: 'api',
        enabled: true,
        target: { mode: 'case_per_file' },
        patterns: ['*.pdf', '*.png', '*.jpg', '*.jpeg', '*.tif', '*.tiff'],
        disposition: 'move',
        pipeline: { scan: { enabled: true, fail_on_danger: false }, ocr: null, detection: null, auto_accept: null, export: null },
        watch: { stability_ms: 250, rescan_interval_seconds: 1, use_polling: false, polling_interval_ms: 2000 },
      });
      const events = await eventsOf(h.instance, 'watched_folder', created.id);
      expect(events.map((event) => event.type)).toEqual(['watched_folder.created']);

      const reader = await keyWith(['documents:read']);
      const got = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${created.id}`, key: reader }), WatchedFolder);
      expect(got).toEqual(created);
      dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${created.id}/status`, key: reader }), WatchedFolderStatus);
      const denied = errorOf(await h.instance.request({ method: 'PATCH', url: `/api/v1/watched-folders/${created.id}`, key: reader, body: { enabled: false } }), 403, 'permission_denied');
      expect(denied.details).toEqual({ required_scopes: ['documents:write'] });
      errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${created.id}`, key: await keyWith(['cases:read']) }), 403, 'permission_denied');
      // Another organization sees nothing.
      errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${created.id}`, key: h.instance.orgs[1]?.api_key ?? '' }), 404, 'resource_not_found');

      const patched = dataOf(await h.instance.request({ method: 'PATCH', url: `/api/v1/watched-folders/${created.id}`, body: { disposition: 'leave', patterns: ['*.PDF'] } }), WatchedFolder);
      expect(patched).toMatchObject({ disposition: 'leave', patterns: ['*.PDF'] });
      const listed = pageOf(await h.instance.request({ method: 'GET', url: '/api/v1/watched-folders' }), WatchedFolder);
      expect(listed.data.map((folder) => folder.id)).toContain(created.id);

      const deleted = await h.instance.request({ method: 'DELETE', url: `/api/v1/watched-folders/${created.id}` });
      expect(deleted.statusCode).toBe(204);
      errorOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${created.id}` }), 404, 'resource_not_found');
      expect((await eventsOf(h.instance, 'watched_folder', created.id)).map((event) => event.type)).toEqual([
        'watched_folder.created',
        'watched_folder.updated',
        'watched_folder.deleted',
      ]);
    });

    it('refuses folders that cannot work, naming the field', async () => {
      const dir = newDir('invalid');
      const post = (body: Record<string, unknown>) => h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: { name: 'x', target: { mode: 'case_per_file' }, ...body } });
      const fieldsOf = (error: { details?: unknown }) => (error.details as { field: string }[]).map((detail) => detail.field);
      expect(fieldsOf(errorOf(await post({ path: 'relative/dir' }), 400, 'validation_error'))).toEqual(['path']);
      expect(fieldsOf(errorOf(await post({ path: path.join(dir, 'missing') }), 400, 'validation_error'))).toEqual(['path']);
      expect(fieldsOf(errorOf(await post({ path: h.instance.dataDir }), 400, 'validation_error'))).toEqual(['path']);
      expect(fieldsOf(errorOf(await post({ path: dir, target: { mode: 'case', case_id: '999999' } }), 400, 'validation_error'))).toEqual(['target.case_id']);
      expect(fieldsOf(errorOf(await post({ path: dir, pipeline: { auto_accept: { kinds: ['ssn'] } } }), 400, 'validation_error'))).toEqual(['pipeline.auto_accept']);
      expect(fieldsOf(errorOf(await post({ path: dir, pipeline: { scan: { options: { min_text_chars: 0 } } } }), 400, 'validation_error'))).toEqual([
        'pipeline.scan.options.min_text_chars',
      ]);
      expect(
        fieldsOf(errorOf(await post({ path: dir, pipeline: { export: { format: 'pdf', output_path: dir, filters: { document_ids: ['1'] } } } }), 400, 'validation_error')),
      ).toContain('pipeline.export.filters.document_ids');
      errorOf(await post({ path: dir, disposition: 'shred' }), 400, 'validation_error');

      const first = await createFolder(h.instance, { name: 'outer', path: dir, target: { mode: 'case_per_file' } });
      const inner = path.join(dir, 'inner');
      fs.mkdirSync(inner);
      errorOf(await post({ path: inner }), 409, 'conflict');
      errorOf(await post({ path: dir }), 409, 'conflict');
      const other = newDir('other');
      const looping = errorOf(await post({ path: other, pipeline: { export: { format: 'pdf', output_path: path.join(dir, 'out') } } }), 400, 'validation_error');
      expect(fieldsOf(looping)).toEqual(['pipeline.export.output_path']);
      // Nor may a folder be made where another folder writes its release files.
      const release = newDir('release-of-other');
      const writer = await createFolder(h.instance, { name: 'writer', path: other, target: { mode: 'case_per_file' }, pipeline: { export: { format: 'csv', output_path: release } } });
      expect(fieldsOf(errorOf(await post({ path: release }), 400, 'validation_error'))).toEqual(['path']);
      await h.instance.request({ method: 'DELETE', url: `/api/v1/watched-folders/${first.id}` });
      await h.instance.request({ method: 'DELETE', url: `/api/v1/watched-folders/${writer.id}` });
    });
  });

  it('takes existing and new files once, per sub-folder cases, scan, moved to processed/DATE/', async () => {
    const dir = newDir('basic');
    const existing = minimalPdf('Existing before the folder was watched');
    fs.writeFileSync(path.join(dir, 'existing.pdf'), existing);
    const folder = await createFolder(h.instance, { name: 'Clerk inbox', path: dir, target: { mode: 'case_per_subfolder' } });
    await watching(h.instance, folder.id);
    const inRequest = minimalPdf('Request 114 letter');
    const png = tinyPng();
    fs.mkdirSync(path.join(dir, 'Request 114'));
    fs.writeFileSync(path.join(dir, 'Request 114', 'letter.PDF'), inRequest);
    fs.writeFileSync(path.join(dir, 'Request 114', 'photo.png'), png);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a pattern');

    const files = await settled(h.instance, folder.id, 3);
    expect(files.map((file) => [file.relative_path, file.state]).sort()).toEqual([
      ['Request 114/letter.PDF', 'done'],
      ['Request 114/photo.png', 'done'],
      ['existing.pdf', 'done'],
    ]);
    for (const file of files) {
      expect(file.steps).toEqual([{ name: 'scan', status: 'done', job_id: expect.any(String), detail: { job_id: expect.any(String) } }]);
      expect(file.disposed_path).toBe(path.join(folder.path, 'processed', localDate(new Date()), ...file.relative_path.split('/')));
    }
    const byPath = new Map(files.map((file) => [file.relative_path, file]));
    const docs = await documents();
    const docOf = (relative: string) => docs.find((doc) => String(doc.id) === byPath.get(relative)?.document_id);
    expect(docOf('existing.pdf')?.sha256).toBe(sha256(existing));
    expect(docOf('Request 114/letter.PDF')?.sha256).toBe(sha256(inRequest));
    expect(docOf('Request 114/photo.png')).toMatchObject({ sha256: sha256(png), document_type: 'png', file_name: 'photo.png' });
    // Both files of the sub-folder share its case; the top-level file went to the folder's case.
    expect(docOf('Request 114/letter.PDF')?.case_id).toBe(docOf('Request 114/photo.png')?.case_id);
    const cases = await h.instance.runtime.db.selectFrom('cases').selectAll().execute();
    expect(cases.find((row) => row.id === docOf('Request 114/letter.PDF')?.case_id)?.name).toBe('Request 114');
    expect(cases.find((row) => row.id === docOf('existing.pdf')?.case_id)?.name).toBe('Clerk inbox');

    const day = localDate(new Date());
    expect(listTree(dir)).toEqual(['notes.txt', `processed/${day}/Request 114/letter.PDF`, `processed/${day}/Request 114/photo.png`, `processed/${day}/existing.pdf`]);
    const status = await folderStatus(h.instance, folder.id);
    expect(status.counts).toEqual({ waiting: 0, in_progress: 0, done: 3, failed: 0, vanished: 0, duplicates: 0, stored: 3 });
    expect(status.last_scan_at).not.toBeNull();
    const completed = await eventsOf(h.instance, 'watched_file', files[0]?.id ?? '');
    expect(completed.map((event) => event.type)).toEqual(['watched_file.completed']);

    // A later walk of the folder takes nothing again.
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).last_scan_at !== status.last_scan_at);
    expect((await folderFiles(h.instance, folder.id)).length).toBe(3);
  });

  it('never takes partial or temporary files, dotfiles, or what sits in processed/ and failed/', async () => {
    const dir = newDir('ignored');
    for (const name of ['.hidden.pdf', 'download.pdf.part', 'chrome.pdf.crdownload', '~$locked.pdf', 'word.tmp']) fs.writeFileSync(path.join(dir, name), minimalPdf(name));
    fs.mkdirSync(path.join(dir, 'processed', '2020-01-01'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'failed'));
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, 'processed', '2020-01-01', 'old.pdf'), minimalPdf('old'));
    fs.writeFileSync(path.join(dir, 'failed', 'bad.pdf'), minimalPdf('bad'));
    fs.writeFileSync(path.join(dir, '.git', 'inside.pdf'), minimalPdf('inside dot dir'));
    fs.writeFileSync(path.join(dir, 'taken.pdf'), minimalPdf('the only one taken'));
    const folder = await createFolder(h.instance, { name: 'ignores', path: dir, target: { mode: 'case_per_file' } });
    const files = await settled(h.instance, folder.id, 1);
    const before = (await folderStatus(h.instance, folder.id)).last_scan_at;
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).last_scan_at !== before);
    expect((await folderFiles(h.instance, folder.id)).map((file) => file.relative_path)).toEqual(['taken.pdf']);
    expect(files[0]?.state).toBe('done');
  });

  it('a directory named like a file is not a file', async () => {
    const dir = newDir('dir-named-pdf');
    const folder = await createFolder(h.instance, { name: 'dirs', path: dir, target: { mode: 'case_per_file' } });
    await watching(h.instance, folder.id);
    fs.mkdirSync(path.join(dir, 'scan.pdf'));
    fs.writeFileSync(path.join(dir, 'scan.pdf', 'inner.pdf'), minimalPdf('inside a directory named scan.pdf'));
    const files = await settled(h.instance, folder.id, 1);
    expect(files.map((file) => [file.relative_path, file.state])).toEqual([['scan.pdf/inner.pdf', 'done']]);
  });

  it('exposes a paged per-file list filtered by group', async () => {
    const dir = newDir('list');
    const folder = await createFolder(h.instance, { name: 'list', path: dir, target: { mode: 'case_per_file' } });
    await watching(h.instance, folder.id);
    for (let index = 0; index < 3; index += 1) fs.writeFileSync(path.join(dir, `f${index}.pdf`), minimalPdf(`file ${index}`));
    fs.writeFileSync(path.join(dir, 'broken.pdf'), Buffer.from('%PDF-1.7\nthis is not a PDF at all\n'));
    await settled(h.instance, folder.id, 4);
    const Listed = z.object({ id: z.string(), state: z.string() });
    const first = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folder.id}/files?limit=2&group=done` }), Listed);
    expect(first.data.map((file) => file.state)).toEqual(['done', 'done']);
    const second = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folder.id}/files?limit=2&group=done&cursor=${first.cursor ?? ''}` }), Listed);
    expect(second.data.length).toBe(1);
    expect(second.cursor).toBeNull();
    const failed = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folder.id}/files?group=failed` }), Listed);
    expect(failed.data.length).toBe(1);
    const one = await h.instance.request({ method: 'GET', url: `/api/v1/watched-folders/${folder.id}/files/${failed.data[0]?.id ?? ''}` });
    expect(one.statusCode).toBe(200);
  });

  it('moves a folder into an existing case; leave keeps the source and does not take it again until it changes', async () => {
    const caseId = await createCase(h.instance, 'Existing case');
    const dir = newDir('leave');
    const folder = await createFolder(h.instance, { name: 'leave', path: dir, target: { mode: 'case', case_id: caseId }, disposition: 'leave' });
    await watching(h.instance, folder.id);
    const bytes = minimalPdf('left in place');
    fs.writeFileSync(path.join(dir, 'kept.pdf'), bytes);
    const [file] = await settled(h.instance, folder.id, 1);
    expect(file).toMatchObject({ state: 'done', disposed_path: null, disposition: 'leave' });
    const doc = (await documents()).find((row) => String(row.id) === file?.document_id);
    expect(String(doc?.case_id)).toBe(caseId);
    expect(listTree(dir)).toEqual(['kept.pdf']);
    // Two more walks: still one file.
    const first = (await folderStatus(h.instance, folder.id)).last_scan_at;
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).last_scan_at !== first);
    expect((await folderFiles(h.instance, folder.id)).length).toBe(1);

    // New content at the same path is a new file and a new document.
    const changed = minimalPdf('left in place, then edited');
    fs.writeFileSync(path.join(dir, 'kept.pdf'), changed);
    const files = await settled(h.instance, folder.id, 2);
    expect(files.length).toBe(2);
    expect((await documents()).find((row) => String(row.id) === files[1]?.document_id)?.sha256).toBe(sha256(changed));
  });

  it('delete removes the source once its document exists', async () => {
    const dir = newDir('delete');
    const folder = await createFolder(h.instance, { name: 'delete', path: dir, target: { mode: 'case_per_file' }, disposition: 'delete', pipeline: { scan: { enabled: false } } });
    await watching(h.instance, folder.id);
    const bytes = minimalPdf('deleted after storing');
    fs.writeFileSync(path.join(dir, 'gone.pdf'), bytes);
    const [file] = await settled(h.instance, folder.id, 1);
    expect(file).toMatchObject({ state: 'done', steps: [], disposed_path: null });
    expect(listTree(dir)).toEqual([]);
    const doc = (await documents()).find((row) => String(row.id) === file?.document_id);
    expect(doc?.sha256).toBe(sha256(bytes));
    const cases = await h.instance.runtime.db.selectFrom('cases').selectAll().where('id', '=', doc?.case_id ?? 0).execute();
    expect(cases[0]?.name).toBe('gone');
    expect(fs.readFileSync(h.instance.runtime.blobs.pathFor(doc?.sha256 ?? ''))).toEqual(bytes);
  });

  it('runs OCR and detection and accepts the chosen kinds of suggestions automatically', async () => {
    const dir = newDir('detect');
    const post = (pipeline: Record<string, unknown>) => h.instance.request({ method: 'POST', url: '/api/v1/watched-folders', body: { name: 'd', path: dir, target: { mode: 'case_per_file' }, pipeline } });
    const noOcr = errorOf(await post({ detection: { options: {} } }), 400, 'validation_error');
    expect((noOcr.details as { field: string }[]).map((detail) => detail.field)).toEqual(['pipeline.detection']);
    const folder = await createFolder(h.instance, {
      name: 'detect',
      path: dir,
      target: { mode: 'case_per_file' },
      pipeline: { ocr: {}, detection: { options: { entity_kinds: ['ssn', 'email'] } }, auto_accept: { kinds: ['ssn'] } },
    });
    await watching(h.instance, folder.id);
    fs.writeFileSync(path.join(dir, 'personnel.pdf'), minimalPdf('SSN 123-45-6789 mail jane.doe@example.gov'));
    const [file] = await settled(h.instance, folder.id, 1, 60_000);
    expect(file?.state, file?.error_message ?? '').toBe('done');
    expect(file?.steps.map((step) => [step.name, step.status])).toEqual([
      ['scan', 'done'],
      ['ocr', 'done'],
      ['detection', 'done'],
      ['auto_accept', 'done'],
    ]);
    const jobs = await h.instance.runtime.db.selectFrom('jobs').select(['id', 'kind', 'status']).where('document_id', '=', Number(file?.document_id)).orderBy('id').execute();
    expect(jobs.map((job) => [String(job.id), job.kind, job.status])).toEqual(
      (file?.steps ?? []).filter((step) => step.job_id).map((step) => [step.job_id, step.name, 'completed']),
    );
    const boxes = await h.instance.runtime.db.selectFrom('redactions').select(['state', 'pending_reason']).where('document_id', '=', Number(file?.document_id)).execute();
    const byEntity = (entity: string) => boxes.filter((box) => (JSON.parse(box.pending_reason ?? '{}') as { entity?: string }).entity === entity).map((box) => box.state);
    expect(byEntity('ssn').length).toBeGreaterThan(0);
    expect(byEntity('ssn').every((state) => state === 'accepted')).toBe(true);
    expect(byEntity('email').length).toBeGreaterThan(0);
    expect(byEntity('email').every((state) => state === 'pending')).toBe(true);
    expect(file?.steps[3]?.detail).toEqual({ accepted: byEntity('ssn').length });
    const decisions = await h.instance.runtime.db.selectFrom('review_decisions').selectAll().where('document_id', '=', Number(file?.document_id)).execute();
    expect(decisions.map((decision) => [decision.decision, decision.actor_type, decision.actor_id])).toEqual(
      byEntity('ssn').map(() => ['accept', 'system', `watched_folder:${folder.id}`]),
    );
  }, 90_000);

  it('exports a redacted release file per file to the output folder, written once under its own name', async () => {
    const dir = newDir('export');
    const out = newDir('release');
    const folder = await createFolder(h.instance, {
      name: 'export',
      path: dir,
      target: { mode: 'case_per_subfolder' },
      pipeline: { ocr: {}, detection: { options: { entity_kinds: ['ssn'] } }, auto_accept: { kinds: ['ssn'] }, export: { format: 'pdf', output_path: out } },
    });
    await watching(h.instance, folder.id);
    fs.mkdirSync(path.join(dir, 'box 1'));
    fs.writeFileSync(path.join(dir, 'box 1', 'memo.pdf'), minimalPdf('Employee SSN 123-45-6789 on file'));
    fs.writeFileSync(path.join(dir, 'box 1', 'other.pdf'), minimalPdf('Nothing personal here at all'));
    // A file already in the output folder under the name the export would take keeps its name.
    fs.mkdirSync(path.join(out, 'box 1'));
    fs.writeFileSync(path.join(out, 'box 1', 'other.redacted.pdf'), 'someone else\'s file');
    const files = await settled(h.instance, folder.id, 2, 90_000);
    for (const file of files) expect(file.state, file.error_message ?? '').toBe('done');
    const memo = files.find((file) => file.relative_path === 'box 1/memo.pdf');
    expect(memo?.steps.map((step) => step.name)).toEqual(['scan', 'ocr', 'detection', 'auto_accept', 'export', 'output']);
    expect(memo).toMatchObject({ output_path: path.join(out, 'box 1', 'memo.redacted.pdf'), output_written: true });
    expect(files.find((file) => file.relative_path === 'box 1/other.pdf')?.output_path).toBe(path.join(out, 'box 1', 'other (2).redacted.pdf'));
    expect(listTree(out)).toEqual(['box 1/memo.redacted.pdf', 'box 1/other (2).redacted.pdf', 'box 1/other.redacted.pdf']);
    expect(fs.readFileSync(path.join(out, 'box 1', 'other.redacted.pdf'), 'utf8')).toBe("someone else's file");
    // The release file is the export's bytes, a PDF without the accepted SSN in its text.
    const exportId = memo?.steps.find((step) => step.name === 'export')?.job_id;
    const exported = await h.instance.runtime.db.selectFrom('exports').selectAll().where('id', '=', Number(exportId)).executeTakeFirstOrThrow();
    const released = fs.readFileSync(path.join(out, 'box 1', 'memo.redacted.pdf'));
    expect(sha256(released)).toBe(exported.result_sha256);
    expect(JSON.parse(exported.filters)).toMatchObject({ document_ids: [memo?.document_id] });
    const text = execFileSync('pdftotext', [path.join(out, 'box 1', 'memo.redacted.pdf'), '-'], { encoding: 'utf8' });
    expect(text).not.toContain('123-45-6789');
    expect(execFileSync('pdftotext', [path.join(out, 'box 1', 'other (2).redacted.pdf'), '-'], { encoding: 'utf8' })).toContain('Nothing personal');
  }, 120_000);

  it('a csv log of each file lands in an output folder inside the watched folder, which is never taken', async () => {
    const dir = newDir('csv');
    const folder = await createFolder(h.instance, {
      name: 'csv',
      path: dir,
      target: { mode: 'case_per_file' },
      patterns: ['*'],
      pipeline: { scan: { enabled: false }, export: { format: 'csv', output_path: path.join(dir, 'logs') } },
    });
    await watching(h.instance, folder.id);
    // Two files in flight at once whose release files would have the same name.
    fs.writeFileSync(path.join(dir, 'a.pdf'), minimalPdf('csv export a'));
    fs.writeFileSync(path.join(dir, 'a.PDF'), minimalPdf('csv export A'));
    const files = await settled(h.instance, folder.id, 2, 60_000);
    expect(files.map((file) => file.state)).toEqual(['done', 'done']);
    expect(files.map((file) => path.basename(file.output_path ?? '')).sort()).toEqual(['a (2).redactions.csv', 'a.redactions.csv']);
    const before = (await folderStatus(h.instance, folder.id)).last_scan_at;
    await waitFor(async () => (await folderStatus(h.instance, folder.id)).last_scan_at !== before);
    expect((await folderFiles(h.instance, folder.id)).length).toBe(2);
    const day = localDate(new Date());
    expect(listTree(dir)).toEqual(['logs/a (2).redactions.csv', 'logs/a.redactions.csv', `processed/${day}/a.PDF`, `processed/${day}/a.pdf`]);
    for (const file of files) expect(fs.readFileSync(file.output_path ?? '', 'utf8').length).toBeGreaterThan(0);
  }, 90_000);

  it('polling mode (SMB/NFS) takes files too', async () => {
    const dir = newDir('polling');
    const folder = await createFolder(h.instance, {
      name: 'polling',
      path: dir,
      target: { mode: 'case_per_file' },
      watch: { stability_ms: 250, rescan_interval_seconds: 60, use_polling: true, polling_interval_ms: 100 },
    });
    await watching(h.instance, folder.id);
    fs.writeFileSync(path.join(dir, 'polled.pdf'), minimalPdf('seen by polling'));
    const [file] = await settled(h.instance, folder.id, 1);
    expect(file?.state).toBe('done');
  });

  it('a disabled folder is not watched; enabling it takes what arrived meanwhile', async () => {
    const dir = newDir('disabled');
    const folder = await createFolder(h.instance, { name: 'disabled', path: dir, target: { mode: 'case_per_file' }, enabled: false });
    fs.writeFileSync(path.join(dir, 'waiting.pdf'), minimalPdf('arrived while disabled'));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await folderStatus(h.instance, folder.id)).toMatchObject({ watching: 'stopped', counts: { waiting: 0, done: 0 } });
    await h.instance.request({ method: 'PATCH', url: `/api/v1/watched-folders/${folder.id}`, body: { enabled: true } });
    const [file] = await settled(h.instance, folder.id, 1);
    expect(file?.state).toBe('done');
  });
});
