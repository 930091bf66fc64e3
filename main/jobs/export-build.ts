import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type {
  AssembleDocument,
  BurnBox,
  BurnedPage,
  BurnPageRequest,
  BurnSettings,
  CoverSheet,
  StampPlan,
  ExportAssembleResult,
  ExportBurnTask,
  ExportDocumentType,
  ExportVerification,
  RefusedPage,
} from '../common/export-tasks.js';
import { LAYER_INFO, LAYERS } from '../common/redaction-catalog.js';
import type { ExportOptions, ExportSummary } from '../common/schemas/exports.js';
import { MAX_CERTIFICATES_LISTED } from '../common/schemas/page-certificates.js';
import { PageWord } from '../common/schemas/pages.js';
import type { Runtime } from '../runtime.js';
import type { StagedBlob } from '../services/blob-store.js';
import type { ExportMaterial, MaterialDocument, SkippedDocument } from '../services/export-material.js';
import { caseRecord, countByExemption, redactionLogCsv } from '../services/export-records.js';
import type { Box } from '../services/redactions/model.js';
import type { FinishedRelease } from '../services/exports.js';
import { exemptionOf } from '../services/releases/material.js';
import { buildInternalZip, buildReleaseZip, internalReleaseRecord, releasePlan, type ReleasePlan } from './export-release.js';
import type { WorkerPool } from './pool.js';
import { foldText } from '../common/fold-text.js';

// How each format is made from the material: burn tasks spread over the pool, then assembly and verification
// in the worker, and the text files here. The result is a staged blob: the runner commits it.

export interface BuildContext {
  runtime: Runtime;
  pool: WorkerPool;
  signal: AbortSignal;
  /** Prefix (a path in the blob temp dir) of every work file of this attempt; the runner removes them after. */
  workPrefix: string;
  progress(fraction: number): void;
}

export interface BuiltExport {
  staged: StagedBlob;
  mediaType: string;
  fileName: string;
  summary: ExportSummary;
  /** Releases: the number and pages to store when the export completes. */
  release?: FinishedRelease;
}

const RELEASABLE: Readonly<Record<string, ExportDocumentType>> = { pdf: 'pdf', png: 'png', jpeg: 'jpeg', tiff: 'tiff' };
const PageWords = z.array(PageWord);

export function settingsOf(options: ExportOptions): BurnSettings {
  return { dpi: options.dpi, padding: options.padding, labels: options.labels, imageMode: options.image_mode, jpegQuality: options.jpeg_quality, method: options.method };
}

/** The label is the box's own exemption code (an organization code, sub-codes included), else its layer's. */
function burnBox(box: Box, labels: boolean, material: ExportMaterial): BurnBox {
  return { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2, points: box.points, label: labels ? exemptionOf(box, material.release.exemptions) : null, id: box.redactionId };
}

/** The burn requests of one document: pages with applied boxes (images: also pages with stored words). */
function requestsOf(document: MaterialDocument, isImage: boolean, labels: boolean, material: ExportMaterial, skip: ReadonlySet<number>): BurnPageRequest[] {
  const unit = isImage ? 'image_pixels' : 'pdf_points';
  const wordsByPage = new Map(document.pages.filter((page) => page.unit === unit).map((page) => [page.page_number, page.words]));
  const boxesByPage = new Map<number, BurnBox[]>();
  for (const box of document.applied) {
    if ((box.source === 'image') !== isImage) continue;
    boxesByPage.set(box.page, [...(boxesByPage.get(box.page) ?? []), burnBox(box, labels, material)]);
  }
  const pages = new Set([...boxesByPage.keys(), ...(isImage ? wordsByPage.keys() : [])].filter((page) => !skip.has(page)));
  return [...pages]
    .sort((a, b) => a - b)
    .map((page) => {
      const words = wordsByPage.get(page);
      return { page, boxes: boxesByPage.get(page) ?? [], words: words === undefined ? null : PageWords.parse(JSON.parse(words)) };
    });
}

