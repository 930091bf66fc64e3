// Developer harness (not a benchmark): the export's worker tasks for the 50-page bench input run one after the
// other on this thread, each timed: `node --import tsx --cpu-prof --cpu-prof-dir DIR bench/profile-export.ts`.
// PROFILE_FILE=path.pdf: that file instead, boxed as the export bench boxes the real-world corpus (corpusBoxes).
// PROFILE_MARKS=1 prints each step's start and end (µs on the clock of a .cpuprofile, then ms on that of
// --trace-gc) to cut a profile or a GC trace by step;
// the export bench prints the same marks around each export.
// PROFILE_SHOW_REFUSED=1 prints the pages verification refused and the certificates that failed, with reasons;
// PROFILE_KEEP_OUTPUT=out.pdf keeps the first round's output (to read with pdftotext -bbox, mutool).
// First, as in the worker's entry (worker/native-builtins.ts).
import { restoreNativeBuiltins } from '../worker/native-builtins.js';
import { setWorkerV8Flags } from '../main/jobs/pool.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { BurnBox, BurnSettings, ExportBurnTask } from '../main/common/export-tasks.js';
import { assemble } from '../worker/burn-in/assemble.js';
import { burnPages } from '../worker/burn-in/burn.js';
import { searchOutput, verify } from '../worker/burn-in/verify.js';
import { corpusBoxes } from './export.js';
import { geometry } from './lib/fidelity-pages.js';
import { displayWords } from './lib/poppler.js';

restoreNativeBuiltins();
// The pool's V8 flags (main/jobs/pool.ts), so this thread allocates as the pool's threads do.
setWorkerV8Flags();

const PAGES = 50;
const WORDS = 'records request memorandum department review schedule finance public office notice budget contract'.split(' ');

async function input() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const boxes = new Map<number, BurnBox[]>();
  for (let number = 1; number <= PAGES; number += 1) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Department memorandum ${number} of ${PAGES}`, { x: 72, y: 730, size: 16, font: bold });
    for (let line = 0; line < 40; line += 1) {
      const y = 700 - line * 15;
      const text = Array.from({ length: 12 }, (_, index) => WORDS[(number * 7 + line * 5 + index) % WORDS.length]).join(' ');
      page.drawText(text, { x: 72, y, size: 11, font });
      if (line % 8 === 3) {
        const words = text.split(' ');
        const start = 72 + font.widthOfTextAtSize(`${words.slice(0, 2).join(' ')} `, 11);
        const list = boxes.get(number) ?? [];
        list.push({ x1: start - 1, y1: y - 3, x2: start + font.widthOfTextAtSize(words[2] ?? '', 11) + 1, y2: y + 10, points: [], label: '(b)(6)' });
        boxes.set(number, list);
      }
    }
  }
  return { bytes: Buffer.from(await doc.save()), boxes };
}

/** A given file, with up to five boxes a page over its own words, as the export bench's corpus run. */
function fileInput(file: string): { bytes: Buffer; boxes: Map<number, BurnBox[]> } {
  const bytes = fs.readFileSync(file);
  const boxes = new Map<number, BurnBox[]>();
  for (const { page, box } of corpusBoxes(displayWords(bytes, true), geometry(bytes, os.tmpdir()))) {
    boxes.set(page, [...(boxes.get(page) ?? []), { ...box, points: [], label: '(b)(6)' }]);
  }
  return { bytes, boxes };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-profile-export-'));
const time = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const from = process.hrtime.bigint() / 1000n;
  const result = await work();
  const used = process.cpuUsage(cpu);
  if (process.env.PROFILE_MARKS) console.log(`mark ${name} ${from} ${process.hrtime.bigint() / 1000n} ${(started).toFixed(0)} ${performance.now().toFixed(0)}`);
  console.log(`${name}: ${(performance.now() - started).toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`);
  return result;
};
try {
  const { bytes, boxes } = process.env.PROFILE_FILE ? fileInput(process.env.PROFILE_FILE) : await input();
  const sourcePath = path.join(dir, 'source.pdf');
  fs.writeFileSync(sourcePath, bytes);
  const settings: BurnSettings = { dpi: 200, padding: 1, labels: true, imageMode: 'auto', jpegQuality: 80, method: 'auto' };
  const source = { documentId: 1, path: sourcePath, documentType: 'pdf' as const };
  const requests = [...boxes.entries()].map(([page, list]) => ({ page, boxes: list, words: null }));
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round += 1) {
    const workPrefix = path.join(dir, `work${round}`);
    const task: ExportBurnTask = { kind: 'export-burn', exportId: 1, source, pages: requests, allPages: false, settings, workPrefix, sweepExcept: requests.map((request) => request.page) };
    const burned = await time('burn', () => burnPages(task, () => undefined));
    const outputPath = `${workPrefix}-out.pdf`;
    const assembled = await time('assemble', () => assemble({ kind: 'export-assemble', exportId: 1, outputPath, cover: null, documents: [{ source, pageCount: burned.pageCount, burned: burned.pages }], settings, workPrefix, stamps: null }, () => undefined));
    const verified = await time('verify', () => verify({ kind: 'export-verify', exportId: 1, path: outputPath, sha256: assembled.sha256, expectedPages: assembled.pages, checks: assembled.checks, structure: true }));
    await time('search', () => searchOutput({ kind: 'export-search', exportId: 1, path: outputPath, format: 'pdf', withheld: verified.withheld ?? [], sha256: assembled.sha256, ...(verified.pageText && { pageText: verified.pageText }) }));
    const failed = (verified.verification.certificates ?? []).filter((certificate) => !certificate.passed).length;
    if (process.env.PROFILE_SHOW_REFUSED) console.log(JSON.stringify({ refused: verified.refused ?? [], failed: (verified.verification.certificates ?? []).filter((certificate) => !certificate.passed) }));
    console.log(`refused ${verified.refused?.length ?? 0}, certificates ${verified.verification.certificates?.length ?? 0}; pages ${assembled.pages}, vector ${burned.pages.filter((page) => page.method === 'vector').length}, certificates failed ${failed}, size ${assembled.size}, sha256 ${assembled.sha256.slice(0, 12)}`);
  }
} finally {
  if (process.env.PROFILE_KEEP_OUTPUT && fs.existsSync(path.join(dir, 'work0-out.pdf'))) fs.copyFileSync(path.join(dir, 'work0-out.pdf'), process.env.PROFILE_KEEP_OUTPUT);
  fs.rmSync(dir, { recursive: true, force: true });
}
