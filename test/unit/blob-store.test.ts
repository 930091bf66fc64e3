import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError, LocalBlobStore } from '../../main/services/blob-store.js';
import { tempDir } from '../helpers/temp.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A stream delivering the bytes in several chunks, as a request body would. */
function chunked(bytes: Buffer, chunkSize = 1000): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) chunks.push(bytes.subarray(offset, offset + chunkSize));
  return Readable.from(chunks);
}

function failingAfter(bytes: Buffer): Readable {
  return Readable.from(
    (async function* () {
      yield bytes;
      throw new Error('client went away');
    })(),
  );
}

describe('LocalBlobStore', () => {
  let root: string;
  let store: LocalBlobStore;
  beforeEach(() => {
    root = tempDir('obscura-blobs-');
    store = new LocalBlobStore(path.join(root, 'blobs'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const tempFiles = () => fs.readdirSync(store.tempDir);

  it('stores content at sha256/<first two hex>/<sha256>, hashing while it streams', async () => {
    const bytes = Buffer.from('x'.repeat(4500) + 'end');
    const staged = await store.stage(chunked(bytes), bytes.length);
    expect(staged).toMatchObject({ sha256: sha256(bytes), size: bytes.length });
    expect(path.dirname(staged.tempPath)).toBe(store.tempDir);
    const target = await store.commit(staged);
    expect(target).toBe(path.join(root, 'blobs', 'sha256', staged.sha256.slice(0, 2), staged.sha256));
    expect(store.pathFor(staged.sha256)).toBe(target);
    expect(fs.readFileSync(target).equals(bytes)).toBe(true);
    expect(tempFiles()).toEqual([]);
  });

  it('keeps one copy of identical content and leaves no temp file behind', async () => {
    const bytes = Buffer.from('same bytes twice');
    const first = await store.commit(await store.stage(chunked(bytes, 4), 100));
    const mtime = fs.statSync(first).mtimeMs;
    const second = await store.commit(await store.stage(chunked(bytes, 3), 100));
    expect(second).toBe(first);
    expect(fs.statSync(first).mtimeMs).toBe(mtime);
    expect(fs.readdirSync(path.dirname(first))).toEqual([sha256(bytes)]);
    expect(tempFiles()).toEqual([]);
  });

  it('gives different content different addresses', async () => {
    const a = await store.commit(await store.stage(chunked(Buffer.from('a')), 10));
    const b = await store.commit(await store.stage(chunked(Buffer.from('b')), 10));
    expect(a).not.toBe(b);
    expect(fs.readFileSync(a, 'utf8')).toBe('a');
    expect(fs.readFileSync(b, 'utf8')).toBe('b');
  });

  it('accepts exactly the limit and refuses one byte more, removing the partial temp file', async () => {
    const exact = Buffer.alloc(2048, 1);
    await expect(store.stage(chunked(exact, 500), 2048)).resolves.toMatchObject({ size: 2048 });
    const tooLarge = Buffer.alloc(2049, 1);
    const error = await store.stage(chunked(tooLarge, 500), 2048).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BlobTooLargeError);
    expect((error as BlobTooLargeError).limit).toBe(2048);
    expect(tempFiles()).toHaveLength(1); // the staged, uncommitted one from the exact-size upload
  });

  it('removes the temp file when the source stream fails midway', async () => {
    await expect(store.stage(failingAfter(Buffer.alloc(100)), 1000)).rejects.toThrow('client went away');
    expect(tempFiles()).toEqual([]);
  });

  it('discard removes a staged file without storing it', async () => {
    const staged = await store.stage(chunked(Buffer.from('unwanted')), 100);
    expect(fs.existsSync(staged.tempPath)).toBe(true);
    await store.discard(staged);
    expect(fs.existsSync(staged.tempPath)).toBe(false);
    expect(fs.existsSync(store.pathFor(staged.sha256))).toBe(false);
  });

  it('refuses paths for anything but a lowercase sha256 hex digest', () => {
    for (const bad of ['', '../../etc/passwd', 'A'.repeat(64), 'a'.repeat(63), `${'a'.repeat(63)}/`]) {
      expect(() => store.pathFor(bad)).toThrow(/sha256/);
    }
  });

  it('sweep removes temp files and unreferenced blobs, and keeps referenced ones', async () => {
    const kept = await store.commit(await store.stage(chunked(Buffer.from('referenced')), 100));
    const orphan = await store.commit(await store.stage(chunked(Buffer.from('orphan')), 100));
    await store.stage(chunked(Buffer.from('staged, never committed')), 100);
    fs.writeFileSync(path.join(store.tempDir, 'left-by-a-dead-process.part'), 'partial');
    const result = await store.sweep(new Set([path.basename(kept)]));
    expect(result).toEqual({ tempRemoved: 2, orphansRemoved: 1 });
    expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(tempFiles()).toEqual([]);
    await expect(store.sweep(new Set([path.basename(kept)]))).resolves.toEqual({ tempRemoved: 0, orphansRemoved: 0 });
  });

  it('a new store on an existing root finds what was stored', async () => {
    const bytes = Buffer.from('durable');
    const target = await store.commit(await store.stage(chunked(bytes), 100));
    const reopened = new LocalBlobStore(path.join(root, 'blobs'));
    expect(reopened.pathFor(sha256(bytes))).toBe(target);
    expect(fs.readFileSync(reopened.pathFor(sha256(bytes))).equals(bytes)).toBe(true);
  });
});
