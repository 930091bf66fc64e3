import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BurnedPage, ExportAssembleResult, ExportDocumentType } from '../../common/export-tasks.js';
import type { ExportSummary } from '../../common/schemas/exports.js';
import type { Runtime } from '../../runtime.js';
import type { StagedBlob } from '../../services/blob-store.js';
import type { ExportMaterial, MaterialDocument, SkippedDocument } from '../../services/export-material.js';
import type { FinishedRelease } from '../../services/exports.js';
import type { WorkerPool } from '../pool.js';

// What every step of an export shares: the build context, the documents a PDF release can carry, and small
// helpers for work files. No step imports another's file through here, so the folder has no import circle.

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

/** The burned pages of each document (by id), as the burn tasks returned them. */
export type Burned = Map<number, { pageCount: number; pages: BurnedPage[]; hiddenKept?: number[]; threads?: Map<number, number> }>;

/** The thread that burned a document's page and keeps its source readings (worker/burn-in/kept-sources.ts). */
export function threadOf(burned: Burned, documentId: number, page: number): number | undefined {
  return burned.get(documentId)?.threads?.get(page);
}

/** Records which thread burned a task's pages. */
export function noteThread(entry: { threads?: Map<number, number> }, thread: number | undefined, pages: readonly { page: number }[]): void {
  if (thread === undefined) return;
  entry.threads ??= new Map();
  for (const { page } of pages) entry.threads.set(page, thread);
}

const RELEASABLE: Readonly<Record<string, ExportDocumentType>> = { pdf: 'pdf', png: 'png', jpeg: 'jpeg', tiff: 'tiff' };

/** How a document type is burned into PDF pages; null: it has no released pages. */
export function releasableType(documentType: string): ExportDocumentType | null {
  return RELEASABLE[documentType] ?? null;
}

export interface Releasable {
  material: MaterialDocument;
  type: ExportDocumentType;
}

export function releasable(material: ExportMaterial): { documents: Releasable[]; skipped: SkippedDocument[] } {
  const documents: Releasable[] = [];
  const skipped = [...material.skipped];
  for (const document of material.documents) {
    const type = releasableType(document.row.document_type);
    if (type) documents.push({ material: document, type });
    else skipped.push({ document_id: String(document.row.id), file_name: document.row.file_name, reason: `${document.row.document_type} documents are not part of PDF releases` });
  }
  return { documents, skipped };
}

export function chunk<T>(items: readonly T[], parts: number): T[][] {
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

export function stagedOf(file: string, result: ExportAssembleResult): StagedBlob {
  return { tempPath: file, sha256: result.sha256, size: result.size };
}

/** A name safe in any file system and zip tool: letters, digits, dot, dash, underscore. */
export function safeName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return cleaned.slice(0, 80) || 'document';
}

export function fileBase(material: ExportMaterial): string {
  return `case-${material.row.case_id}-export-${material.row.id}`;
}

/** Hashing streams the file in 64 KiB reads: I/O bound, so it stays on the main thread. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const part of fs.createReadStream(file)) hash.update(part as Buffer);
  return hash.digest('hex');
}

/** Removes every work file of one attempt (the export's, or a preview's). */
export async function removeWorkFiles(workPrefix: string): Promise<void> {
  const dir = path.dirname(workPrefix);
  const prefix = path.basename(workPrefix);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(prefix)).map((name) => fsp.rm(path.join(dir, name), { force: true })));
}
