import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Job } from '../main/common/schemas/jobs.js';
import type { OcrResult } from '../main/common/schemas/ocr.js';
import { listDocumentPages } from '../main/db/queries/document-pages.js';
import { startScheduler } from '../main/jobs/scheduler.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../test/helpers/instance.js';
import { bornDigitalPdf, characterErrorRate, proseLines, scanImage, scannedPdf, type TruthPage } from '../test/helpers/ocr-fixtures.js';
import { fmt } from './lib/format.js';
import type { Benchmark, BenchReport, BenchSettings, Check } from './types.js';

// Issue 4's OCR targets: a 10-page 300-dpi scanned set in at most 1.5× the time of the native `tesseract`
// command (OMP_THREAD_LIMIT=1, one process per core, on the same page images) with a character error rate
// within 1 point of it; a mixed set (half born-digital) in at most 0.7× of native.

export const TARGET_SCAN_RATIO = 1.5;
export const TARGET_CER_POINTS = 1;
export const TARGET_MIXED_RATIO = 0.7;
const PAGES = 10;

interface Run {
  /** Wall time: the measure of the targets. */
  ms: number;
  /** CPU time (user + system) of all threads and processes: steadier than wall time on a busy machine. */
  cpu_ms: number | null;
  texts: string[];
}

interface SetResult {
  name: string;
  pages: number;
  native: Run & { cer: number };
  obscura: Run & { cer: number; cold_ms: number; ocr_pages: number; page_pictures: number; render_ms: number; recognize_ms: number };
  /** The same set with the larger `best` model, for reference (scanned set only). */
  best: { ms: number; cpu_ms: number; cer: number } | null;
  ratio: number;
  cpu_ratio: number | null;
  cold_ratio: number;
}

/** Edit distance over all pages divided by all truth characters. */
function overallCer(truth: readonly TruthPage[], texts: readonly string[]): number {
  let errors = 0;
  let length = 0;
  truth.forEach((page, index) => {
    const size = page.text.replace(/\s+/g, ' ').trim().length;
    errors += characterErrorRate(page.text, texts[index] ?? '') * size;
    length += size;
  });
  return errors / length;
}

function nativeAvailable(): boolean {
  return spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** GNU time reports a child's CPU time; without it the native CPU column stays empty. */
const GNU_TIME = '/usr/bin/time';
const CPU_LINE = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/m;

/** `tesseract IMAGE stdout` per page, OMP_THREAD_LIMIT=1, as many at once as there are cores. */
async function runNative(images: readonly string[], concurrency: number): Promise<Run> {
  const texts: string[] = new Array<string>(images.length).fill('');
  const timed = fs.existsSync(GNU_TIME);
  let cpuMs = 0;
  let next = 0;
  const one = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const command = [...(timed ? [GNU_TIME, '-f', '%U %S'] : []), 'tesseract', images[index] ?? '', 'stdout'];
      const child = spawn(command[0] ?? 'tesseract', command.slice(1), { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`tesseract exited ${code} on ${images[index]}: ${err}`));
        const cpu = CPU_LINE.exec(err.trim().split('\n').pop() ?? '');
        if (cpu) cpuMs += (Number(cpu[1]) + Number(cpu[2])) * 1000;
        texts[index] = out;
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < images.length) await one(next++);
    }),
  );
  return { ms: performance.now() - started, cpu_ms: timed ? cpuMs : null, texts };
}

