import fs from 'node:fs';
import type { BurnSettings, ExportAssembleResult, ExportVerification, PageCheck, RefusedPage } from '../../common/export-tasks.js';
import { foldText } from '../../common/fold-text.js';
import type { ExportMaterial } from '../../services/export-material.js';
import { renderRefused } from './burn.js';
import { chunk, settleAll, threadOf, type BuildContext, type Burned, type Releasable } from './context.js';

// Verification step (main thread: shares out the checks and sums them; pool: `export-verify` page checks, then
// `export-search` over the whole file or zip). A file that fails is never committed.

/**
 * Verifies a written file with tasks spread over the pool: each checks the page count and its share of the burned
 * pages; the file's search (its own task, or the only check task's) checks its structure on the same parse. Any
 * failure rejects; the file is then never committed.
 */
export async function verifyFile(ctx: BuildContext, material: ExportMaterial, path: string, assembled: ExportAssembleResult, keepHidden = false, burned?: Burned): Promise<CheckedFile> {
  const parts = Math.min(ctx.pool.size, Math.ceil(assembled.checks.length / 8));
  const groups = assembled.checks.length === 0 ? [{ checks: [] }] : byThread(assembled.checks, parts, (check) => (burned && check.certify ? threadOf(burned, check.certify.documentId, check.certify.page) : undefined));
  // A file checked by one task is searched by it too, on the reading it holds; else by a task of its own after all.
  const single = groups.length === 1;
  const results = await settleAll(
    groups.map(({ checks, thread }) =>
      ctx.pool.run(
        { kind: 'export-verify', exportId: material.row.id, path, sha256: assembled.sha256, expectedPages: assembled.pages, checks, structure: single, ...(single && { search: true }), ...(keepHidden && { keepHidden }) },
        { signal: ctx.signal, onProgress: () => undefined, ...(thread !== undefined && { thread }) },
      ),
    ),
  );
  const refused = results.flatMap((result) => result.refused ?? []);
  // Then the whole file, object by object, for every withheld text of its pages (worker/release-check/); a file
  // with refused pages is made again (renderRefused), and the new one searched.
  const withheld = [...new Set(results.flatMap((result) => result.withheld ?? []))];
  const pageText = Object.assign({}, ...results.map((result) => result.pageText ?? {})) as Record<number, string>;
  const searchedWith = single ? results[0]?.shown : undefined;
  const searched =
    refused.length > 0
      ? { shown: {} }
      : searchedWith
        ? { shown: searchedWith }
        : await ctx.pool.run({ kind: 'export-search', exportId: material.row.id, path, format: 'pdf', withheld, sha256: assembled.sha256, pageText, structure: true }, { signal: ctx.signal, onProgress: () => undefined });
  const verification = results.reduce<ExportVerification>(
    (sum, { verification }) => ({
      pages: verification.pages,
      burnedPages: sum.burnedPages + verification.burnedPages,
      withheldWords: sum.withheldWords + verification.withheldWords,
      certificates: [...(sum.certificates ?? []), ...(verification.certificates ?? [])].sort((a, b) => a.output_page - b.output_page),
    }),
    { pages: assembled.pages, burnedPages: 0, withheldWords: 0, certificates: [] },
  );
  return Object.assign(verification, { shown: searched.shown, refused });
}

/**
 * The checks shared out into `parts` tasks of sizes differing by one at most, each page with the thread that
 * burned it where the sizes allow (that thread keeps the source's readings: worker/burn-in/kept-sources.ts).
 * Without threads known, consecutive runs of pages as before.
 */
