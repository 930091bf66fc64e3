// Developer harness (not a benchmark): what reading a page's glyphs costs (worker/pdf-glyphs), on the export bench's
// 50 memo pages, their operator lists built first so only the reading is timed:
// `node --import tsx bench/profile-glyphs.ts` (each page's glyphs dropped at once), `KEEP=1` (kept for the round,
// as an export keeps its sources' readings from the burn to the check). Prints CPU (user, system) and minor page
// faults a round, medians of the rounds after the first ten.
// First, as in the worker's entry (worker/native-builtins.ts).
import { restoreNativeBuiltins } from '../worker/native-builtins.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { openPdf } from '../worker/burn-in/pdfjs.js';
import { readGlyphs, type Glyph } from '../worker/pdf-glyphs/index.js';

restoreNativeBuiltins();

const PAGES = 50;
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const WARM_ROUNDS = 10;
const WORDS = 'records request memorandum department review schedule finance public office notice budget contract'.split(' ');

const doc = await PDFDocument.create();
const font = await doc.embedFont(StandardFonts.Helvetica);
for (let number = 1; number <= PAGES; number += 1) {
  const page = doc.addPage([612, 792]);
  for (let line = 0; line < 40; line += 1) {
    page.drawText(Array.from({ length: 12 }, (_, index) => WORDS[(number * 7 + line * 5 + index) % WORDS.length]).join(' '), { x: 72, y: 700 - line * 15, size: 11, font });
  }
}
const pdf = await openPdf(await doc.save());
const pages = [];
for (let number = 1; number <= PAGES; number += 1) {
  const page = await pdf.getPage(number);
  await page.getOperatorList({ intent: 'display', annotationMode: 1 });
  pages.push(page);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const user: number[] = [];
const system: number[] = [];
const faults: number[] = [];
let glyphs = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  const cpu = process.cpuUsage();
  const faultsBefore = process.resourceUsage().minorPageFault;
  const kept: Glyph[][] = [];
  glyphs = 0;
  for (const page of pages) {
    const read = await readGlyphs(pdf, page);
    glyphs += read.length;
    if (process.env.KEEP) kept.push(read);
  }
  const used = process.cpuUsage(cpu);
  if (round < WARM_ROUNDS) continue;
  user.push(used.user / 1000);
  system.push(used.system / 1000);
  faults.push(process.resourceUsage().minorPageFault - faultsBefore);
}
await pdf.destroy();
console.log(`${glyphs} glyphs a round, ${process.env.KEEP ? 'kept for the round' : 'each page dropped at once'}: CPU ${median(user).toFixed(1)} ms user, ${median(system).toFixed(1)} ms system, ${median(faults)} page faults (medians of ${user.length} rounds)`);
