import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import type {
  AssembleDocument,
  BurnBox,
  BurnedPage,
  BurnPageRequest,
  BurnSettings,
  CoverSheet,
  ExportAssembleResult,
  ExportBurnTask,
  ExportDocumentType,
  ExportVerification,
} from '../common/export-tasks.js';
import { LAYER_INFO, LAYERS } from '../common/redaction-catalog.js';
import type { ExportOptions, ExportSummary } from '../common/schemas/exports.js';
import { PageWord } from '../common/schemas/pages.js';
import type { Runtime } from '../runtime.js';
import type { StagedBlob } from '../services/blob-store.js';
import type { ExportMaterial, MaterialDocument, SkippedDocument } from '../services/export-material.js';
import { caseRecord, countByExemption, redactionLogCsv } from '../services/export-records.js';
import type { Box } from '../services/redactions/model.js';
import type { WorkerPool } from './pool.js';

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
}

const RELEASABLE: Readonly<Record<string, ExportDocumentType>> = { pdf: 'pdf', png: 'png', jpeg: 'jpeg', tiff: 'tiff' };
const PageWords = z.array(PageWord);

function settingsOf(options: ExportOptions): BurnSettings {
  return { dpi: options.dpi, padding: options.padding, labels: options.labels, imageMode: options.image_mode, jpegQuality: options.jpeg_quality, method: options.method };
}

function burnBox(box: Box, labels: boolean): BurnBox {
  return { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2, points: box.points, label: labels ? LAYER_INFO[box.layer].exemption : null };
}