function chunk<T>(items: readonly T[], parts: number): T[][] {
  const size = Math.ceil(items.length / Math.max(1, parts));
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Runs tasks concurrently; waits for all to settle (no worker still writes files) and rethrows the first error. */
export async function settleAll<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

export interface Releasable {
  material: MaterialDocument;
  type: ExportDocumentType;
}

export function releasable(material: ExportMaterial): { documents: Releasable[]; skipped: SkippedDocument[] } {
  const documents: Releasable[] = [];
  const skipped = [...material.skipped];
  for (const document of material.documents) {
    const type = RELEASABLE[document.row.document_type];
    if (type) documents.push({ material: document, type });
    else skipped.push({ document_id: String(document.row.id), file_name: document.row.file_name, reason: `${document.row.document_type} documents are not part of PDF releases` });
  }
  return { documents, skipped };
}

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
) {
  const labels = settings.labels;
  const tasks: { task: ExportBurnTask; weight: number }[] = [];
  for (const { material: document, type } of documents) {
    const isImage = type !== 'pdf';
    const skip = plan?.skipPages.get(document.row.id) ?? new Set<number>();
    if (plan?.wholeDocuments.has(document.row.id) && !isImage) continue;
    const requests = requestsOf(document, isImage, labels, material, skip);
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
    if (result.hiddenKept) entry.hiddenKept = [...(entry.hiddenKept ?? []), ...result.hiddenKept];
    byDocument.set(id, entry);
  });
  return byDocument;
}

export function assembleDocument(ctx: BuildContext, { material: document, type }: Releasable, burned: Burned, plan: ReleasePlan | null = null): AssembleDocument {
  const entry = burned.get(document.row.id);
  const withheld = plan?.ranges.get(document.row.id);
  return {
    source: { documentId: document.row.id, path: ctx.runtime.blobs.pathFor(document.row.sha256), documentType: type },
    pageCount: entry?.pageCount ?? null,
    burned: entry?.pages ?? [],
    ...(withheld && { withheld: { ranges: withheld, perRange: plan?.perRange ?? false } }),
  };
}

export async function assembleOne(
  ctx: BuildContext,
  material: ExportMaterial,
  outputPath: string,
  documents: AssembleDocument[],
  cover: CoverSheet | null,
  settings: BurnSettings,
  onProgress: (fraction: number) => void,
  stamps: StampPlan | null = null,
) {
  return ctx.pool.run(
    { kind: 'export-assemble', exportId: material.row.id, outputPath, cover, documents, settings, workPrefix: ctx.workPrefix, stamps },
    { signal: ctx.signal, onProgress: (message) => onProgress(message.progress) },
  );
}

/**
 * Verifies a written file with tasks spread over the pool: the first also checks structure and page count,
 * the burned pages are shared out. Any failure rejects; the file is then never committed.
 */
export async function verifyFile(ctx: BuildContext, material: ExportMaterial, path: string, assembled: ExportAssembleResult, keepHidden = false): Promise<CheckedFile> {
  const groups = assembled.checks.length === 0 ? [[]] : chunk(assembled.checks, Math.min(ctx.pool.size, Math.ceil(assembled.checks.length / 8)));
  const results = await settleAll(
    groups.map((checks, index) =>
      ctx.pool.run(
        { kind: 'export-verify', exportId: material.row.id, path, sha256: assembled.sha256, expectedPages: assembled.pages, checks, structure: index === 0, ...(keepHidden && { keepHidden }) },
        { signal: ctx.signal, onProgress: () => undefined },
      ),
    ),
  );
  const refused = results.flatMap((result) => result.refused ?? []);
  // Then the whole file, object by object, for every withheld text of its pages (worker/release-check/); a file
  // with refused pages is made again (renderRefused), and the new one searched.
  const withheld = [...new Set(results.flatMap((result) => result.withheld ?? []))];
  const searched = refused.length > 0 ? { shown: {} } : await ctx.pool.run({ kind: 'export-search', exportId: material.row.id, path, format: 'pdf', withheld }, { signal: ctx.signal, onProgress: () => undefined });
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
 * A verified file: its verification, each withheld text (folded) with its count in the file's page text, and the
 * rewritten pages its two-way check refused (the file must then be made again: renderRefused).
 */
export type CheckedFile = ExportVerification & { shown: Record<string, number>; refused: RefusedPage[] };

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
    const requests = requestsOf(document, false, settings.labels, material, new Set()).filter((request) => pages.has(request.page));
    for (const page of pages.keys()) if (!requests.some((request) => request.page === page)) requests.push({ page, boxes: [], words: null });
    const source = { documentId: document.row.id, path: await ctx.runtime.blobs.localPath(document.row.sha256), documentType: type };
    const task: ExportBurnTask = { kind: 'export-burn', exportId: material.row.id, source, settings, workPrefix: ctx.workPrefix, pages: requests, allPages: false, render: [...pages].map(([page, reason]) => ({ page, reason })), ...(keepHidden && { keepHidden }) };
    work.push(
      ctx.pool.run(task, { signal: ctx.signal, onProgress: () => undefined }).then((result) => {
        const rendered = new Map(result.pages.map((page) => [page.page, page]));
        entry.pages = entry.pages.map((page) => rendered.get(page.page) ?? page);
      }),
    );
  }
  await settleAll(work);
}

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
  let verifications = await settleAll(outputs.map((output) => verifyFile(ctx, material, output.path, output.assembled, keepHidden)));
  const refused = verifications.flatMap((verification) => verification.refused);
  if (refused.length === 0) return { outputs, verifications };
  await renderRefused(ctx, material, documents, burned, refused, settings, keepHidden);
  // Assembly writes a new file only (never over one): the refused files go first.
  for (const output of outputs) await fs.promises.rm(output.path, { force: true });
  outputs = await make();
  verifications = await settleAll(outputs.map((output) => verifyFile(ctx, material, output.path, output.assembled, keepHidden)));
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
  // Each of the package's own files may repeat the package's own wording too (export-release.ts packageWording).
  const folded = foldText(wording);
  for (const text of Object.keys(allowance)) allowance[text] = (allowance[text] ?? 0) + (folded.split(text).length - 1);
  await ctx.pool.run({ kind: 'export-search', exportId: material.row.id, path, format: 'zip', withheld: Object.keys(allowance), allowance, released: [...released] }, { signal: ctx.signal, onProgress: () => undefined });
}