async function waitFor(instance: TestInstance, jobId: string): Promise<Job> {
  for (;;) {
    const response = await instance.request({ method: 'GET', url: `/api/v1/jobs/${jobId}` });
    const job = (response.json() as { data: Job }).data;
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An OCR job through Obscura's API, scheduler and worker pool; timed from the POST to the job's end. */
async function runObscuraJob(instance: TestInstance, documentId: string, options: Record<string, unknown> = {}): Promise<{ ms: number; cpu_ms: number; result: OcrResult }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/ocr-jobs`, body: options });
  if (response.statusCode !== 202) throw new Error(`POST ocr-jobs answered ${response.statusCode}: ${response.body}`);
  const job = await waitFor(instance, (response.json() as { data: Job }).data.id);
  const ms = performance.now() - started;
  // This process holds the instance: its CPU time covers HTTP, SQLite, the pool's threads and their engines.
  const used = process.cpuUsage(cpu);
  if (job.status !== 'completed') throw new Error(`the OCR job failed: ${job.error_message ?? ''}`);
  return { ms, cpu_ms: (used.user + used.system) / 1000, result: job.result as unknown as OcrResult };
}

/**
 * Both sides on one set. Obscura runs in a fresh instance: the first job starts the pool's threads and their
 * engines (cold); the second, right after, is the steady state of a running app (warm).
 */
async function measureSet(settings: BenchSettings, name: string, pdf: Buffer, pageImages: string[], truth: TruthPage[], withBest = false): Promise<SetResult> {
  const cores = os.availableParallelism();
  settings.log(`  ${name}: native tesseract on ${pageImages.length} page images, ${cores} at once`);
  const native = await runNative(pageImages, cores);

  settings.log(`  ${name}: Obscura (${cores} worker threads)`);
  const instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
  const scheduler = startScheduler(instance.runtime);
  try {
    const caseId = await createCase(instance, `bench ${name}`);
    const [document] = await uploadDocuments(instance, caseId, [{ name: `${name}.pdf`, bytes: pdf }]);
    if (!document) throw new Error('upload failed');
    const cold = await runObscuraJob(instance, document.id);
    const warm = await runObscuraJob(instance, document.id);
    const textsNow = async () => (await listDocumentPages(instance.runtime.db, Number(instance.orgs[0]?.organization_id), Number(document.id))).map((row) => row.text);
    const texts = await textsNow();
    let best: SetResult['best'] = null;
    if (withBest) {
      settings.log(`  ${name}: Obscura with the best model, for reference`);
      const run = await runObscuraJob(instance, document.id, { model: 'best' });
      best = { ms: run.ms, cpu_ms: run.cpu_ms, cer: overallCer(truth, await textsNow()) };
    }
    const recognized = warm.result.pages.filter((page) => page.source === 'ocr');
    const sum = (pick: (ms: { render: number; recognize: number }) => number) => recognized.reduce((total, page) => total + (page.ms ? pick(page.ms) : 0), 0);
    return {
      name,
      pages: truth.length,
      native: { ...native, cer: overallCer(truth, native.texts) },
      obscura: {
        ms: warm.ms,
        cpu_ms: warm.cpu_ms,
        cold_ms: cold.ms,
        texts,
        cer: overallCer(truth, texts),
        ocr_pages: recognized.length,
        page_pictures: recognized.filter((page) => page.image_source === 'page_picture').length,
        render_ms: recognized.length ? sum((ms) => ms.render) / recognized.length : 0,
        recognize_ms: recognized.length ? sum((ms) => ms.recognize) / recognized.length : 0,
      },
      best,
      ratio: warm.ms / native.ms,
      cpu_ratio: native.cpu_ms ? warm.cpu_ms / native.cpu_ms : null,
      cold_ratio: cold.ms / native.ms,
    };
  } finally {
    await scheduler.stop();
    await instance.close();
  }
}

/** Pages drawn once: full Letter pages at 300 dpi, 12 pt text, a light speckle as on a photocopy. */
function scanPages() {
  return Array.from({ length: PAGES }, (_, index) =>
    scanImage({ widthPx: 2550, heightPx: 3300, lines: proseLines(1000 + index, 34, 66), fontPx: 50, lineSpacing: 1.5, marginPx: 200, noise: 0.001 }),
  );
}

async function textPage(seed: number) {
  const lines = proseLines(2000 + seed, 40, 80).map((text, index) => ({ text, x: 72, y: 720 - index * 16, size: 11, font: StandardFonts.Helvetica }));
  return bornDigitalPdf([{ lines }]);
}

/** Page images for the native side: pdftoppm at 300 dpi, grey, as a scanner or a print-to-image would. */
function rasterise(pdfPath: string, directory: string): string[] {
  const prefix = path.join(directory, 'page');
  const result = spawnSync('pdftoppm', ['-r', '300', '-gray', '-png', pdfPath, prefix], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('pdftoppm failed');
  return fs
    .readdirSync(directory)
    .filter((file) => file.startsWith('page-') && file.endsWith('.png'))
    .sort()
    .map((file) => path.join(directory, file));
}

export async function runOcrBench(settings: BenchSettings): Promise<SetResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-ocr-'));
  try {
    settings.log(`  generating ${PAGES} scanned pages (2550×3300 px, 300 dpi) with their ground truth`);
    const scans = scanPages();
    const scanFiles = scans.map((scan, index) => {
      const file = path.join(dir, `scan-${String(index + 1).padStart(2, '0')}.png`);
      fs.writeFileSync(file, scan.png);
      return file;
    });
    const scanned = await scannedPdf(scans.map((image) => ({ image })));
    const results = [await measureSet(settings, 'scanned', scanned.bytes, scanFiles, scanned.truth, true)];

    // Mixed: pages 1, 3, 5, 7, 9 scanned, the others born-digital.
    const mixed = await PDFDocument.create();
    const truth: TruthPage[] = [];
    for (let index = 0; index < PAGES; index += 1) {
      const source = index % 2 === 0 ? { bytes: scanned.bytes, page: index, truth: scanned.truth[index] } : await textPage(index).then((made) => ({ bytes: made.bytes, page: 0, truth: made.truth[0] }));
      const [copied] = await mixed.copyPages(await PDFDocument.load(source.bytes), [source.page]);
      if (!copied || !source.truth) throw new Error('page copy failed');
      mixed.addPage(copied);
      truth.push(source.truth);
    }
    const mixedBytes = Buffer.from(await mixed.save());
    const mixedPath = path.join(dir, 'mixed.pdf');
    fs.writeFileSync(mixedPath, mixedBytes);
    const mixedDir = fs.mkdtempSync(path.join(dir, 'mixed-'));
    results.push(await measureSet(settings, 'mixed', mixedBytes, rasterise(mixedPath, mixedDir), truth));
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const ocrBench: Benchmark = {
  name: 'ocr',
  description: `OCR of ${PAGES} scanned 300-dpi pages and a half born-digital set: Obscura's worker pool vs native tesseract`,
  async run(settings): Promise<BenchReport> {
    if (!nativeAvailable()) {
      return {
        title: 'OCR (skipped)',
        table: [['set'], ['-']],
        notes: ['the native `tesseract` command is not installed; it is the baseline'],
        checks: [{ name: 'native tesseract available', pass: false, detail: 'install tesseract-ocr to run this benchmark' }],
        data: null,
      };
    }
    const results = await runOcrBench(settings);
    const seconds = (ms: number) => `${fmt(ms / 1000)} s`;
    const percent = (rate: number) => `${fmt(rate * 100)} %`;
    const table = [
      ['set', 'pages', 'OCR pages', 'native', 'Obscura', 'ratio', 'cold', 'native CPU', 'Obscura CPU', 'CPU ratio', 'CER native', 'CER Obscura'],
      ...results.map((result) => [
        result.name,
        String(result.pages),
        String(result.obscura.ocr_pages),
        seconds(result.native.ms),
        seconds(result.obscura.ms),
        `${fmt(result.ratio)}×`,
        `${fmt(result.cold_ratio)}×`,
        result.native.cpu_ms === null ? 'n/a' : seconds(result.native.cpu_ms),
        result.obscura.cpu_ms === null ? 'n/a' : seconds(result.obscura.cpu_ms),
        result.cpu_ratio === null ? 'n/a' : `${fmt(result.cpu_ratio)}×`,
        percent(result.native.cer),
        percent(result.obscura.cer),
      ]),
    ];
    const [scan, mixed] = results;
    const checks: Check[] = [];
    if (scan) {
      checks.push({ name: `scanned set at most ${TARGET_SCAN_RATIO}× native (warm)`, pass: scan.ratio <= TARGET_SCAN_RATIO, detail: `${fmt(scan.ratio)}×, cold ${fmt(scan.cold_ratio)}×` });
      const points = (scan.obscura.cer - scan.native.cer) * 100;
      checks.push({ name: `scanned CER within ${TARGET_CER_POINTS} point of native`, pass: points <= TARGET_CER_POINTS, detail: `${fmt(points)} points` });
    }
    if (mixed) checks.push({ name: `mixed set at most ${TARGET_MIXED_RATIO}× native (warm)`, pass: mixed.ratio <= TARGET_MIXED_RATIO, detail: `${fmt(mixed.ratio)}×, cold ${fmt(mixed.cold_ratio)}×` });
    // Wall time is what the targets name, but another load on the machine skews it either way; CPU time does not.
    for (const [result, target] of [
      [scan, TARGET_SCAN_RATIO],
      [mixed, TARGET_MIXED_RATIO],
    ] as const) {
      if (result?.cpu_ratio != null) checks.push({ name: `${result.name} set CPU time at most ${target}× native`, pass: result.cpu_ratio <= target, detail: `${fmt(result.cpu_ratio)}×` });
    }
    const notes = [
      'Times are wall-clock from the POST to the job\'s end (native: from the first process start to the last exit). "Obscura" is a',
      'second job right after the first ("cold": the first, which also starts the threads and their engines). CPU: user + system of',
      'all threads (Obscura: the whole bench process; native: each tesseract process, by GNU time); on a busy machine it is the',
      'steadier measure, and with the cores to itself the wall ratio approaches it.',
    ];
    notes.push(...results.map(
      (result) =>
        `${result.name}: Obscura per OCR page in its worker: prepare ${fmt(result.obscura.render_ms, 0)} ms (${result.obscura.page_pictures} of ${result.obscura.ocr_pages} read from the page's own picture, the rest rendered), recognise ${fmt(result.obscura.recognize_ms, 0)} ms`,
    ));
    for (const result of results) {
      if (result.best) {
        notes.push(
          `${result.name} with model "best" (@tesseract.js-data/eng 4.0.0_best_int), for reference: ${seconds(result.best.ms)} (${fmt(result.best.ms / result.native.ms)}× native), CPU ${seconds(result.best.cpu_ms)}, CER ${percent(result.best.cer)}`,
        );
      }
    }
    notes.push(
      'native: Debian tesseract 5 with its packaged eng model (tessdata_fast 4.1.0); Obscura: tesseract.js (wasm) with the same model,',
      'shipped in resources/tessdata (model "fast", the default; see resources/tessdata/README.md).',
    );
    return {
      title: `OCR: ${PAGES} pages, Obscura vs native tesseract (${os.availableParallelism()} cores)`,
      table,
      notes,
      checks,
      data: results.map(({ native, obscura, ...rest }) => ({ ...rest, native: { ms: native.ms, cer: native.cer }, obscura: { ...obscura, texts: undefined } })),
    };
  },
};