/** The burn requests of one document: pages with applied boxes (images: also pages with stored words). */
function requestsOf(document: MaterialDocument, isImage: boolean, labels: boolean): BurnPageRequest[] {
  const unit = isImage ? 'image_pixels' : 'pdf_points';
  const wordsByPage = new Map(document.pages.filter((page) => page.unit === unit).map((page) => [page.page_number, page.words]));
  const boxesByPage = new Map<number, BurnBox[]>();
  for (const box of document.applied) {
    if ((box.source === 'image') !== isImage) continue;
    boxesByPage.set(box.page, [...(boxesByPage.get(box.page) ?? []), burnBox(box, labels)]);
  }
  const pages = new Set([...boxesByPage.keys(), ...(isImage ? wordsByPage.keys() : [])]);
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
async function settleAll<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

interface Releasable {
  material: MaterialDocument;
  type: ExportDocumentType;
}

function releasable(material: ExportMaterial): { documents: Releasable[]; skipped: SkippedDocument[] } {
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
async function burnAll(ctx: BuildContext, material: ExportMaterial, documents: Releasable[], settings: BurnSettings, from: number, to: number) {
  const labels = settings.labels;
  const tasks: { task: ExportBurnTask; weight: number }[] = [];
  for (const { material: document, type } of documents) {
    const isImage = type !== 'pdf';
    const requests = requestsOf(document, isImage, labels);
    const source = { documentId: document.row.id, path: ctx.runtime.blobs.pathFor(document.row.sha256), documentType: type };
    const base = { kind: 'export-burn' as const, exportId: material.row.id, source, settings, workPrefix: ctx.workPrefix };
    if (isImage) {
      tasks.push({ task: { ...base, pages: requests, allPages: true }, weight: Math.max(1, requests.length) });
      continue;
    }
    // Several tasks per document let the threads share a long document; each task parses the file once.
    const parts = Math.min(Math.ceil(requests.length / 4), ctx.pool.size * 2);
    for (const pages of chunk(requests, parts)) tasks.push({ task: { ...base, pages, allPages: false }, weight: pages.length });
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
    byDocument.set(id, entry);
  });
  return byDocument;
}

function assembleDocument(ctx: BuildContext, { material: document, type }: Releasable, burned: Burned): AssembleDocument {
  const entry = burned.get(document.row.id);
  return { source: { documentId: document.row.id, path: ctx.runtime.blobs.pathFor(document.row.sha256), documentType: type }, pageCount: entry?.pageCount ?? null, burned: entry?.pages ?? [] };
}

async function assembleOne(ctx: BuildContext, material: ExportMaterial, outputPath: string, documents: AssembleDocument[], cover: CoverSheet | null, settings: BurnSettings, onProgress: (fraction: number) => void) {
  return ctx.pool.run(
    { kind: 'export-assemble', exportId: material.row.id, outputPath, cover, documents, settings, workPrefix: ctx.workPrefix },
    { signal: ctx.signal, onProgress: (message) => onProgress(message.progress) },
  );
}

/**
 * Verifies a written file with tasks spread over the pool: the first also checks structure and page count,
 * the burned pages are shared out. Any failure rejects; the file is then never committed.
 */
async function verifyFile(ctx: BuildContext, material: ExportMaterial, path: string, assembled: ExportAssembleResult): Promise<ExportVerification> {
  const groups = assembled.checks.length === 0 ? [[]] : chunk(assembled.checks, Math.min(ctx.pool.size, Math.ceil(assembled.checks.length / 8)));
  const results = await settleAll(
    groups.map((checks, index) =>
      ctx.pool.run(
        { kind: 'export-verify', exportId: material.row.id, path, sha256: assembled.sha256, expectedPages: assembled.pages, checks, structure: index === 0 },
        { signal: ctx.signal, onProgress: () => undefined },
      ),
    ),
  );
  return results.reduce<ExportVerification>(
    (sum, { verification }) => ({ pages: verification.pages, burnedPages: sum.burnedPages + verification.burnedPages, withheldWords: sum.withheldWords + verification.withheldWords }),
    { pages: assembled.pages, burnedPages: 0, withheldWords: 0 },
  );
}

function coverSheetOf(material: ExportMaterial, documents: Releasable[], generatedAt: Date): CoverSheet {
  const counts = countByExemption(documents.map((entry) => entry.material));
  return {
    caseName: material.caseRow.name,
    date: generatedAt.toISOString().slice(0, 10),
    documents: documents.length,
    redactions: documents.reduce((sum, entry) => sum + entry.material.applied.length, 0),
    byExemption: LAYERS.filter((layer) => counts[LAYER_INFO[layer].exemption] !== undefined).map((layer) => ({
      exemption: LAYER_INFO[layer].exemption,
      label: LAYER_INFO[layer].label,
      count: counts[LAYER_INFO[layer].exemption] ?? 0,
    })),
  };
}

type Burned = Map<number, { pageCount: number; pages: BurnedPage[] }>;

/** Rendered PDF pages listed in a summary at most. */
const MAX_RENDERED_LISTED = 1000;

/** How the burned pages were made: counts, and each rendered PDF page with the reason. */
function burnSummary(documents: Releasable[], burned: Burned, settings: BurnSettings): NonNullable<ExportSummary['burn']> {
  const summary: NonNullable<ExportSummary['burn']> = { vector_pages: 0, raster_pages: 0, rendered: [] };
  for (const { material: document, type } of documents) {
    const pages = [...(burned.get(document.row.id)?.pages ?? [])].sort((a, b) => a.page - b.page);
    for (const page of pages) {
      if (page.method === 'vector') {
        summary.vector_pages += 1;
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

function summaryOf(
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
    verification: verification ? { files, pages: verification.pages, burned_pages: verification.burnedPages, withheld_words: verification.withheldWords } : null,
    burn,
  };
}

function stagedOf(path: string, result: ExportAssembleResult): StagedBlob {
  return { tempPath: path, sha256: result.sha256, size: result.size };
}

function stageText(ctx: BuildContext, text: string): Promise<StagedBlob> {
  return ctx.runtime.blobs.stage(Readable.from([Buffer.from(text, 'utf8')]), Number.MAX_SAFE_INTEGER);
}

/** A name safe in any file system and zip tool: letters, digits, dot, dash, underscore. */
function safeName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return cleaned.slice(0, 80) || 'document';
}

function fileBase(material: ExportMaterial): string {
  return `case-${material.row.case_id}-export-${material.row.id}`;
}

async function buildPdf(ctx: BuildContext, material: ExportMaterial, options: ExportOptions): Promise<BuiltExport> {
  const settings = settingsOf(options);
  const { documents, skipped } = releasable(material);
  const burned = await burnAll(ctx, material, documents, settings, 0.02, 0.75);
  const outputPath = `${ctx.workPrefix}-release.pdf`;
  const cover = options.cover_sheet ? coverSheetOf(material, documents, ctx.runtime.clock.now()) : null;
  const assembled = await assembleOne(ctx, material, outputPath, documents.map((entry) => assembleDocument(ctx, entry, burned)), cover, settings, (fraction) => ctx.progress(0.75 + fraction * 0.15));
  const verification = await verifyFile(ctx, material, outputPath, assembled);
  ctx.progress(0.98);
  return {
    staged: stagedOf(outputPath, assembled),
    mediaType: 'application/pdf',
    fileName: `${fileBase(material)}.pdf`,
    summary: summaryOf(documents.map((entry) => entry.material), skipped, assembled.pages, verification, 1, burnSummary(documents, burned, settings)),
  };
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function buildZip(ctx: BuildContext, material: ExportMaterial, options: ExportOptions): Promise<BuiltExport> {
  const settings = settingsOf(options);
  const { documents, skipped } = releasable(material);
  const burned = await burnAll(ctx, material, documents, settings, 0.02, 0.7);
  const share = new Array<number>(documents.length).fill(0);
  const assembled = await settleAll(
    documents.map((entry, index) =>
      assembleOne(ctx, material, `${ctx.workPrefix}-doc-${entry.material.row.id}.pdf`, [assembleDocument(ctx, entry, burned)], null, settings, (fraction) => {
        share[index] = fraction;
        ctx.progress(0.7 + (0.15 * share.reduce((sum, value) => sum + value, 0)) / Math.max(1, documents.length));
      }),
    ),
  );
  const verifications = await settleAll(documents.map((entry, index) => verifyFile(ctx, material, `${ctx.workPrefix}-doc-${entry.material.row.id}.pdf`, assembled[index] as ExportAssembleResult)));
  // The PDFs were hashed by the worker as written; check that the files to be zipped are those bytes.
  for (const [index, entry] of documents.entries()) {
    const expected = (assembled[index] as ExportAssembleResult).sha256;
    if ((await sha256OfFile(`${ctx.workPrefix}-doc-${entry.material.row.id}.pdf`)) !== expected) throw new Error(`the redacted file of document ${entry.material.row.id} changed on disk`);
  }
  const generatedAt = ctx.runtime.clock.now();
  const files: { path: string; size: number; sha256: string; media_type: string; document_id: string | null }[] = [];
  const zip = new ZipFile();
  const mtime = new Date(material.row.created_at);
  documents.forEach((entry, index) => {
    const result = assembled[index] as ExportAssembleResult;
    const base = safeName(entry.material.row.file_name.replace(/\.[A-Za-z0-9]{1,5}$/, ''));
    const name = `documents/${String(index + 1).padStart(3, '0')}-${base}.pdf`;
    zip.addFile(`${ctx.workPrefix}-doc-${entry.material.row.id}.pdf`, name, { compress: false, mtime });
    files.push({ path: name, size: result.size, sha256: result.sha256, media_type: 'application/pdf', document_id: String(entry.material.row.id) });
  });
  const text = (name: string, content: string, mediaType: string) => {
    const bytes = Buffer.from(content, 'utf8');
    zip.addBuffer(bytes, name, { compress: true, mtime });
    files.push({ path: name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), media_type: mediaType, document_id: null });
  };
  text('redaction-log.csv', redactionLogCsv(material), 'text/csv; charset=utf-8');
  text('case.json', `${JSON.stringify(caseRecord(material, generatedAt.toISOString()), null, 2)}\n`, 'application/json');
  const manifest = { schema_version: 1, export_id: String(material.row.id), case_id: String(material.row.case_id), generated_at: generatedAt.toISOString(), files };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 'manifest.json', { compress: true, mtime });
  zip.end();
  const staged = await ctx.runtime.blobs.stage(zip.outputStream as Readable, Number.MAX_SAFE_INTEGER);
  ctx.progress(0.98);
  const pages = assembled.reduce((sum, result) => sum + result.pages, 0);
  const verification = verifications.reduce<ExportVerification>(
    (sum, result) => ({ pages: sum.pages + result.pages, burnedPages: sum.burnedPages + result.burnedPages, withheldWords: sum.withheldWords + result.withheldWords }),
    { pages: 0, burnedPages: 0, withheldWords: 0 },
  );
  return {
    staged,
    mediaType: 'application/zip',
    fileName: `${fileBase(material)}.zip`,
    summary: summaryOf(documents.map((entry) => entry.material), skipped, pages, verification, documents.length, burnSummary(documents, burned, settings)),
  };
}

/** Builds the export's file in the blob temp dir (not yet committed). */
export async function buildExport(ctx: BuildContext, material: ExportMaterial): Promise<BuiltExport> {
  const format = material.row.format;
  if (format === 'pdf' || format === 'zip') {
    if (!material.options) throw new Error('burn-in options are missing');
    return format === 'pdf' ? buildPdf(ctx, material, material.options) : buildZip(ctx, material, material.options);
  }
  const summary = summaryOf(material.documents, material.skipped, 0, null, 0);
  if (format === 'csv') {
    return { staged: await stageText(ctx, redactionLogCsv(material)), mediaType: 'text/csv; charset=utf-8', fileName: `${fileBase(material)}-redaction-log.csv`, summary };
  }
  const record = caseRecord(material, ctx.runtime.clock.now().toISOString());
  return { staged: await stageText(ctx, `${JSON.stringify(record, null, 2)}\n`), mediaType: 'application/json', fileName: `${fileBase(material)}-case.json`, summary };
}
