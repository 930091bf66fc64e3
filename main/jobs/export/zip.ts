import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ZipFile } from 'yazl';
import type { ExportAssembleResult } from '../../common/export-tasks.js';
import type { StagedBlob } from '../../services/blob-store.js';
import type { BuildContext } from './context.js';

// Writing a zip package (release or internal): yazl streams it straight into the blob store from the main
// thread (I/O, and deflate runs in libuv's thread pool), so no whole archive is held in memory.

export interface ZipEntry {
  path: string;
  size: number;
  sha256: string;
  media_type: string;
}

export function addBuffer(zip: ZipFile, files: ZipEntry[], name: string, bytes: Uint8Array, mediaType: string, mtime: Date, compress = true): void {
  zip.addBuffer(Buffer.from(bytes), name, { compress, mtime });
  files.push({ path: name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), media_type: mediaType });
}

/** An assembled and verified PDF, stored as it is (its hash was checked against the assembled one). */
export function addPdf(zip: ZipFile, files: ZipEntry[], output: { path: string; name: string; assembled: ExportAssembleResult }, mtime: Date): void {
  zip.addFile(output.path, output.name, { compress: false, mtime });
  files.push({ path: output.name, size: output.assembled.size, sha256: output.assembled.sha256, media_type: 'application/pdf' });
}

/** Adds the manifest last, ends the zip and stages it in the blob store (not yet committed). */
export function stageZip(ctx: BuildContext, zip: ZipFile, manifest: unknown, mtime: Date): Promise<StagedBlob> {
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 'manifest.json', { compress: true, mtime });
  zip.end();
  return ctx.runtime.blobs.stage(zip.outputStream as Readable, Number.MAX_SAFE_INTEGER);
}
