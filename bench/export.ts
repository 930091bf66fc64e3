import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fmt, fmtInt } from './lib/format.js';
import { geometry, toUser, type PageGeometry } from './lib/fidelity-pages.js';
import { runExports } from './lib/fidelity-exports.js';
import { displayWords, type DisplayWord } from './lib/poppler.js';
import type { Benchmark, BenchReport } from './types.js';

// Issue 5's targets: exporting a 50-page born-digital PDF with 5 boxes per page takes at most 2.5 times as
// long as `pdftoppm -r 200` rendering the same pages, and the output is less than 3 times the input's size.
const PAGES = 50;
const BOXES_PER_PAGE = 5;
const MAX_TIME_RATIO = 2.5;
const MAX_SIZE_RATIO = 3;
// BENCH_EXPORT_ROUNDS: fewer rounds while working (the figures are medians of 5).
const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 5);
// The real-world corpus (issue 29): every PDF of ../shared/corpora/realworld-pdfs exported once with the defaults,
// beside pdftoppm -r 200 of the same whole file. BENCH_EXPORT_CORPUS=0 skips it.
const CORPUS = new URL('../../shared/corpora/realworld-pdfs/', import.meta.url);
/** Boxes on each page, by one rule for every file: of the page's words (poppler) with 4+ characters and 3 letters, up to this many, evenly spread. */
const CORPUS_BOXES_PER_PAGE = 5;

// The compiled build: the numbers are those of the shipped code (runner, worker pool, worker).
const dist = new URL('../dist/main/', import.meta.url);
const load = async <T>(file: string): Promise<T> => (await import(new URL(file, dist).href)) as T;

const WORDS = 'records request memorandum department review schedule finance public office notice budget contract'.split(' ');

interface BenchInput {
  bytes: Buffer;
  boxes: { page: number; box: { x1: number; y1: number; x2: number; y2: number } }[];
}

/** A memo-like document: 40 lines of 11pt text a page, a heading, and five words per page to withhold. */
async function bornDigitalPdf(): Promise<BenchInput> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const boxes: BenchInput['boxes'] = [];
  for (let number = 1; number <= PAGES; number += 1) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Department memorandum ${number} of ${PAGES}`, { x: 72, y: 730, size: 16, font: bold });
    for (let line = 0; line < 40; line += 1) {
      const y = 700 - line * 15;
      const text = Array.from({ length: 12 }, (_, index) => WORDS[(number * 7 + line * 5 + index) % WORDS.length]).join(' ');
      page.drawText(text, { x: 72, y, size: 11, font });
      if (line % 8 === 3) {
        // Withhold the third word of every eighth line.
        const words = text.split(' ');
        const start = 72 + font.widthOfTextAtSize(`${words.slice(0, 2).join(' ')} `, 11);
        boxes.push({ page: number, box: { x1: start - 1, y1: y - 3, x2: start + font.widthOfTextAtSize(words[2] ?? '', 11) + 1, y2: y + 10 } });
      }
    }
  }
  if (boxes.length !== PAGES * BOXES_PER_PAGE) throw new Error(`expected ${PAGES * BOXES_PER_PAGE} boxes, made ${boxes.length}`);
  return { bytes: Buffer.from(await doc.save()), boxes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** CPU of finished child processes (cutime + cstime in /proc/self/stat), in ms; Node reports only its own. */
function childCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[13]) || 0) + (Number(fields[14]) || 0)) * 10;
}

/** pdftoppm -r 200 over every page, to PPM files in a scratch directory: wall and CPU milliseconds. */
function pdftoppm(file: string, dir: string): { ms: number; cpuMs: number } {
  const out = fs.mkdtempSync(path.join(dir, 'ppm-'));
  const cpuBefore = childCpuMs();
  const started = performance.now();
  execFileSync('pdftoppm', ['-r', '200', file, path.join(out, 'page')]);
  const ms = performance.now() - started;
  const cpuMs = childCpuMs() - cpuBefore;
  fs.rmSync(out, { recursive: true, force: true });
  return { ms, cpuMs };
}

interface Json {
  data: { id: string };
}

interface BurnSummary {
  vector_pages: number;
  raster_pages: number;
  rendered: { document_id: string; page: number; reason: string }[];
}

interface ExportState {
  status: string;
  error_message: string | null;
  file: { size: number } | null;
  summary: { burn?: BurnSummary | null } | null;
}

/** CPU of each of this process's threads (/proc/self/task), in ms by thread id and name: where an export's CPU goes. */
function threadCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(`${tid === String(process.pid) ? 'main' : name}:${tid}`, ((Number(fields[11]) || 0) + (Number(fields[12]) || 0)) * 10);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** PROFILE_MARKS=1: each thread's CPU over a round, largest first, threads of one name summed. */
function threadCpuLine(before: Map<string, number>): string {
  const byName = new Map<string, number>();
  for (const [key, ms] of threadCpuMs()) {
    const used = ms - (before.get(key) ?? 0);
    const name = key.startsWith('main:') ? 'main' : `${key.split(':')[0]}${used > 200 ? `:${key.split(':')[1]}` : ''}`;
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  return [...byName.entries()].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${ms}`).join(', ');
}