export function byThread(checks: readonly PageCheck[], parts: number, threadOfCheck: (check: PageCheck) => number | undefined): { checks: PageCheck[]; thread?: number }[] {
  const count = Math.max(1, Math.min(parts, checks.length));
  const sizes = Array.from({ length: count }, (_, index) => Math.floor(checks.length / count) + (index < checks.length % count ? 1 : 0));
  const threads = new Map<number, PageCheck[]>();
  const loose: PageCheck[] = [];
  for (const check of checks) {
    const thread = threadOfCheck(check);
    const list = thread === undefined ? loose : threads.get(thread);
    if (list) list.push(check);
    else threads.set(thread as number, [check]);
  }
  if (threads.size === 0) return chunk(checks, count).map((list) => ({ checks: list }));
  // The threads with most pages take a task each, the largest share first; what does not fit goes where room is.
  const ranked = [...threads].sort((a, b) => b[1].length - a[1].length);
  const groups = sizes.map((size, index): { checks: PageCheck[]; thread?: number } => {
    const [thread, list] = ranked[index] ?? [undefined, []];
    loose.push(...list.slice(size));
    return { checks: list.slice(0, size), ...(thread !== undefined && { thread }) };
  });
  for (const [, list] of ranked.slice(count)) loose.push(...list);
  let next = 0;
  for (const [index, group] of groups.entries()) {
    while (group.checks.length < (sizes[index] ?? 0) && next < loose.length) group.checks.push(loose[next++] as PageCheck);
    group.checks.sort((a, b) => a.outputPage - b.outputPage);
  }
  return groups.filter((group) => group.checks.length > 0);
}

/**
 * A verified file: its verification, each withheld text (folded) with its count in the file's page text, and the
 * rewritten pages its two-way check refused (the file must then be made again: renderRefused).
 */
export type CheckedFile = ExportVerification & { shown: Record<string, number>; refused: RefusedPage[] };

/**
 * Makes files with `make` and verifies each; when the check refuses rewritten pages, renders them and makes and
 * verifies the files once more. The files returned are those verified.
 */
export async function madeAndVerified<T extends { path: string; assembled: ExportAssembleResult }>(
  ctx: BuildContext,
  material: ExportMaterial,
  documents: Releasable[],
  burned: Burned,
  settings: BurnSettings,
  make: () => Promise<T[]>,
  keepHidden = false,
): Promise<{ outputs: T[]; verifications: CheckedFile[] }> {
  let outputs = await make();
  let verifications = await settleAll(outputs.map((output) => verifyFile(ctx, material, output.path, output.assembled, keepHidden, burned)));
  const refused = verifications.flatMap((verification) => verification.refused);
  if (refused.length === 0) return { outputs, verifications };
  await renderRefused(ctx, material, documents, burned, refused, settings, keepHidden);
  // Assembly writes a new file only (never over one): the refused files go first.
  for (const output of outputs) await fs.promises.rm(output.path, { force: true });
  outputs = await make();
  verifications = await settleAll(outputs.map((output) => verifyFile(ctx, material, output.path, output.assembled, keepHidden, burned)));
  if (verifications.some((verification) => verification.refused.length > 0)) throw new Error('verification refused pages that were rendered');
  return { outputs, verifications };
}

/**
 * Searches a release zip for every withheld text of its PDFs, each allowed as often as those PDFs show it.
 * A leak rejects: the zip is then never committed.
 */
export async function searchPackage(ctx: BuildContext, material: ExportMaterial, path: string, files: readonly CheckedFile[], wording = '', released: readonly string[] = []): Promise<void> {
  // What the released PDFs show is counted by the search itself (every withheld text in every one of them).
  const allowance: Record<string, number> = {};
  for (const file of files) for (const text of Object.keys(file.shown)) allowance[text] = 0;
  // Each of the package's own files may repeat the package's own wording too (release-zip.ts packageWording).
  const folded = foldText(wording);
  for (const text of Object.keys(allowance)) allowance[text] = (allowance[text] ?? 0) + (folded.split(text).length - 1);
  await ctx.pool.run({ kind: 'export-search', exportId: material.row.id, path, format: 'zip', withheld: Object.keys(allowance), allowance, released: [...released] }, { signal: ctx.signal, onProgress: () => undefined });
}
