import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { checkSha256, stageInto, type BlobStore, type StagedBlob } from './blob-store.js';

export interface S3BlobSettings {
  bucket: string;
  /** Key prefix inside the bucket (e.g. `obscura/`). */
  prefix: string;
  /** An S3-compatible server (MinIO, Ceph, Garage); absent: AWS. */
  endpoint?: string | undefined;
  region: string;
  /** Path-style URLs (`endpoint/bucket/key`), what most self-hosted servers expect. */
  forcePathStyle: boolean;
  /** Absent: the SDK's default chain (AWS_ACCESS_KEY_ID, profiles, instance roles). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/** Orphans younger than this are kept: another process may be between storing a blob and its row. */
const ORPHAN_GRACE_MS = 3600_000;

/**
 * Blobs in an S3-compatible bucket, shared by processes on several machines. Uploads are staged and hashed in
 * the local temp directory, then PUT under `prefix/sha256/ab/abcdef…` (skipped when the object exists:
 * content addressing makes the PUT idempotent). Readers get a local copy in `cache/`, downloaded to a temp
 * file, checked against its address and renamed into place, so a cached path holds the whole blob or nothing.
 */
export class S3BlobStore implements BlobStore {
  readonly tempDir: string;
  readonly cacheDir: string;
  private readonly client: S3Client;

  constructor(
    localRoot: string,
    private readonly settings: S3BlobSettings,
    clientConfig: S3ClientConfig = {},
  ) {
    this.tempDir = path.join(localRoot, 'tmp');
    this.cacheDir = path.join(localRoot, 'cache');
    fs.mkdirSync(this.tempDir, { recursive: true, mode: 0o700 });
    fs.mkdirSync(this.cacheDir, { recursive: true, mode: 0o700 });
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint && { endpoint: settings.endpoint }),
      ...(settings.accessKeyId && settings.secretAccessKey && { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }),
      ...clientConfig,
    });
  }

  private key(sha256: string): string {
    checkSha256(sha256);
    return `${this.settings.prefix}sha256/${sha256.slice(0, 2)}/${sha256}`;
  }

  pathFor(sha256: string): string {
    return path.join(this.cacheDir, checkSha256(sha256));
  }

  async localPath(sha256: string): Promise<string> {
    const target = this.pathFor(sha256);
    if (fs.existsSync(target)) return target;
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(sha256) }));
    const temp = path.join(this.tempDir, `fetch-${sha256.slice(0, 16)}-${process.pid}-${Date.now()}.part`);
    const hash = createHash('sha256');
    const body = object.Body as Readable;
    body.on('data', (chunk: Buffer) => hash.update(chunk));
    try {
      await pipeline(body, fs.createWriteStream(temp, { mode: 0o600 }));
      const got = hash.digest('hex');
      if (got !== sha256) throw new Error(`blob ${sha256} read from the bucket has the digest ${got}`);
      await fsp.rename(temp, target);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return target;
  }

  stage(source: Readable, maxBytes: number): Promise<StagedBlob> {
    return stageInto(this.tempDir, source, maxBytes);
  }

  async commit(staged: StagedBlob): Promise<void> {
    const Key = this.key(staged.sha256);
    if (!(await this.exists(Key))) {
      await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key, Body: fs.createReadStream(staged.tempPath), ContentLength: staged.size }));
    }
    // The staged file becomes the local copy readers get.
    await fsp.rename(staged.tempPath, this.pathFor(staged.sha256)).catch(() => fsp.rm(staged.tempPath, { force: true }));
  }

  private async exists(Key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  async discard(staged: StagedBlob): Promise<void> {
    await fsp.rm(staged.tempPath, { force: true });
  }

  /** Local temp files and copies; objects no row names that are older than an hour. */
  async sweep(referenced: ReadonlySet<string>): Promise<{ tempRemoved: number; orphansRemoved: number }> {
    let tempRemoved = 0;
    for (const dir of [this.tempDir, this.cacheDir]) {
      for (const name of await fsp.readdir(dir)) {
        await fsp.rm(path.join(dir, name), { recursive: true, force: true });
        tempRemoved += 1;
      }
    }
    let orphansRemoved = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: `${this.settings.prefix}sha256/`, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const sha256 = object.Key?.split('/').at(-1) ?? '';
        const old = (object.LastModified?.getTime() ?? 0) < Date.now() - ORPHAN_GRACE_MS;
        if (object.Key && !referenced.has(sha256) && old) {
          await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: object.Key }));
          orphansRemoved += 1;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { tempRemoved, orphansRemoved };
  }
}