async function obscuraExport(dir: string, file: string, input: BenchInput, log: (message: string) => void) {
  if (!fs.existsSync(new URL('jobs/export/index.js', dist))) throw new Error('dist/ is missing: run `npm run build:main` first');
  const { loadConfig } = await load<typeof import('../main/config.js')>('config.js');
  const { createHttpServer } = await load<typeof import('../main/http/server.js')>('http/server.js');
  const { openRuntime } = await load<typeof import('../main/runtime.js')>('runtime.js');
  const { createOrganization } = await load<typeof import('../main/services/bootstrap.js')>('services/bootstrap.js');
  const { systemClock } = await load<typeof import('../main/services/context.js')>('services/context.js');
  const { WorkerPool } = await load<typeof import('../main/jobs/pool.js')>('jobs/pool.js');
  const { startExportRunner } = await load<typeof import('../main/jobs/export/index.js')>('jobs/export/index.js');
  const { onExportChanged } = await load<typeof import('../main/db/change-signals.js')>('db/change-signals.js');

  const dataDir = path.join(dir, 'data');
  const runtime = await openRuntime(dataDir, loadConfig(dataDir, { port: 0, rateLimits: { enabled: false } }), systemClock);
  const org = await createOrganization(runtime.db, systemClock, { name: 'Bench', adminUsername: 'bench-export' });
  const server = await createHttpServer(runtime, { logger: false });
  const host = new URL(await server.listen('127.0.0.1', 0)).host;
  const pool = new WorkerPool();
  // PROFILE_MARKS=1: each worker task's kind, pages and span (ms since the round began), printed with the round.
  const timeline: string[] = [];
  let roundStart = 0;
  if (process.env.PROFILE_MARKS) {
    const run = pool.run.bind(pool);
    pool.run = (async (task: Parameters<typeof run>[0], options: Parameters<typeof run>[1]) => {
      const started = performance.now() - roundStart;
      try {
        return await run(task, options);
      } finally {
        const pages = 'pages' in task && Array.isArray(task.pages) ? task.pages.length : 'checks' in task && Array.isArray(task.checks) ? task.checks.length : '';
        timeline.push(`${task.kind}${pages === '' ? '' : `(${pages})`} ${started.toFixed(0)}–${(performance.now() - roundStart).toFixed(0)}`);
      }
    }) as typeof pool.run;
  }
  const runner = startExportRunner(runtime, pool);
  let counter = 0;
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, raw?: Buffer): Promise<Json> => {
    const response = await server.app.inject({
      method,
      url,
      headers: {
        host,
        'x-api-key': org.api_key,
        ...(method !== 'GET' && { 'idempotency-key': `bench-${Date.now()}-${counter++}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(raw && { 'content-type': 'application/pdf' }),
      },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
      ...(raw && { payload: raw }),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json<Json>();
  };
  try {
    // The bench measures the export alone: no automatic OCR and detection beside it, and the release
    // safeguards (an approved case, every document processed) are not what is measured.
    await api('PATCH', '/api/v1/processing-settings', { auto_process: false });
    await api('PATCH', '/api/v1/release-settings', { safeguards: { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false } });
    const caseId = (await api('POST', '/api/v1/cases', { name: 'Export bench' })).data.id;
    const session = (await api('POST', `/api/v1/cases/${caseId}/upload-sessions`, { files: [{ name: 'memo.pdf', size: input.bytes.length }] })).data as unknown as { id: string; files: { upload_url: string }[] };
    const upload = await server.app.inject({ method: 'PUT', url: new URL(session.files[0]?.upload_url ?? '').pathname, headers: { host, 'content-type': 'application/pdf' }, payload: input.bytes });
    if (upload.statusCode !== 200) throw new Error(`upload failed: ${upload.body}`);
    const documentId = ((await api('POST', `/api/v1/upload-sessions/${session.id}/complete`)).data as unknown as { documents: { id: string }[] }).documents[0]?.id ?? '';
    await api('POST', `/api/v1/documents/${documentId}/redactions`, {
      redactions: input.boxes.map(({ page, box }) => ({ kind: 'rectangle', layer: 'B6', coordinates: { page, units: 'pdf_points', box } })),
    });
    const runOnce = async (method: 'auto' | 'raster' = 'auto') => {
      if (process.env.PROFILE_MARKS) log(`  mark start ${method} ${process.hrtime.bigint() / 1000n}`);
      const faultsBefore = process.resourceUsage().minorPageFault;
      const cpuBefore = process.cpuUsage();
      const threadsBefore = process.env.PROFILE_MARKS ? threadCpuMs() : new Map<string, number>();
      const started = performance.now();
      roundStart = started;
      timeline.length = 0;
      const { id } = (await api('POST', '/api/v1/exports', { case_id: caseId, options: { method } })).data;
      for (;;) {
        const current = (await api('GET', `/api/v1/exports/${id}`)).data as unknown as ExportState;
        if (current.status === 'completed') {
          const ms = performance.now() - started;
          const cpu = process.cpuUsage(cpuBefore);
          if (process.env.PROFILE_MARKS) log(`  mark end ${method} ${process.hrtime.bigint() / 1000n}; thread CPU ms: ${threadCpuLine(threadsBefore)}; page faults ${process.resourceUsage().minorPageFault - faultsBefore}; tasks: ${timeline.join(', ')}`);
          return { ms, cpuMs: (cpu.user + cpu.system) / 1000, size: current.file?.size ?? 0, burn: current.summary?.burn ?? null };
        }
        if (current.status === 'failed' || current.status === 'cancelled') throw new Error(`export ${current.status}: ${current.error_message ?? ''}`);
        // Read again when the export's status changes (the runner's own signal), else every 250 ms: polling as
        // an HTTP client would costs this process CPU the export would be charged with.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, 250);
          const unsubscribe = onExportChanged((changed) => changed === Number(id) && setImmediate(done));
          function done() {
            clearTimeout(timer);
            unsubscribe();
            resolve();
          }
        });
      }
    };
    log('  warm-up export (starts the worker threads)');
    const first = await runOnce();
    log(`  first export: ${fmt(first.ms, 0)} ms, ${fmt(first.cpuMs, 0)} ms CPU (threads start: modules load, code compiles)`);
    // Rounds alternate the baseline and the export, so both see the same load on a shared machine.
    const rounds: { baseline: number; baselineCpu: number; ms: number; cpuMs: number; size: number; burn: BurnSummary | null }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const baseline = pdftoppm(file, dir);
      const run = await runOnce();
      rounds.push({ baseline: baseline.ms, baselineCpu: baseline.cpuMs, ...run });
      log(`  round ${round + 1}/${ROUNDS}: pdftoppm ${fmt(baseline.ms, 0)} ms, export ${fmt(run.ms, 0)} ms (${fmt(run.ms / baseline.ms)}×)`);
    }
    // One export with every page rendered, for reference (method raster, the fallback of auto).
    // BENCH_EXPORT_RASTER=0 skips the method raster reference (about 40 s) while working.
    const rasterBaseline = process.env.BENCH_EXPORT_RASTER === '0' ? { ms: Number.NaN } : pdftoppm(file, dir);
    const raster = process.env.BENCH_EXPORT_RASTER === '0' ? { ms: Number.NaN, cpuMs: Number.NaN, size: 0, burn: null, baseline: Number.NaN } : { ...(await runOnce('raster')), baseline: rasterBaseline.ms };
    log(`  reference: pdftoppm ${fmt(rasterBaseline.ms, 0)} ms, export with method raster ${fmt(raster.ms, 0)} ms (${fmt(raster.ms / rasterBaseline.ms)}×)`);
    // What the pool's threads hold while idle (piscina keeps them for its idle timeout): resident memory with
    // them, then without them.
    const withIdleThreads = process.memoryUsage.rss();
    await pool.destroy();
    const withoutThreads = process.memoryUsage.rss();
    return { rounds, raster, threads: pool.size, first, idleThreadsMb: (withIdleThreads - withoutThreads) / 1024 ** 2 };
  } finally {
    await runner.stop();
    await pool.destroy().catch(() => undefined);
    await server.close();
    await runtime.close();
  }
}

/** The fixed rule: on each page, up to CORPUS_BOXES_PER_PAGE of its words of 4+ characters (3 letters), evenly spread. */
export function corpusBoxes(words: readonly DisplayWord[], pages: readonly PageGeometry[]): { page: number; box: { x1: number; y1: number; x2: number; y2: number } }[] {
  const boxes: { page: number; box: { x1: number; y1: number; x2: number; y2: number } }[] = [];
  for (const page of [...new Set(words.map((word) => word.page))]) {
    const candidates = words.filter((word) => word.page === page && [...word.text].length >= 4 && /\p{L}{3}/u.test(word.text) && word.x2 - word.x1 > 1);
    const count = Math.min(CORPUS_BOXES_PER_PAGE, candidates.length);
    const geometryOf = pages[page - 1] ?? { rotate: 0, crop: [0, 0, 612, 792] as [number, number, number, number], media: [0, 0, 612, 792] as [number, number, number, number] };
    for (let index = 0; index < count; index += 1) {
      const word = candidates[Math.floor(((index + 0.5) * candidates.length) / count)];
      if (word) boxes.push({ page, box: toUser(word, geometryOf) });
    }
  }
  return boxes;
}

interface CorpusRow {
  name: string;
  pages: number;
  boxes: number;
  ms: number;
  baselineMs: number;
  ratio: number;
  inputBytes: number;
  outputBytes: number;
  vector: number;
  rendered: number;
  error: string | null;
}

/** Each corpus file: export (defaults, through the HTTP API) and pdftoppm -r 200 of the whole file, back to back. */
async function corpusRun(dir: string, log: (message: string) => void): Promise<CorpusRow[]> {
  if (process.env.BENCH_EXPORT_CORPUS === '0' || !fs.existsSync(CORPUS)) return [];
  const names = fs.readdirSync(CORPUS).filter((name) => name.endsWith('.pdf')).sort();
  const rows: CorpusRow[] = [];
  await runExports(dir, load, async (exportOne) => {
    // Warm-up: starts the worker threads (not counted).
    const first = names[0];
    if (first) {
      const bytes = fs.readFileSync(new URL(first, CORPUS));
      await exportOne('warm-up', bytes, corpusBoxes(displayWords(bytes, true), geometry(bytes, dir))).catch(() => undefined);
    }
    for (const name of names) {
      const bytes = fs.readFileSync(new URL(name, CORPUS));
      const file = path.join(dir, 'corpus.pdf');
      fs.writeFileSync(file, bytes);
      const pages = geometry(bytes, dir);
      const boxes = corpusBoxes(displayWords(bytes, true), pages);
      const row: CorpusRow = { name, pages: pages.length, boxes: boxes.length, ms: 0, baselineMs: 0, ratio: Number.NaN, inputBytes: bytes.length, outputBytes: 0, vector: 0, rendered: 0, error: null };
      try {
        row.baselineMs = pdftoppm(file, dir).ms;
        const exported = await exportOne(name, bytes, boxes);
        row.ms = exported.ms;
        row.ratio = row.ms / row.baselineMs;
        row.outputBytes = exported.bytes.length;
        row.vector = exported.vectorPages;
        row.rendered = exported.rendered.length;
      } catch (error) {
        row.error = error instanceof Error ? (error.message.split('\n')[0] ?? 'failed') : String(error);
      }
      rows.push(row);
      log(`  ${name}: ${row.error ?? `${row.pages} pages, ${row.boxes} boxes, export ${fmt(row.ms, 0)} ms, pdftoppm ${fmt(row.baselineMs, 0)} ms (${fmt(row.ratio)}×), size ${fmt(row.outputBytes / row.inputBytes)}×, ${row.vector} content / ${row.rendered} rendered`}`);
    }
  });
  return rows;
}

export const exportBench: Benchmark = {
  name: 'export',
  description: `Export a ${PAGES}-page born-digital PDF with ${BOXES_PER_PAGE} boxes per page vs pdftoppm -r 200 (issue 5), and each real-world corpus PDF vs pdftoppm -r 200 of it (issue 29)`,
  async run(settings): Promise<BenchReport> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-export-'));
    try {
      const input = await bornDigitalPdf();
      const file = path.join(dir, 'input.pdf');
      fs.writeFileSync(file, input.bytes);
      settings.log(`  input: ${PAGES} pages, ${fmtInt(input.bytes.length)} bytes; pdftoppm -r 200, ${ROUNDS} rounds`);
      pdftoppm(file, dir); // warm the page cache
      // BENCH_EXPORT_CORPUS_ONLY=1: the corpus alone (to compare two builds back to back on a loaded machine).
      const { rounds, raster, threads, first, idleThreadsMb } = process.env.BENCH_EXPORT_CORPUS_ONLY === '1' ? { rounds: [], raster: { ms: Number.NaN, cpuMs: Number.NaN, size: 0, burn: null, baseline: Number.NaN }, threads: 0, first: null, idleThreadsMb: Number.NaN } : await obscuraExport(dir, file, input, settings.log);
      settings.log('  real-world corpus: each file exported once (defaults), beside pdftoppm -r 200 of the whole file');
      fs.mkdirSync(path.join(dir, 'corpus'));
      const corpus = await corpusRun(path.join(dir, 'corpus'), settings.log);
      const done = corpus.filter((row) => row.error === null);
      const corpusRatio = median(done.map((row) => row.ratio));
      const corpusSize = median(done.map((row) => row.outputBytes / row.inputBytes));
      const corpusTotal = { ms: done.reduce((sum, row) => sum + row.ms, 0), baselineMs: done.reduce((sum, row) => sum + row.baselineMs, 0), input: done.reduce((sum, row) => sum + row.inputBytes, 0), output: done.reduce((sum, row) => sum + row.outputBytes, 0) };
      const baseline = median(rounds.map((round) => round.baseline));
      const exportMs = median(rounds.map((round) => round.ms));
      const timeRatio = median(rounds.map((round) => round.ms / round.baseline));
      const size = rounds[0]?.size ?? 0;
      const sizeRatio = size / input.bytes.length;
      const cpuPerPage = median(rounds.map((round) => round.cpuMs)) / PAGES;
      const baselineCpuPerPage = median(rounds.map((round) => round.baselineCpu)) / PAGES;
      const burn = rounds[0]?.burn ?? null;
      const reasons = [...new Set((burn?.rendered ?? []).map((entry) => entry.reason))];
      return {
        title: `Export with burn-in: ${PAGES} pages, ${PAGES * BOXES_PER_PAGE} boxes, 200 dpi`,
        table: [
          ['run', 'ms', 'bytes'],
          ['pdftoppm -r 200 (render only, PPM)', fmt(baseline, 0), '-'],
          [`obscura export, pdf, method auto (${threads} worker threads)`, fmt(exportMs, 0), fmtInt(size)],
          ['obscura export, pdf, method raster (reference, 1 run)', fmt(raster.ms, 0), fmtInt(raster.size)],
          ['input PDF', '-', fmtInt(input.bytes.length)],
          ...(corpus.length > 0
            ? [
                ['', '', ''],
                ['real-world corpus file (pages, boxes)', 'export ms / pdftoppm ms (ratio)', 'output / input bytes (ratio)'],
                ...corpus.map((row) => [
                  `${row.name} (${row.pages}, ${row.boxes})`,
                  row.error ? `failed ${row.error.replace(/^.*\((?=[^()]*\)$)/, '(').slice(0, 60)}` : `${fmt(row.ms, 0)} / ${fmt(row.baselineMs, 0)} (${fmt(row.ratio)}×)`,
                  row.error ? '-' : `${fmtInt(row.outputBytes)} / ${fmtInt(row.inputBytes)} (${fmt(row.outputBytes / row.inputBytes)}×)`,
                ]),
              ]
            : []),
        ],
        notes: [
          `time ratio (export / pdftoppm, median of ${ROUNDS} alternating rounds): ${fmt(timeRatio)}×   size ratio (output / input): ${fmt(sizeRatio)}×`,
          `pages: ${burn?.vector_pages ?? '?'} redacted in their content (vector), ${burn?.raster_pages ?? '?'} rendered${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`,
          `method raster for reference: ${fmt(raster.ms / raster.baseline)}× the time of pdftoppm, ${fmt(raster.size / input.bytes.length)}× the size (every page a 200 dpi picture, 1-bit G4)`,
          'export: POST /exports to status completed, after a warm-up; content rewriting (or render and burn-in), assembly, verification, blob commit',
          ...(first ? [`first export on new threads: ${fmt(first.ms, 0)} ms wall (${fmt(first.ms / exportMs)}× a warm one), ${fmt(first.cpuMs / PAGES, 1)} ms CPU a page; the ${threads} idle threads held ${fmt(idleThreadsMb, 0)} MB resident`] : []),
          'baseline: poppler rendering the same file single-threaded to uncompressed PPM files',
          `size per page: output ${fmtInt(size / PAGES)} bytes, input ${fmtInt(input.bytes.length / PAGES)} bytes of text operators`,
          ...(corpus.length > 0
            ? [
                `real-world corpus (${done.length} of ${corpus.length} files exported${corpus.length > done.length ? `; failed: ${corpus.filter((row) => row.error !== null).map((row) => row.name).join(', ')}` : ''}; up to ${CORPUS_BOXES_PER_PAGE} boxes a page over its own words): median export / pdftoppm -r 200 of the same file ${fmt(corpusRatio)}×, median output / input ${fmt(corpusSize)}×; totals ${fmt(corpusTotal.ms / 1000, 1)} s / ${fmt(corpusTotal.baselineMs / 1000, 1)} s (${fmt(corpusTotal.ms / corpusTotal.baselineMs)}×), ${fmtInt(corpusTotal.output)} / ${fmtInt(corpusTotal.input)} bytes (${fmt(corpusTotal.output / corpusTotal.input)}×)`,
                `corpus pages: ${done.reduce((sum, row) => sum + row.vector, 0)} redacted in their content, ${done.reduce((sum, row) => sum + row.rendered, 0)} rendered; export time is POST /exports to completed (polled every 50 ms), one export per file`,
              ]
            : []),
          `CPU per page (all threads; independent of load): export ${fmt(cpuPerPage, 1)} ms, pdftoppm ${fmt(baselineCpuPerPage, 1)} ms (${fmt(cpuPerPage / baselineCpuPerPage)}×); the wall ratio gains from the ${threads} threads only while the cores are otherwise idle`,
        ],
        checks: [
          { name: `time ratio ≤ ${MAX_TIME_RATIO}`, pass: timeRatio <= MAX_TIME_RATIO, detail: `${fmt(timeRatio)}×` },
          { name: `size ratio < ${MAX_SIZE_RATIO}`, pass: sizeRatio < MAX_SIZE_RATIO, detail: `${fmt(sizeRatio)}×` },
          // Issue 29's targets on the 50-page case; the corpus's median is its figure to report.
          { name: 'wall ≤ 1× pdftoppm -r 200 (issue 29)', pass: timeRatio <= 1, detail: `${fmt(timeRatio)}×` },
          { name: 'CPU per page ≤ 2× pdftoppm\'s (issue 29)', pass: cpuPerPage <= 2 * baselineCpuPerPage, detail: `${fmt(cpuPerPage / baselineCpuPerPage)}×` },
          { name: 'size ≤ 1.3× the input (issue 29)', pass: sizeRatio <= 1.3, detail: `${fmt(sizeRatio)}×` },
          ...(corpus.length > 0 ? [{ name: 'real-world corpus: median export / pdftoppm ≤ 1 (an aim past issue 29, which asks for the figure; small files pay the fixed cost of an export)', pass: corpusRatio <= 1, detail: `${fmt(corpusRatio)}× over ${done.length} files` }] : []),
        ],
        data: { first, idleThreadsMb, corpus, corpusRatio, corpusSize, rounds, raster, cpuPerPage, baselineCpuPerPage, baselineMs: baseline, exportMs, outputBytes: size, inputBytes: input.bytes.length, timeRatio, sizeRatio, threads },
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