/** The release PDF's first page: the requester-facing title, never the internal case name. */
function coverSheetOf(material: ExportMaterial, plan: ReleasePlan, generatedAt: Date): CoverSheet {
  const { requestNumber, requesterTitle, exemptions } = material.release;
  // Counted by each box's own code (as its label), in layer order then code; boxes on withheld pages are not.
  const counts = new Map<string, { layer: number; count: number }>();
  for (const box of plan.documents.flatMap((document) => document.applied)) {
    const code = exemptionOf(box, exemptions);
    const entry = counts.get(code) ?? { layer: LAYERS.indexOf(box.layer), count: 0 };
    entry.count += 1;
    counts.set(code, entry);
  }
  const label = (code: string) => exemptions.find((entry) => entry.code === code)?.name ?? LAYERS.map((layer) => LAYER_INFO[layer]).find((info) => info.exemption === code)?.label ?? '';
  return {
    caseName: [requestNumber && `Request ${requestNumber}`, requesterTitle ?? 'Records responsive to your request'].filter(Boolean).join(': '),
    date: generatedAt.toISOString().slice(0, 10),
    documents: plan.documents.length,
    redactions: plan.documents.reduce((sum, document) => sum + document.applied.length, 0),
    byExemption: [...counts.entries()]
      .sort(([a, left], [b, right]) => left.layer - right.layer || a.localeCompare(b))
      .map(([code, entry]) => ({ exemption: code, label: label(code), count: entry.count })),
  };
}

export type Burned = Map<number, { pageCount: number; pages: BurnedPage[]; hiddenKept?: number[] }>;

/** Rendered PDF pages listed in a summary at most. */
const MAX_RENDERED_LISTED = 1000;

/** How the burned pages were made: counts, and each rendered PDF page with the reason. */
export function burnSummary(documents: Releasable[], burned: Burned, settings: BurnSettings, linksDropped = 0): NonNullable<ExportSummary['burn']> {
  const summary: NonNullable<ExportSummary['burn']> = { vector_pages: 0, raster_pages: 0, rendered: [], grown: [], links_dropped: linksDropped };
  const grown = summary.grown as NonNullable<typeof summary.grown>;
  for (const { material: document, type } of documents) {
    const pages = [...(burned.get(document.row.id)?.pages ?? [])].sort((a, b) => a.page - b.page);
    for (const page of pages) {
      if (page.method === 'vector') {
        summary.vector_pages += 1;
        // Black drawn beyond a box covers whole glyphs it cut: reported so the reviewer sees the difference.
        for (const drawn of page.drawn) {
          if (drawn.growth > 0 && drawn.redactionId && grown.length < MAX_RENDERED_LISTED) grown.push({ document_id: String(document.row.id), page: page.page, redaction_id: drawn.redactionId, growth_pt: drawn.growth });
        }
        continue;
      }
      summary.raster_pages += 1;
      if (type === 'pdf' && summary.rendered.length < MAX_RENDERED_LISTED) {
        summary.rendered.push({ document_id: String(document.row.id), page: page.page, reason: page.fallback ?? (settings.method === 'raster' ? 'options.method is raster' : 'not tried') });
      }
    }
  }
  return summary;
}

