import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { S3BlobStore } from '../../main/services/s3-blob-store.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { waitForJob } from '../helpers/ocr-support.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';

// The S3-compatible blob store through the real @aws-sdk/client-s3 against a small S3 server in the test
// (path-style, SigV4 headers required): the store alone, then an instance whose uploads, jobs and reads all
// go through the bucket.

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const settings = (server: S3Server) => ({ bucket: 'obscura', prefix: 'office/', endpoint: server.url, region: 'us-east-1', forcePathStyle: true, accessKeyId: 'test', secretAccessKey: 'test-secret' });

describe('S3BlobStore', () => {
  let server: S3Server;
  let root: string;

  beforeAll(async () => {
    server = await startS3Server('obscura');
    root = tempDir('obscura-s3-');
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('stores a staged blob under its address once, reads it back into a verified local copy, and sweeps only old orphans', async () => {
    const store = new S3BlobStore(path.join(root, 'a'), settings(server));
    const bytes = Buffer.from('redacted records '.repeat(5000));
    const staged = await store.stage(Readable.from([bytes]), 1 << 20);
    expect(staged.sha256).toBe(sha256(bytes));
    await store.commit(staged);
    const key = `office/sha256/${staged.sha256.slice(0, 2)}/${staged.sha256}`;
    expect(server.objects.get(key)?.body.equals(bytes)).toBe(true);
    expect(fs.existsSync(staged.tempPath)).toBe(false);

    // The same content again: HEAD finds it, nothing is uploaded twice.
    const puts = () => server.requests.filter((request) => request.method === 'PUT').length;
    const before = puts();
    await store.commit(await store.stage(Readable.from([bytes]), 1 << 20));
    expect(puts()).toBe(before);

    // Another process (its own local directory) reads it from the bucket.
    const other = new S3BlobStore(path.join(root, 'b'), settings(server));
    const local = await other.localPath(staged.sha256);
    expect(fs.readFileSync(local).equals(bytes)).toBe(true);
    expect(other.pathFor(staged.sha256)).toBe(local);

    // A corrupted object is refused, not handed to a reader.
    const tampered = Buffer.from('tampered');
    const victim = sha256(Buffer.from('victim'));
    server.objects.set(`office/sha256/${victim.slice(0, 2)}/${victim}`, { body: tampered, lastModified: new Date() });
    await expect(other.localPath(victim)).rejects.toThrow(/digest/);
    expect(fs.existsSync(other.pathFor(victim))).toBe(false);

    // Sweep: an unreferenced object older than an hour goes, a fresh one (maybe between blob and row) stays.
    const stale = sha256(Buffer.from('stale'));
    server.objects.set(`office/sha256/${stale.slice(0, 2)}/${stale}`, { body: Buffer.from('stale'), lastModified: new Date(Date.now() - 2 * 3600_000) });
    const swept = await other.sweep(new Set([staged.sha256]));
    expect(swept.orphansRemoved).toBe(1);
    expect([...server.objects.keys()].sort()).toEqual([key, `office/sha256/${victim.slice(0, 2)}/${victim}`].sort());
  });

  describe('as the instance blob store', () => {
    let instance: TestInstance;
    let scheduler: JobScheduler;

    beforeAll(async () => {
      instance = await startInstance({ config: { rateLimits: { enabled: false }, blobStore: { kind: 's3', ...settings(server), prefix: 'instance/' } } });
      scheduler = startScheduler(instance.runtime, { poolSize: 1 });
    });
    afterAll(async () => {
      await scheduler.stop();
      await instance.close();
    });

    it('an upload lands in the bucket, and a job reads it from there after the local copy is gone', async () => {
      const pdf = minimalPdf('kept in a bucket');
      const caseId = await createCase(instance);
      const [document] = await uploadDocuments(instance, caseId, [{ name: 'bucket.pdf', bytes: pdf }]);
      const hash = sha256(pdf);
      expect(server.objects.get(`instance/sha256/${hash.slice(0, 2)}/${hash}`)?.body.equals(pdf)).toBe(true);
      // Nothing under the data directory's own content-addressed tree: the bucket is the store.
      expect(fs.existsSync(path.join(instance.dataDir, 'blobs', 'sha256'))).toBe(false);

      fs.rmSync(path.join(instance.dataDir, 'blobs', 'cache'), { recursive: true, force: true });
      fs.mkdirSync(path.join(instance.dataDir, 'blobs', 'cache'), { recursive: true });
      const gets = server.requests.filter((request) => request.method === 'GET').length;
      const queued = await instance.request({ method: 'POST', url: `/api/v1/documents/${document?.id ?? ''}/scan-jobs`, body: {} });
      expect(queued.statusCode).toBe(202);
      const job = await waitForJob(instance, (queued.json() as { data: { id: string } }).data.id, 60_000);
      expect(job.status, job.error_message ?? '').toBe('completed');
      expect(server.requests.filter((request) => request.method === 'GET').length).toBeGreaterThan(gets);
    }, 90_000);
  });
});
