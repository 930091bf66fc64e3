import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BurnBox, ExportBurnTask, PageCheck } from '../../main/common/export-tasks.js';
import { byThread } from '../../main/jobs/export/verify.js';
import { preferringBalancer } from '../../main/jobs/pool.js';
import { readAnew } from '../../worker/pdf-glyphs/index.js';
import { burnPages } from '../../worker/burn-in/burn.js';
import { closeAllKept, findKept, keptState, MAX_KEPT_DOCUMENTS, MAX_KEPT_PAGES, openKept } from '../../worker/burn-in/kept-sources.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { verify } from '../../worker/burn-in/verify.js';
import { burnedAndAssembled, SETTINGS } from '../helpers/burn-producers.js';
import { tempDir } from '../helpers/temp.js';

// Issue 29: an export's burn keeps each source it opened, with what it read of its pages, on its thread for the
// same export's check there (worker/burn-in/kept-sources.ts); the runner asks the pool for that thread. What is
// kept must be exactly what a fresh reading gives, the check's answer must not depend on it, and it is bounded.

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpora/realworld-pdfs');
const FILES = ['tracemonkey.pdf', 'google-doc-document.pdf', 'prefilled_f1040.pdf', 'habibi-rotated.pdf'];
const BOXES = (): BurnBox[] => [{ x1: 150, y1: 380, x2: 300, y2: 420, points: [], label: null }];

const dirs: string[] = [];
const scratch = () => {
  const dir = tempDir('obscura-kept-');
  dirs.push(dir);
  return dir;
};
afterEach(closeAllKept);
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function burnTask(dir: string, file: string, exportId: number, pages: number[]): ExportBurnTask {
  const source = { documentId: 3, path: path.join(dir, 'source.pdf'), documentType: 'pdf' as const };
  fs.copyFileSync(file, source.path);
  return { kind: 'export-burn', exportId, source, pages: pages.map((page) => ({ page, boxes: BOXES(), words: null })), allPages: false, settings: SETTINGS, workPrefix: path.join(dir, 'work') };
}

describe('sources kept from an export\'s burn for its check', () => {
  it.each(FILES)('%s: what the burn leaves read is what a fresh reading of the source gives', async (name) => {
    const dir = scratch();
    const task = burnTask(dir, path.join(CORPUS, name), 41, [1]);
    const result = await burnPages(task, () => undefined);
    expect(result.thread).toBe(0);
    const kept = findKept(41, task.source.path);
    expect(kept).not.toBeNull();
    const fresh = await openPdf(new Uint8Array(fs.readFileSync(task.source.path)));
    try {
      const keptDocument = await kept!.document;
      const [keptPage, freshPage] = await Promise.all([keptDocument.getPage(1), fresh.getPage(1)]);
      // Read by the burn (not now): the check will take these very readings.
      expect(kept!.reader.holds?.(keptPage)).toBe(true);
      // Fonts are named per document (g_d<n>_f<m>): the same font of the same file in either.
      const same = (reading: unknown) => JSON.parse(JSON.stringify(reading).replace(/g_d\d+_/gu, 'g_d_'));
      expect(same(await kept!.reader.glyphs(keptDocument, keptPage))).toEqual(same(await readAnew.glyphs(fresh, freshPage)));
      expect(same(await kept!.reader.textContent(keptPage))).toEqual(same(await readAnew.textContent(freshPage)));
    } finally {
      kept?.release();
      await fresh.destroy();
    }
  }, 120_000);

  it.each(FILES)('%s: the check gives the same answer with the kept source as with the source read anew', async (name) => {
    const dir = scratch();
    const { outputPath, assembled } = await burnedAndAssembled(dir, new Uint8Array(fs.readFileSync(path.join(CORPUS, name))), new Map([[1, BOXES()]]));
    const task = { kind: 'export-verify' as const, exportId: 1, path: outputPath, sha256: assembled.sha256, expectedPages: assembled.pages, checks: assembled.checks, structure: true };
    expect(keptState().documents).toBeGreaterThan(0);
    const withKept = await verify(task);
    // Checked: the kept source is closed with what it held.
    expect(keptState()).toEqual({ documents: 0, pages: 0 });
    const anew = await verify(task);
    expect(withKept).toEqual(anew);
    // The page is certified, or refused in its content (then rendered by the runner): either way, checked.
    expect((withKept.verification.certificates?.length ?? 0) + (withKept.refused?.length ?? 0)).toBe(1);
  }, 120_000);

  it('a file written anew under the same name is not the kept one', async () => {
    const dir = scratch();
    const task = burnTask(dir, path.join(CORPUS, 'tracemonkey.pdf'), 42, [1]);
    await burnPages(task, () => undefined);
    const kept = findKept(42, task.source.path);
    expect(kept).not.toBeNull();
    kept?.release();
    expect(findKept(43, task.source.path)).toBeNull();
    fs.copyFileSync(path.join(CORPUS, 'google-doc-document.pdf'), task.source.path);
    expect(findKept(42, task.source.path)).toBeNull();
  }, 120_000);

  it('keeps a bounded number of pages and documents', async () => {
    const dir = scratch();
    const file = path.join(dir, 'tracemonkey.pdf');
    fs.copyFileSync(path.join(CORPUS, 'tracemonkey.pdf'), file);
    const bytes = new Uint8Array(fs.readFileSync(file));
    // Pages past the bound let the oldest go, readings and all.
    const kept = openKept(50, file, () => openPdf(bytes.slice()));
    const document = await kept.document;
    const pages = [];
    for (let round = 0; pages.length <= MAX_KEPT_PAGES; round += 1) {
      for (let number = 1; number <= document.numPages && pages.length <= MAX_KEPT_PAGES; number += 1) {
        // Each document's pages are kept once: more than the bound needs more documents.
        const other = round === 0 ? kept : openKept(50 + round, file, () => openPdf(bytes.slice()));
        const page = await (await other.document).getPage(number);
        if (pages.length < 2) await other.reader.glyphs(await other.document, page);
        await other.keep(page, false);
        pages.push({ other, page });
        if (other !== kept) other.release();
      }
    }
    expect(keptState().pages).toBe(MAX_KEPT_PAGES);
    expect(kept.reader.holds?.(pages[0]!.page)).toBe(false);
    expect(kept.reader.holds?.(pages[1]!.page)).toBe(true);
    kept.release();
    // Documents past the bound close the least recently used one no task holds.
    for (let id = 100; id < 100 + MAX_KEPT_DOCUMENTS + 3; id += 1) openKept(id, file, () => openPdf(bytes.slice())).release();
    expect(keptState().documents).toBeLessThanOrEqual(MAX_KEPT_DOCUMENTS);
    expect(findKept(50, file)).toBeNull();
  }, 120_000);
});

