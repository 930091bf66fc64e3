import { createDeflate, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { finished, startJob, upload } from '../helpers/analysis-support.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { tinyPng } from '../helpers/integration-support.js';

// Finding (HIGH): a PDF declaring a 12000×12000 image drove OCR to +1.6 GB resident; a 1 GiB Flate stream to
// +1.3 GB. No image-size limit, no decompression cap, no per-worker memory limit. The bombs are built here.

/** A one-page PDF from its objects (1: catalog, 2: pages, 3: page, then the rest), with a correct xref. */
function pdfOf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  objects.forEach((object, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), object, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer) => Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);

/** A page that is one 12000×12000 grey picture (144 megapixels of zeros, ~140 KB compressed). */
function imageBomb(): Buffer {
  const side = 12_000;
  const samples = deflateSync(Buffer.alloc(side * side), { level: 9 });
  const content = Buffer.from(`q 612 0 0 792 0 0 cm /Im1 Do Q`, 'latin1');
  return pdfOf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>'),
    stream('', content),
    stream(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, samples),
  ]);
}

/** A page whose content stream inflates to 1 GiB (spaces: valid, empty content), deflated in chunks. */
async function flateBomb(): Promise<Buffer> {
  const deflate = createDeflate({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(16 * 1024 * 1024, 0x20);
  for (let written = 0; written < 1024 ** 3; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const data = Buffer.concat(out);
  return pdfOf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'),
    stream('/Filter /FlateDecode', data),
  ]);
}

/** A PNG header declaring 40000×40000 pixels (the rest need not exist: it must be refused before decoding). */
function pngBomb(): Buffer {
  const png = tinyPng();
  png.writeUInt32BE(40_000, 16);
  png.writeUInt32BE(40_000, 20);
  return png;
}

describe('security: PDF and picture bombs', () => {
  let instance: TestInstance;
  let scheduler: JobScheduler;
  beforeAll(async () => {
    instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
    scheduler = startScheduler(instance.runtime, { poolSize: 2 });
  });
  afterAll(async () => {
    await scheduler.stop();
    await instance.close();
  });

  it('each bomb fails its job with the limit named, resident memory stays bounded, and an ordinary OCR job still completes', async () => {
    const documents = {
      image: await upload(instance, 'image-bomb.pdf', imageBomb()),
      flate: await upload(instance, 'flate-bomb.pdf', await flateBomb()),
      png: await upload(instance, 'png-bomb.png', pngBomb()),
    };
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 25);
    try {
      const jobs = {
        image: await startJob(instance, documents.image, 'ocr'),
        flate: await startJob(instance, documents.flate, 'ocr'),
        png: await startJob(instance, documents.png, 'ocr'),
        flateScan: await startJob(instance, documents.flate, 'scan'),
      };
      const image = await finished(instance, jobs.image.id, 60_000);
      const flate = await finished(instance, jobs.flate.id, 60_000);
      const png = await finished(instance, jobs.png.id, 60_000);
      const flateScan = await finished(instance, jobs.flateScan.id, 60_000);
      expect(image).toMatchObject({ status: 'failed' });
      expect(image.error_message).toMatch(/12000×12000 pixels.*parserLimits\.maxImagePixels/);
      expect(flate).toMatchObject({ status: 'failed' });
      expect(flate.error_message).toMatch(/inflates to more than 256 MiB \(parserLimits\.maxStreamBytes\)/);
      expect(flateScan.error_message).toMatch(/parserLimits\.maxStreamBytes/);
      expect(png).toMatchObject({ status: 'failed' });
      expect(png.error_message).toMatch(/40000×40000 pixels/);
    } finally {
      clearInterval(sampler);
    }
    const growth = (peak - baseline) / 1024 ** 2;
    console.log(`resident memory growth during the bombs: ${growth.toFixed(0)} MiB`);
    expect(growth).toBeLessThan(600);
    // The server is up and other work goes on.
    expect((await instance.request({ method: 'GET', url: '/api/v1/me' })).statusCode).toBe(200);
    const ordinary = await upload(instance, 'ordinary.pdf', minimalPdf('still working'));
    const job = await finished(instance, (await startJob(instance, ordinary, 'ocr')).id, 90_000);
    expect(job.status, job.error_message ?? '').toBe('completed');
  }, 240_000);
});