export function summaryOf(
  documents: MaterialDocument[],
  skipped: SkippedDocument[],
  pages: number,
  verification: ExportVerification | null,
  files: number,
  burn: ExportSummary['burn'] = null,
): ExportSummary {
  return {
    documents: documents.length,
    pages,
    redactions: documents.reduce((sum, document) => sum + document.applied.length, 0),
    by_exemption: countByExemption(documents),
    skipped_documents: skipped,
    verification: verification
      ? { files, pages: verification.pages, burned_pages: verification.burnedPages, withheld_words: verification.withheldWords, page_certificates: (verification.certificates ?? []).slice(0, MAX_CERTIFICATES_LISTED) }
      : null,
    burn,
  };
}

export function stagedOf(path: string, result: ExportAssembleResult): StagedBlob {
  return { tempPath: path, sha256: result.sha256, size: result.size };
}

function stageText(ctx: BuildContext, text: string): Promise<StagedBlob> {
  return ctx.runtime.blobs.stage(Readable.from([Buffer.from(text, 'utf8')]), Number.MAX_SAFE_INTEGER);
}

/** A name safe in any file system and zip tool: letters, digits, dot, dash, underscore. */
export function safeName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return cleaned.slice(0, 80) || 'document';
}

export function fileBase(material: ExportMaterial): string {
  return `case-${material.row.case_id}-export-${material.row.id}`;
}

async function buildPdf(ctx: BuildContext, material: ExportMaterial, options: ExportOptions): Promise<BuiltExport> {
  const settings = settingsOf(options);
  const { documents, skipped } = releasable(material);
  const plan = releasePlan(material, documents, options);
  const burned = await burnAll(ctx, material, documents, settings, 0.02, 0.75, plan);
  const outputPath = `${ctx.workPrefix}-release.pdf`;
  const cover = options.cover_sheet ? coverSheetOf(material, plan, ctx.runtime.clock.now()) : null;
  const make = async () => [
    {
      path: outputPath,
      assembled: await assembleOne(
        ctx,
        material,
        outputPath,
        documents.map((entry) => assembleDocument(ctx, entry, burned, plan)),
        cover,
        settings,
        (fraction) => ctx.progress(0.75 + fraction * 0.15),
        plan.stamps,
      ),
    },
  ];
  const { outputs, verifications } = await madeAndVerified(ctx, material, documents, burned, settings, make);
  const assembled = (outputs[0] as { assembled: ExportAssembleResult }).assembled;
  const verification = verifications[0] as CheckedFile;
  ctx.progress(0.98);
  const summary = summaryOf(documents.map((entry) => entry.material), skipped, assembled.pages, verification, 1, burnSummary(documents, burned, settings, assembled.linksDropped ?? 0));
  const finished = plan.finish(assembled.layout ?? [], summary);
  return { staged: stagedOf(outputPath, assembled), mediaType: 'application/pdf', fileName: `${fileBase(material)}.pdf`, summary: finished.summary, release: finished.release };
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Builds the export's file in the blob temp dir (not yet committed). */
export async function buildExport(ctx: BuildContext, material: ExportMaterial): Promise<BuiltExport> {
  const format = material.row.format;
  if (format === 'pdf' || format === 'zip') {
    if (!material.options) throw new Error('burn-in options are missing');
    if (format === 'pdf') return buildPdf(ctx, material, material.options);
    return material.options.audience === 'internal' ? buildInternalZip(ctx, material) : buildReleaseZip(ctx, material, material.options);
  }
  const summary = summaryOf(material.documents, material.skipped, 0, null, 0);
  if (format === 'csv') {
    return { staged: await stageText(ctx, redactionLogCsv(material)), mediaType: 'text/csv; charset=utf-8', fileName: `${fileBase(material)}-redaction-log.csv`, summary };
  }
  const record = { ...caseRecord(material, ctx.runtime.clock.now().toISOString()), ...internalReleaseRecord(material) };
  return { staged: await stageText(ctx, `${JSON.stringify(record, null, 2)}\n`), mediaType: 'application/json', fileName: `${fileBase(material)}-case.json`, summary };
}
