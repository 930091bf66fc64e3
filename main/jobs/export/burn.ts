import type { BurnSettings, ExportBurnTask, RefusedPage } from '../../common/export-tasks.js';
import type { ExportMaterial } from '../../services/export-material.js';
import { chunk, noteThread, settleAll, type BuildContext, type Burned, type Releasable } from './context.js';
import type { ReleasePlan } from './release-plan.js';
import { requestsOf } from './requests.js';

// Burn step (main thread: plans and dispatches; pool: `export-burn` tasks render or rewrite the pages).

/** Burns every page that needs it, spread over the pool; progress covers `from`..`to`. */
export async function burnAll(
  ctx: BuildContext,
  material: ExportMaterial,
  documents: Releasable[],
  settings: BurnSettings,
  from: number,
  to: number,
  plan: ReleasePlan | null = null,
  /** Internal review copies with the setting keep only: hidden content stays (export-tasks.ts keepHidden). */
  keepHidden = false,
): Promise<Burned> {
  const labels = settings.labels;
  const tasks: { task: ExportBurnTask; weight: number }[] = [];
  for (const { material: document, type } of documents) {
    const isImage = type !== 'pdf';
    const skip = plan?.skipPages.get(document.row.id) ?? new Set<number>();
    if (plan?.wholeDocuments.has(document.row.id) && !isImage) continue;
    const requests = requestsOf(document, isImage, labels, material.release.exemptions, skip);
    const source = { documentId: document.row.id, path: await ctx.runtime.blobs.localPath(document.row.sha256), documentType: type };
    const base = { kind: 'export-burn' as const, exportId: material.row.id, source, settings, workPrefix: ctx.workPrefix, ...(skip.size > 0 && { skipPages: [...skip] }), ...(keepHidden && { keepHidden }) };
    if (isImage) {
      tasks.push({ task: { ...base, pages: requests, allPages: true }, weight: Math.max(1, requests.length) });
      continue;
    }
    // Several tasks per document let the threads share a long document; each task parses the file once. The
    // first also sweeps the other pages for hidden text (worker/pdf-glyphs), which must not travel either.
    const parts = Math.max(1, Math.min(Math.ceil(requests.length / 4), ctx.pool.size * 2));
    const sweepExcept = requests.map((request) => request.page);
    chunk(requests, parts).forEach((pages, index) => tasks.push({ task: { ...base, pages, allPages: false, ...(index === 0 && { sweepExcept }) }, weight: Math.max(1, pages.length) }));
    if (requests.length === 0) tasks.push({ task: { ...base, pages: [], allPages: false, sweepExcept }, weight: 1 });
  }
  const total = tasks.reduce((sum, entry) => sum + entry.weight, 0) || 1;
  const done = new Array<number>(tasks.length).fill(0);
  const report = () => ctx.progress(from + ((to - from) * done.reduce((sum, value, index) => sum + value * (tasks[index]?.weight ?? 0), 0)) / total);
  const results = await settleAll(
    tasks.map(({ task }, index) =>
      ctx.pool.run(task, {
        signal: ctx.signal,
        onProgress: (message) => {
          done[index] = message.progress;
          report();
        },
      }),
    ),
  );
  const byDocument: Burned = new Map();
  results.forEach((result, index) => {
    const id = tasks[index]?.task.source.documentId ?? 0;
    const entry = byDocument.get(id) ?? { pageCount: result.pageCount, pages: [] };
    entry.pages.push(...result.pages);
    noteThread(entry, result.thread, result.pages);
    if (result.hiddenKept) entry.hiddenKept = [...(entry.hiddenKept ?? []), ...result.hiddenKept];
    byDocument.set(id, entry);
  });
  return byDocument;
}

/**
 * Renders the pages the check of a written file refused in their content (verify.ts): each document's refused
 * pages in one burn task, the raster page replacing the rewritten one in `burned`, the reason its fallback.
 * The caller assembles and verifies the file again; rendered pages are never refused.
 */
export async function renderRefused(ctx: BuildContext, material: ExportMaterial, documents: Releasable[], burned: Burned, refused: readonly RefusedPage[], settings: BurnSettings, keepHidden = false): Promise<void> {
  const work: Promise<void>[] = [];
  for (const { material: document, type } of documents) {
    const pages = new Map(refused.filter((entry) => entry.documentId === document.row.id).map((entry) => [entry.page, entry.reason]));
    const entry = burned.get(document.row.id);
    if (pages.size === 0 || !entry || type !== 'pdf') continue;
    const requests = requestsOf(document, false, settings.labels, material.release.exemptions, new Set()).filter((request) => pages.has(request.page));
    for (const page of pages.keys()) if (!requests.some((request) => request.page === page)) requests.push({ page, boxes: [], words: null });
    const source = { documentId: document.row.id, path: await ctx.runtime.blobs.localPath(document.row.sha256), documentType: type };
    const task: ExportBurnTask = { kind: 'export-burn', exportId: material.row.id, source, settings, workPrefix: ctx.workPrefix, pages: requests, allPages: false, render: [...pages].map(([page, reason]) => ({ page, reason })), ...(keepHidden && { keepHidden }) };
    work.push(
      ctx.pool.run(task, { signal: ctx.signal, onProgress: () => undefined }).then((result) => {
        const rendered = new Map(result.pages.map((page) => [page.page, page]));
        entry.pages = entry.pages.map((page) => rendered.get(page.page) ?? page);
        noteThread(entry, result.thread, result.pages);
      }),
    );
  }
  await settleAll(work);
}