describe('the pool prefers the thread that keeps a task\'s sources', () => {
  const worker = (id: number, currentUsage = 0, terminating = false) => ({ id, currentUsage, isRunningAbortableTask: currentUsage > 0, histogram: null, terminating, destroyed: false }) as never;
  const task = (thread?: number) => ({ taskId: 1, filename: 'w.js', name: 'default', created: 0, isAbortable: true, ...(thread !== undefined && { [Symbol.for('piscina.queueOptions')]: { thread } }) }) as never;

  it('takes the preferred thread when it is idle, else any idle thread, else waits', async () => {
    const { Piscina } = await import('piscina');
    const wants = (thread: number) => ({ taskId: 1, filename: 'w.js', name: 'default', created: 0, isAbortable: true, [Piscina.queueOptionsSymbol]: { thread } }) as never;
    expect(preferringBalancer(wants(8), [worker(7), worker(8)])).toMatchObject({ id: 8 });
    expect(preferringBalancer(wants(8), [worker(7), worker(8, 1)])).toMatchObject({ id: 7 });
    expect(preferringBalancer(wants(8), [worker(7), worker(8, 0, true)])).toMatchObject({ id: 7 });
    expect(preferringBalancer(wants(9), [worker(7, 1), worker(8)])).toMatchObject({ id: 8 });
    expect(preferringBalancer(wants(8), [worker(7, 1), worker(8, 1)])).toBeNull();
    expect(preferringBalancer(task(), [worker(7, 1), worker(8)])).toMatchObject({ id: 8 });
  });
});

describe('the checks of a file shared out by the thread that burned their pages', () => {
  const check = (page: number): PageCheck => ({ outputPage: page, label: `p${page}`, words: [], withheld: [], certify: { documentId: 1, page, sourcePath: 's.pdf', sourceType: 'pdf', method: 'vector', drawn: [] } }) as unknown as PageCheck;
  const checks = Array.from({ length: 50 }, (_, index) => check(index + 1));

  it('gives each task the pages of one thread, the sizes within one of each other', () => {
    const threadOf = (entry: PageCheck) => ((entry.certify?.page ?? 0) <= 26 ? 3 : 4);
    const groups = byThread(checks, 2, threadOf);
    expect(groups.map((group) => group.checks.length)).toEqual([25, 25]);
    expect(groups[0]?.thread).toBe(3);
    expect(groups[1]?.thread).toBe(4);
    expect(groups[0]?.checks.every((entry) => threadOf(entry) === 3)).toBe(true);
    // The one page thread 3 could not take goes to thread 4's task; every page once.
    expect(groups[1]?.checks.filter((entry) => threadOf(entry) === 3).length).toBe(1);
    expect(groups.flatMap((group) => group.checks.map((entry) => entry.outputPage)).sort((a, b) => a - b)).toEqual(checks.map((entry) => entry.outputPage));
  });

  it('without threads known, runs of consecutive pages as before; more threads than tasks fold in', () => {
    expect(byThread(checks, 2, () => undefined).map((group) => [group.checks[0]?.outputPage, group.checks.length, group.thread])).toEqual([
      [1, 25, undefined],
      [26, 25, undefined],
    ]);
    const groups = byThread(checks, 2, (entry) => (entry.outputPage % 3) + 10);
    expect(groups.map((group) => group.checks.length)).toEqual([25, 25]);
    expect(new Set(groups.flatMap((group) => group.checks)).size).toBe(50);
    expect(byThread(checks.slice(0, 1), 2, () => 5)).toEqual([{ checks: [checks[0]], thread: 5 }]);
  });
});
