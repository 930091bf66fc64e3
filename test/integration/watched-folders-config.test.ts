import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigWatchedFolder, WatchedFolder } from '../../main/common/schemas/watched-folders.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { errorOf, eventsOf, pageOf } from '../helpers/integration-support.js';
import { folderStatus, settled, startWatchHarness, waitFor, type WatchHarness } from '../helpers/watched-folders.js';

// Folders defined in config.json: synced to the database at every start, read-only through the API.

describe('watched folders from the config file', () => {
  let h: WatchHarness;
  let base: string;
  const entry = (name: string, dir: string, extra: Record<string, unknown> = {}) =>
    ConfigWatchedFolder.parse({ name, path: dir, target: { mode: 'case_per_file' }, watch: { stability_ms: 200, rescan_interval_seconds: 0.5 }, ...extra });
  const listFolders = async () => pageOf(await h.instance.request({ method: 'GET', url: '/api/v1/watched-folders' }), WatchedFolder).data;

  beforeAll(async () => {
    base = tempDir('obscura-watch-config-');
    fs.mkdirSync(path.join(base, 'scans'));
    h = await startWatchHarness({
      watchedFolders: [
        entry('Scanner', path.join(base, 'scans')),
        entry('Share not mounted yet', path.join(base, 'share')),
        entry('Overlapping', path.join(base, 'scans', 'inner')),
      ],
    });
  });
  afterAll(async () => {
    await h.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('creates the entries, skips one that breaks a rule with a log line, and refuses API changes', async () => {
    const folders = await listFolders();
    expect(folders.map((folder) => [folder.name, folder.origin])).toEqual([
      ['Scanner', 'config'],
      ['Share not mounted yet', 'config'],
    ]);
    expect(h.logs.some((line) => line.startsWith('watched folder "Overlapping" in config.json is not used: the path overlaps'))).toBe(true);
    const scanner = folders[0];
    errorOf(await h.instance.request({ method: 'PATCH', url: `/api/v1/watched-folders/${scanner?.id ?? ''}`, body: { enabled: false } }), 409, 'conflict');
    errorOf(await h.instance.request({ method: 'DELETE', url: `/api/v1/watched-folders/${scanner?.id ?? ''}` }), 409, 'conflict');
    const audit = await eventsOf(h.instance, 'watched_folder', scanner?.id ?? '');
    expect(audit.map((event) => event.type)).toEqual(['watched_folder.created']);

    fs.writeFileSync(path.join(base, 'scans', 'from-config.pdf'), minimalPdf('via config'));
    const [file] = await settled(h.instance, scanner?.id ?? '', 1);
    expect(file?.state).toBe('done');
  });

  it('a folder whose path is missing is unavailable until it appears, then watched', async () => {
    const share = (await listFolders()).find((folder) => folder.name === 'Share not mounted yet');
    const status = await folderStatus(h.instance, share?.id ?? '');
    expect(status.watching).toBe('unavailable');
    expect(status.watch_error).toContain('no folder at');
    fs.mkdirSync(path.join(base, 'share'));
    fs.writeFileSync(path.join(base, 'share', 'mounted.pdf'), minimalPdf('mounted at last'));
    await waitFor(async () => (await folderStatus(h.instance, share?.id ?? '')).watching === 'watching', 10_000, 'share watched');
    const [file] = await settled(h.instance, share?.id ?? '', 1);
    expect(file?.state).toBe('done');
  });

  it('a folder that goes away (share unmounted) becomes unavailable, and is watched again when it is back', async () => {
    const share = (await listFolders()).find((folder) => folder.name === 'Share not mounted yet');
    const id = share?.id ?? '';
    fs.rmSync(path.join(base, 'share'), { recursive: true });
    await waitFor(async () => (await folderStatus(h.instance, id)).watching === 'unavailable', 10_000, 'unavailable');
    fs.mkdirSync(path.join(base, 'share'));
    await waitFor(async () => (await folderStatus(h.instance, id)).watching === 'watching', 10_000, 'watching again');
    fs.writeFileSync(path.join(base, 'share', 'remounted.pdf'), minimalPdf('after the remount'));
    const files = await settled(h.instance, id, 2);
    expect(files.map((file) => [file.relative_path, file.state])).toEqual([
      ['mounted.pdf', 'done'],
      ['remounted.pdf', 'done'],
    ]);
  });

  it('the next start applies the file again: changed entries updated, removed ones deleted', async () => {
    const before = await listFolders();
    await h.restartFolders({ watchedFolders: [entry('Scanner', path.join(base, 'scans'), { disposition: 'leave' })] });
    const after = await listFolders();
    expect(after.map((folder) => [folder.id, folder.name, folder.disposition])).toEqual([[before[0]?.id, 'Scanner', 'leave']]);
    expect((await eventsOf(h.instance, 'watched_folder', before[0]?.id ?? '')).map((event) => event.type)).toEqual(['watched_folder.created', 'watched_folder.updated']);
    expect((await eventsOf(h.instance, 'watched_folder', before[1]?.id ?? '')).map((event) => event.type)).toEqual(['watched_folder.created', 'watched_folder.deleted']);
    // Unchanged on a further start: no event.
    await h.restartFolders({ watchedFolders: [entry('Scanner', path.join(base, 'scans'), { disposition: 'leave' })] });
    expect((await eventsOf(h.instance, 'watched_folder', before[0]?.id ?? '')).length).toBe(2);
  });
});
