import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fsyncDirectory } from './durable-files.js';

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes were sent`);
  }
}

export interface StagedBlob {
  tempPath: string;
  sha256: string;
  size: number;
}

/**
 * Where blobs live, by content address. The local directory (`LocalBlobStore`) is the default; an
 * S3-compatible bucket (`main/services/s3-blob-store.ts`) is the shared option for processes on several
 * machines. Every implementation stages uploads in a local temp directory first (hashing as they arrive) and
 * hands readers a local file: workers and parsers get a path to bytes, never a place inside the store.
 */
export interface BlobStore {
  /** This process's scratch directory (staged uploads, export work files); swept at a lone start. */
  readonly tempDir: string;
  /**
   * The local file holding the blob: the stored file itself, or (remote stores) a verified copy. Valid after
   * `localPath` resolved for that blob in this process (the local store needs no call).
   */
  pathFor(sha256: string): string;
  /** Makes the blob's bytes available as a local file and returns its path. */
  localPath(sha256: string): Promise<string>;
  stage(source: Readable, maxBytes: number): Promise<StagedBlob>;
  /** Stores a staged file under its address; identical content already stored is kept as is. */
  commit(staged: StagedBlob): Promise<unknown>;
  discard(staged: StagedBlob): Promise<void>;
  sweep(referenced: ReadonlySet<string>): Promise<{ tempRemoved: number; orphansRemoved: number }>;
}

export function checkSha256(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256 hex digest: ${sha256}`);
  return sha256;
}

/** Streams into a temp file of `tempDir`, hashing on the way; stops with BlobTooLargeError past maxBytes. */
export async function stageInto(tempDir: string, source: Readable, maxBytes: number): Promise<StagedBlob> {
  const tempPath = path.join(tempDir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  const handle = await fsp.open(tempPath, 'wx', 0o600);
  let size = 0;
  try {
    for await (const chunk of source) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
      hash.update(buffer);
      await handle.write(buffer);
    }
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fsp.rm(tempPath, { force: true });
    throw error;
  }
  return { tempPath, sha256: hash.digest('hex'), size };
}

/**
 * Content-addressed file store in the data directory: `sha256/ab/abcdef…`. Bytes are written to a temp file,
 * fsynced, then renamed into place (and the directory fsynced), so a blob path either holds the whole content
 * or nothing — also for several processes sharing the directory. Database rows are written only after the
 * blob is durable; files without rows are swept at a lone start.
 */
export class LocalBlobStore implements BlobStore {
  readonly tempDir: string;
  readonly blobDir: string;

  constructor(readonly root: string) {
    this.tempDir = path.join(root, 'tmp');
    this.blobDir = path.join(root, 'sha256');
    // Owner-only (docs/security.md); secureDataDir tightens what an earlier version left.
    fs.mkdirSync(this.tempDir, { recursive: true, mode: 0o700 });
    fs.mkdirSync(this.blobDir, { recursive: true, mode: 0o700 });
  }

  localPath(sha256: string): Promise<string> {
    return Promise.resolve(this.pathFor(sha256));
  }

  pathFor(sha256: string): string {
    checkSha256(sha256);
    return path.join(this.blobDir, sha256.slice(0, 2), sha256);
  }

  stage(source: Readable, maxBytes: number): Promise<StagedBlob> {
    return stageInto(this.tempDir, source, maxBytes);
  }

  /** Moves a staged file to its content address; identical content already stored is kept as is. */
  /** Returns the stored file's path. */
  async commit(staged: StagedBlob): Promise<string> {
    const target = this.pathFor(staged.sha256);
    const dir = path.dirname(target);
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    if (fs.existsSync(target)) {
      await fsp.rm(staged.tempPath, { force: true });
      return target;
    }
    await fsp.rename(staged.tempPath, target);
    await fsyncDirectory(dir);
    return target;
  }

  async discard(staged: StagedBlob): Promise<void> {
    await fsp.rm(staged.tempPath, { force: true });
  }

  /** Start-up cleanup: partial uploads of a dead process, and blobs that no row ever came to reference. */
  async sweep(referenced: ReadonlySet<string>): Promise<{ tempRemoved: number; orphansRemoved: number }> {
    let tempRemoved = 0;
    for (const name of await fsp.readdir(this.tempDir)) {
      await fsp.rm(path.join(this.tempDir, name), { force: true });
      tempRemoved += 1;
    }
    let orphansRemoved = 0;
    for (const prefix of await fsp.readdir(this.blobDir)) {
      const dir = path.join(this.blobDir, prefix);
      for (const name of await fsp.readdir(dir)) {
        if (!referenced.has(name)) {
          await fsp.rm(path.join(dir, name), { force: true });
          orphansRemoved += 1;
        }
      }
    }
    return { tempRemoved, orphansRemoved };
  }
}
