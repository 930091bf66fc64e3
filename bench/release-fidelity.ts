import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeWords, differingPixels, differingWithin, editDistance, geometry, INK_KEPT, inkWithin, lacking, layersOff, toDisplay, toUser, WORD_PIXELS, type PageGeometry, type Rect } from './lib/fidelity-pages.js';
import { fmt, fmtInt } from './lib/format.js';
import { displayWords, greyPage, pdftoppmMs, type DisplayWord } from './lib/poppler.js';
import { oracleSelfChecks } from './lib/oracle-self-checks.js';
import { fold, Haystack, leakedStrings, pageVisibility, type Visibility } from './lib/release-oracle.js';
import { annotationAreas, pdfjsGreyPage, type OpenPdf } from './lib/pdfjs-render.js';
import { chromiumPdf, libreOfficePdf, pdftexWithFigures, postscriptLines, ps2pdf, qpdfEncrypted } from './lib/producers.js';
import type { Benchmark, BenchReport, Check } from './types.js';

// Issue 15's bench, with issue 25's measures: the release shows exactly what was marked, and nothing a reader can
// find carries what was boxed or hidden. Over the real-world corpus, PDFs made here by real producers, and every
// adversarial kind of test/helpers/adversarial-pdfs.ts (vertical CJK, links, ActualText, OCR and invisible text,
// form fields, outline and title, a layer that is off, outside the crop box, under an image or fill), the script
// boxes words it picks from each page's own text (poppler), or the adversarial kind's plain-view secret, exports
// with the defaults through the HTTP API, and reads the output back with poppler, qpdf and Ghostscript only:
// leaked (a withheld string found more often than its allowance in pdftotext -raw, pdftotext -layout or any
// decompressed object), words missing outside the drawn black, characters changed in the words kept, pixels
// changed outside the drawn black on pages redacted in their content; and how far the black reaches beyond the
// boxes as asked. Size and time against pdftoppm -r 200 of the boxed pages, pages in content vs rendered.
// BENCH_FIDELITY_FILES=N limits the corpus files (default all); BENCH_FIDELITY_MATCH=a,b keeps only the inputs
// (corpus, made or adversarial) whose name contains one of them; BENCH_FIDELITY_KEEP=dir writes each input and its
// release there.

const CORPUS = new URL('../../shared/corpora/realworld-pdfs/', import.meta.url);
const dist = new URL('../dist/main/', import.meta.url);
const load = async <T>(file: string): Promise<T> => (await import(new URL(file, dist).href)) as T;
const DPI = 100;
const PADDING = 1;


interface Input {
  name: string;
  bytes: Buffer;
  /** From ../shared/corpora/realworld-pdfs (the issue's ≥ 90% goal is about these), not made here by a producer. */
  corpus: boolean;
  /** An adversarial kind's box (PDF user space) over its plain-view secret; other inputs get words picked. */
  secret?: { page: number; box: Rect; text: string };
}

/** BENCH_FIDELITY_MATCH: whether an input of this name is wanted (made inputs are made only then). */
function wanted(name: string): boolean {
  const match = process.env.BENCH_FIDELITY_MATCH ?? '';
  return match.split(',').some((part) => name.includes(part));
}

async function produced(log: (message: string) => void): Promise<Input[]> {
  const inputs: Input[] = [];
  const attempt = async (name: string, make: () => Buffer | Promise<Buffer>) => {
    if (!wanted(name) && !wanted(`${name}, qpdf AES-256`)) return;
    try {
      inputs.push({ name, bytes: await make(), corpus: false });
    } catch (error) {
      log(`  ${name}: the producer failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  };
  const lines = ['Minutes of the harbour committee meeting held on Tuesday', 'Present were the chair, the treasurer and four members', 'The treasurer reported on the dredging contract and invoices', 'Members asked whether the Westmoor quotation included haulage', 'The meeting closed at nine with thanks to the secretary'];
  await attempt('made: LibreOffice Writer', () => libreOfficePdf(lines.join('\n\n')));
  await attempt('made: Chromium e-mail', () =>
    chromiumPdf(`<!doctype html><meta charset="utf-8"><body style="font:14px sans-serif;margin:40px"><table style="border-collapse:collapse"><tr><td><b>From:</b> Dana Whitfield &lt;dana@example.org&gt;</td></tr><tr><td><b>Subject:</b> Doorbell camera footage request</td></tr></table><p>Hi Sam,</p><p>${lines.join('. ')}.</p><p>Home address: 41 Larkspur Lane. The house has doorbell cameras on both entrances.</p><p>Regards,<br>Dana</p></body>`),
  );
  await attempt('made: Ghostscript ps2pdf', () => ps2pdf(postscriptLines(lines)));
  await attempt('made: pdfTeX with figures', () => pdftexWithFigures(lines));
  const encryptable = inputs.filter((input) => input.name.includes('LibreOffice') || input.name.includes('pdfTeX'));
  for (const input of encryptable) await attempt(`${input.name}, qpdf AES-256`, () => qpdfEncrypted(input.bytes));
  return inputs.filter((input) => wanted(input.name));
}

/**
 * Every adversarial kind of issue 25, made by its real producer (test/helpers/adversarial-pdfs.ts, shared with the
 * tests), boxed where the kind says its secret is drawn in plain view (placed by poppler or mutool).
 */
async function adversarial(log: (message: string) => void): Promise<Input[]> {
  const { ADVERSARIAL_KINDS } = await import('../test/helpers/adversarial-pdfs.js');
  const inputs: Input[] = [];
  for (const [kind, make] of Object.entries(ADVERSARIAL_KINDS)) {
    const name = `adversarial: ${kind}`;
    if (!wanted(name)) continue;
    try {
      const pdf = await make();
      inputs.push({ name, bytes: pdf.bytes, corpus: false, secret: { page: pdf.page, box: pdf.box, text: pdf.secret } });
    } catch (error) {
      log(`  ${name}: the producer failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  return inputs;
}

/** A deterministic pick of up to 4 words over the first pages with text: long words, spread over the page. */
function pickWords(words: readonly DisplayWord[], name: string): DisplayWord[] {
  let seed = [...name].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const picked: DisplayWord[] = [];
  const pages = [...new Set(words.map((word) => word.page))].slice(0, 2);
  for (const page of pages) {
    const candidates = words.filter((word) => word.page === page && [...word.text].length >= 4 && /\p{L}{3}/u.test(word.text) && word.x2 - word.x1 > 4);
    for (let count = 0; count < 2 && candidates.length > 0; count += 1) picked.push(...candidates.splice(Math.floor(next() * candidates.length), 1));
  }
  return picked;
}

function overlaps(a: Rect, b: Rect, margin = 0): boolean {
  return a.x1 - margin < b.x2 && b.x1 - margin < a.x2 && a.y1 - margin < b.y2 && b.y1 - margin < a.y2;
}

const nfkc = (text: string) => text.normalize('NFKC');
/** Letters (and digits) of a hidden word, its edge punctuation dropped; withheld when it has 4 or more. */
function hiddenText(text: string): string | null {
  const trimmed = text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return [...trimmed.replace(/[^\p{L}\p{N}]/gu, '')].length >= 4 ? trimmed : null;
}

interface FileResult {
  name: string;
  corpus: boolean;
  adversarial: boolean;
  boxes: number;
  /** Withheld strings found more often than their allowance in the output (page text or objects). */
  leaked: number;
  /** Source words shown outside every drawn area (hidden ones excluded) not in the output's text at their place. */
  missing: number;
  /** Of the missing, the ones visibly gone from their own area too (issue 15's "removed"). */
  removed: number;
  /** Code points changed in words kept (matched at their place only after NFKC). */
  changed: number;
  /** Pixels beyond the allowance outside the drawn black, pages redacted in their content. */
  pixels: number;
  /** The same on rendered pages (pdf.js on both sides): reported, not a Must-show figure. */
  renderedPixels: number;
  /** Pixels beyond the allowance outside the boxes as asked (with padding, without growth), content pages. */
  pixelsBeyondBoxes: number;
  /** Most the drawn black reaches beyond a box as asked (pt, from the export summary), and boxes grown. */
  growthMax: number;
  grownBoxes: number;
  /** Source words Ghostscript finds hidden on the boxed pages (not counted missing; withheld when 4+ letters). */
  hiddenWords: number;
  vector: number;
  rendered: number;
  reasons: string[];
  failures: string[];
  sizeRatio: number;
  timeRatio: number;
  renderedImages: { page: number; bytes: number; filter: string }[];
  error: string | null;
}

/** Where a withheld string may be: the boxed word (display space) or hidden text of the source. */
interface Boxed extends Rect {
  page: number;
  text: string;
}

export const releaseFidelity: Benchmark = {
  name: 'release-fidelity',
  description: 'Release fidelity over real-world, made and adversarial PDFs: leaks, words missing, characters changed, pixels outside the black, growth, content vs rendered, size, time (issues 15, 25)',
  async run(settings): Promise<BenchReport> {
    if (!fs.existsSync(new URL('jobs/export/index.js', dist))) throw new Error('dist/ is missing: run `npm run build:main` first');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-fidelity-'));
    const limit = Number(process.env.BENCH_FIDELITY_FILES ?? '0') || Infinity;
    const corpus = fs.existsSync(CORPUS) ? fs.readdirSync(CORPUS).filter((name) => name.endsWith('.pdf')).sort().slice(0, limit) : [];
    const inputs: Input[] = [
      ...corpus.filter(wanted).map((name) => ({ name, bytes: fs.readFileSync(new URL(name, CORPUS)), corpus: true })),
      ...(await produced(settings.log)),
      ...(await adversarial(settings.log)),
    ];
    const { runExports } = await import('./lib/fidelity-exports.js');
    const { openPdf } = await load<{ openPdf: OpenPdf }>('../worker/burn-in/pdfjs.js');
    // The oracle first proves on planted PDFs that it still reports what it must (bench/lib/oracle-self-checks.ts).
    const selfChecks = await oracleSelfChecks(openPdf);
    for (const check of selfChecks) settings.log(`  ${check.pass ? 'pass' : 'FAIL'} ${check.name}: ${check.detail}`);
    const results: FileResult[] = [];
    try {
      await runExports(dir, load, async (exportOne) => {
        for (const input of inputs) {
          const result: FileResult = {
            name: input.name,
            corpus: input.corpus,
            adversarial: input.secret !== undefined,
            boxes: 0,
            leaked: 0,
            missing: 0,
            removed: 0,
            changed: 0,
            pixels: 0,
            renderedPixels: 0,
            pixelsBeyondBoxes: 0,
            growthMax: 0,
            grownBoxes: 0,
            hiddenWords: 0,
            vector: 0,
            rendered: 0,
            reasons: [],
            failures: [],
            sizeRatio: 0,
            timeRatio: 0,
            renderedImages: [],
            error: null,
          };
          results.push(result);
          try {
            await measure(input, result, exportOne, openPdf, dir);
          } catch (error) {
            result.error = error instanceof Error ? (error.message.split('\n')[0] ?? 'failed') : String(error);
          }
          settings.log(
            `  ${input.name}: ${result.error ?? `${result.boxes} boxes, leaked ${result.leaked}, missing ${result.missing}, changed ${result.changed}, pixels ${result.pixels} (rendered pages ${result.renderedPixels}), growth ${result.growthMax} pt × ${result.grownBoxes}, ${result.vector} content / ${result.rendered} rendered`}`,
          );
          for (const failure of result.failures) settings.log(`    ${failure}`);
        }
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return report(results, selfChecks);
  },
};

type ExportOne = Parameters<Parameters<typeof import('./lib/fidelity-exports.js').runExports>[2]>[0];

async function measure(input: Input, result: FileResult, exportOne: ExportOne, openPdf: OpenPdf, dir: string): Promise<void> {
  // The crop box's words (what pdftoppm -cropbox draws), and, on unrotated pages whose crop box is smaller than
  // the media box, the media box's words outside the crop box: text the page does not show.
  const words = displayWords(input.bytes, true);
  const pages = geometry(input.bytes, dir);
  const pageOf = (page: number): PageGeometry => pages[page - 1] ?? { rotate: 0, crop: [0, 0, 612, 792], media: [0, 0, 612, 792] };
  const outsideCrop: DisplayWord[] = [];
  for (const word of displayWords(input.bytes)) {
    const { rotate, crop, media } = pageOf(word.page);
    if (rotate !== 0 || crop.every((value, index) => Math.abs(value - (media[index] ?? 0)) < 0.01)) continue;
    const shifted = { ...word, x1: word.x1 - (crop[0] - media[0]), x2: word.x2 - (crop[0] - media[0]), y1: word.y1 - (media[3] - crop[3]), y2: word.y2 - (media[3] - crop[3]) };
    if (shifted.x2 <= 0 || shifted.y2 <= 0 || shifted.x1 >= crop[2] - crop[0] || shifted.y1 >= crop[3] - crop[1]) outsideCrop.push(shifted);
  }
  const secret = input.secret;
  const boxed: Boxed[] = secret ? [{ page: secret.page, text: secret.text, ...toDisplay(secret.box, pageOf(secret.page)) }] : pickWords(words, input.name);
  if (boxed.length === 0) {
    result.error = 'no words to box';
    return;
  }
  result.boxes = boxed.length;
  const boxes = secret ? [{ page: secret.page, box: secret.box }] : boxed.map((word) => ({ page: word.page, box: toUser(word, pageOf(word.page)) }));
  const exported = await exportOne(input.name, input.bytes, boxes);
  const keep = process.env.BENCH_FIDELITY_KEEP;
  if (keep) {
    const base = path.join(keep, input.name.replace(/[^\w.-]+/g, '_').replace(/\.pdf$/, ''));
    fs.mkdirSync(keep, { recursive: true });
    fs.writeFileSync(`${base}.in.pdf`, input.bytes);
    fs.writeFileSync(`${base}.out.pdf`, exported.bytes);
    fs.writeFileSync(`${base}.boxes.json`, JSON.stringify({ boxed, boxes, grown: exported.grown, rendered: exported.rendered }, null, 1));
  }
  const boxedPages = [...new Set(boxed.map((word) => word.page))];
  result.timeRatio = exported.ms / pdftoppmMs(input.bytes, boxedPages);
  result.sizeRatio = exported.bytes.length / input.bytes.length;
  result.vector = exported.vectorPages;
  result.rendered = exported.rendered.length;
  result.reasons = exported.rendered.map((entry) => `p${entry.page}: ${entry.reason}`);
  result.renderedImages = exported.renderedImages;
  const grown = new Map(exported.grown.map((entry) => [entry.index, entry.growth]));
  result.grownBoxes = [...grown.values()].filter((growth) => growth > 0).length;
  result.growthMax = Math.max(0, ...grown.values());

  // What each source word on a boxed page is: shown, an OCR layer over the page's picture, or hidden (Ghostscript
  // with and without text, and with text alone). Hidden words are not "missing" when gone: they must go.
  const shownAs = new Map<DisplayWord, Visibility>();
  for (const page of boxedPages) {
    const onPage = words.filter((word) => word.page === page);
    try {
      for (const [word, seen] of pageVisibility(input.bytes, page, DPI, onPage, await annotationAreas(openPdf, input.bytes, page)).shownAs) shownAs.set(word, seen);
    } catch (error) {
      // Ghostscript cannot draw the page: every word counts as shown (none is excused as hidden).
      result.failures.push(`p${page}: Ghostscript cannot render the source (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); every word counts as shown`);
      for (const word of onPage) shownAs.set(word, 'shown');
    }
  }
  for (const word of [...outsideCrop, ...await layersOff(input.bytes, words)]) {
    words.push(word);
    shownAs.set(word, 'hidden');
  }
  const hidden = words.filter((word) => shownAs.get(word) === 'hidden');
  result.hiddenWords = hidden.length;

  // Leaks. Withheld: each boxed text, and each hidden word of 4+ letters. Allowance: how often the source shows
  // the string outside every box as asked (poppler's words, hidden ones left out), the same folding (NFKC, case)
  // on both sides; in objects, at least as often as the codes of pages kept in content say it (codeWords). Found:
  // in pdftotext -raw, in pdftotext -layout, and in the objects qpdf decompresses.
  const underBox = (word: DisplayWord) => boxed.some((box) => box.page === word.page && overlaps(box, word, -0.5));
  const shownText = new Haystack(
    [...new Set(words.map((word) => word.page))].map((page) => words.filter((word) => word.page === page && shownAs.get(word) !== 'hidden' && !underBox(word)).map((word) => word.text).join(' ')).join('\n'),
  );
  // Objects may also hold the codes of what pages kept in content show (rendered pages keep none of their own).
  const renderedPages = new Set(exported.rendered.map((entry) => entry.page));
  const hiddenAt = (word: DisplayWord) => hidden.some((other) => other.page === word.page && overlaps(other, word, -0.5));
  const codes = (await codeWords(input.bytes)).filter((word) => !renderedPages.has(word.page) && !underBox(word) && !hiddenAt(word));
  const shownCodes = new Haystack([...new Set(codes.map((word) => word.page))].map((page) => codes.filter((word) => word.page === page).map((word) => word.text).join(' ')).join('\n'));
  const withheld = new Map<string, string>();
  for (const word of boxed) withheld.set(word.text, `boxed p${word.page}`);
  for (const word of hidden) {
    const text = hiddenText(word.text);
    if (text !== null && !withheld.has(text)) withheld.set(text, `hidden p${word.page}`);
  }
  const withheldWords = new Set([...withheld.keys()].map(fold));
  const leaks = leakedStrings(withheld, shownText, shownCodes, exported.bytes);
  result.leaked += leaks.length;
  result.failures.push(...leaks);

  // Words missing, characters changed and pixels, page by page where boxes were drawn (display space of each file).
  const outputWords = displayWords(exported.bytes, true);
  const scale = DPI / 72;
  const pad = (word: Boxed, by: number) => ({ x1: word.x1 - by, y1: word.y1 - by, x2: word.x2 + by, y2: word.y2 + by });
  for (const page of boxedPages) {
    const onPage = boxed.flatMap((word, index) => (word.page === page ? [{ word, index }] : []));
    // What the export reports as drawn: the box with its padding, grown by the growth it reports for the box.
    const drawn = onPage.map(({ word, index }) => pad(word, PADDING + (grown.get(index) ?? 0)));
    const asked = onPage.map(({ word }) => pad(word, PADDING));
    // A word that is or holds a withheld text (an /ActualText span standing for a boxed name, "Vashti Okafor." over
    // "the clerk.") is governed by its allowance under "leaked", not missed when it goes.
    const withholds = (text: string) => [fold(text), ...fold(text).split(' ')].some((part) => withheldWords.has(part.replace(/[\p{P}\p{S}]+$/u, '')));
    const outside = words.filter((word) => word.page === page && shownAs.get(word) !== 'hidden' && !drawn.some((area) => overlaps(area, word, 0.5)) && !withholds(word.text));
    const out = outputWords.filter((word) => word.page === page);
    const maskOf = (areas: readonly Rect[]) => areas.map((area) => ({ x1: area.x1 * scale - 2, y1: area.y1 * scale - 2, x2: area.x2 * scale + 2, y2: area.y2 * scale + 2 }));
    const isRendered = exported.rendered.some((entry) => entry.page === page);
    // Same engine on both sides: poppler for pages redacted in their content, pdf.js (which drew the page image)
    // for rendered pages.
    const before = isRendered ? await pdfjsGreyPage(openPdf, input.bytes, page, DPI) : greyPage(input.bytes, page, DPI);
    const after = isRendered ? await pdfjsGreyPage(openPdf, exported.bytes, page, DPI) : greyPage(exported.bytes, page, DPI);
    // Like with like: pdftotext reads both sides. A rendered page's text is its invisible layer, which may place a
    // word a little off its glyphs: rendered pages match at ±(1.5 pt + the word's height), and a layer's run may
    // hold several words ("glued"). A word matches on its NFKC form; its code points are then compared as they are.
    const near = (candidate: DisplayWord, word: DisplayWord) => {
      const slack = isRendered ? 1.5 + (word.y2 - word.y1) : 1.5;
      return Math.abs(candidate.x1 - word.x1) <= slack && Math.abs(candidate.y2 - word.y2) <= (isRendered ? slack : 3);
    };
    const glued = (candidate: DisplayWord, word: DisplayWord) => isRendered && nfkc(candidate.text).includes(nfkc(word.text)) && candidate.x1 <= word.x1 + 1.5 && candidate.x2 >= word.x2 - 1.5 && Math.abs(candidate.y2 - word.y2) <= 1.5 + (word.y2 - word.y1);
    for (const word of outside) {
      const exact = out.find((candidate) => (candidate.text === word.text && near(candidate, word)) || (glued(candidate, word) && candidate.text.includes(word.text)));
      if (exact) continue;
      const folded = out.find((candidate) => nfkc(candidate.text) === nfkc(word.text) && near(candidate, word)) ?? out.find((candidate) => glued(candidate, word));
      if (folded) {
        const changed = nfkc(folded.text) === nfkc(word.text) ? editDistance(word.text, folded.text) : lacking(word.text, folded.text);
        result.changed += changed;
        result.failures.push(`changed p${page}${isRendered ? ' (rendered)' : ''}: ${JSON.stringify(word.text)} [${[...word.text].map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ')}] → ${JSON.stringify(folded.text)}`);
        continue;
      }
      result.missing += 1;
      const area = { x1: word.x1 * scale, y1: word.y1 * scale, x2: word.x2 * scale, y2: word.y2 * scale };
      // Visibly gone, not just missing from the text: its own area changed and under half its ink is left.
      const gone = differingWithin(before, after, area, isRendered ? 96 : 64, isRendered) > WORD_PIXELS && inkWithin(after, area) < INK_KEPT * inkWithin(before, area);
      if (gone) result.removed += 1;
      result.failures.push(`missing p${page}${isRendered ? ' (rendered)' : ''}: ${JSON.stringify(word.text)} at ${[word.x1, word.y1, word.x2, word.y2].map((value) => value.toFixed(1)).join(',')}${shownAs.get(word) === 'ocr-layer' ? ' (OCR layer)' : ''}, ${gone ? 'visibly gone' : 'still drawn, not in the text'}`);
    }
    const allowed = 24;
    const second = isRendered ? undefined : { a: await pdfjsGreyPage(openPdf, input.bytes, page, DPI), b: await pdfjsGreyPage(openPdf, exported.bytes, page, DPI) };
    const differing = Math.max(0, differingPixels(before, after, maskOf(drawn), isRendered ? 96 : 64, isRendered, second) - allowed);
    if (isRendered) result.renderedPixels += differing;
    else {
      result.pixels += differing;
      result.pixelsBeyondBoxes += Math.max(0, differingPixels(before, after, maskOf(asked), 64, false, second) - allowed);
      if (differing > 0) result.failures.push(`pixels p${page}: ${differing} outside the drawn black`);
    }
  }
  if (result.failures.length > 12) result.failures.splice(12, result.failures.length - 12, `… ${result.failures.length - 12} more`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN);
}

function report(results: FileResult[], selfChecks: Check[]): BenchReport {
  const done = results.filter((result) => result.error === null);
  type Summed = 'leaked' | 'missing' | 'removed' | 'changed' | 'pixels' | 'renderedPixels' | 'pixelsBeyondBoxes' | 'grownBoxes' | 'hiddenWords' | 'vector' | 'rendered' | 'boxes';
  const sum = (key: Summed) => done.reduce((total, result) => total + result[key], 0);
  const contentOnly = done.filter((result) => result.rendered === 0 && result.vector > 0).map((result) => result.sizeRatio);
  const imageBytes = done.flatMap((result) => result.renderedImages.map((image) => image.bytes));
  const growthMax = Math.max(0, ...done.map((result) => result.growthMax));
  const table = [
    ['input', 'boxes', 'leaked', 'missing', 'changed', 'pixels', 'growth pt', 'grown', 'px beyond box', 'hidden', 'content', 'rendered', 'size ×', 'time ×'],
    ...results.map((result) =>
      result.error
        ? [result.name, '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', `error: ${result.error.slice(0, 60)}`]
        : [
            result.name,
            String(result.boxes),
            String(result.leaked),
            String(result.missing),
            String(result.changed),
            fmtInt(result.pixels),
            fmt(result.growthMax),
            String(result.grownBoxes),
            fmtInt(result.pixelsBeyondBoxes),
            String(result.hiddenWords),
            String(result.vector),
            String(result.rendered),
            fmt(result.sizeRatio),
            fmt(result.timeRatio),
          ],
    ),
    [
      'total',
      String(sum('boxes')),
      String(sum('leaked')),
      String(sum('missing')),
      String(sum('changed')),
      fmtInt(sum('pixels')),
      fmt(growthMax),
      String(sum('grownBoxes')),
      fmtInt(sum('pixelsBeyondBoxes')),
      String(sum('hiddenWords')),
      String(sum('vector')),
      String(sum('rendered')),
      fmt(median(done.map((result) => result.sizeRatio))),
      fmt(median(done.map((result) => result.timeRatio))),
    ],
  ];
  const reasons = new Map<string, number>();
  for (const result of done) for (const reason of result.reasons) reasons.set(reason.replace(/^p\d+: /, ''), (reasons.get(reason.replace(/^p\d+: /, '')) ?? 0) + 1);
  const pages = sum('vector') + sum('rendered');
  // The ≥ 90% goal counts the corpus's pages only; the made PDFs (all redacted in content) would flatter it.
  const corpusDone = done.filter((result) => result.corpus);
  const corpusVector = corpusDone.reduce((total, result) => total + result.vector, 0);
  const corpusRendered = corpusDone.reduce((total, result) => total + result.rendered, 0);
  const corpusShare = corpusVector + corpusRendered > 0 ? (100 * corpusVector) / (corpusVector + corpusRendered) : Number.NaN;
  const renderedPages = done.flatMap((result) =>
    result.reasons.map((reason) => {
      const page = Number(/^p(\d+):/.exec(reason)?.[1]);
      const image = result.renderedImages.find((entry) => entry.page === page);
      return { line: `${result.name} ${reason}${image ? ` [page image ${fmtInt(image.bytes)} bytes, ${image.filter}]` : ''}`, bytes: image?.bytes ?? 0, name: `${result.name} p${page}` };
    }),
  );
  const worstImage = renderedPages.reduce<{ bytes: number; name: string } | null>((worst, entry) => (worst === null || entry.bytes > worst.bytes ? entry : worst), null);
  const failing = results.filter((result) => result.error !== null || result.leaked + result.missing + result.changed + result.pixels > 0);
  return {
    title: `Release fidelity: ${results.length} inputs (${results.filter((result) => result.corpus).length} corpus, ${results.filter((result) => result.adversarial).length} adversarial), ${sum('boxes')} boxes`,
    table,
    notes: [
      'leaked: withheld strings (each boxed text; each hidden source word of 4+ letters) found more often than the source shows them outside every box (poppler words, hidden ones left out; NFKC, case-folded) in pdftotext -raw, pdftotext -layout, or the strings and stream data of any object qpdf --qdf decompresses or no reference reaches (literal, hex, UTF-16, names, percent-decoded URIs, XMP; there also as often as the codes of pages kept in content spell it: a Symbol string\'s lazy for λαζψ; not CMap operators; TJ pieces joined across kerns under 0.1 em)',
      `missing: source words shown outside every drawn area (box + 1 pt padding + the growth the export reports; Ghostscript-hidden words left out, OCR layers over the page's picture kept) not read by pdftotext in the output at their place (NFKC; ±1.5 pt, rendered pages ±1.5 pt + the word's height; ${sum('removed')} of them also visibly gone); changed: code points that differ in the words kept, matched at their place only after NFKC`,
      `pixels: 100 dpi pixels changed (pdftoppm on both sides, 64 grey levels, and changed by pdf.js's rendering as well: renderers snap glyphs, not shapes, to their own grid) beyond each page's allowance (24) outside the drawn areas grown by 2 px, pages redacted in their content; rendered pages (pdf.js on both sides, 2×2 cells, 96 grey levels): ${fmtInt(sum('renderedPixels'))}`,
      `growth: the most the drawn black reaches beyond a box as asked (summary.burn.grown, pt) and the boxes grown; px beyond box: pixels changed outside the boxes as asked (padding, no growth), content pages: what the growth costs; hidden: source words on boxed pages Ghostscript finds not shown (off layer, invisible, outside the crop box, covered; each on its own area, less other words' boxes)`,
      `pages with boxes: ${sum('vector')} redacted in their content, ${sum('rendered')} rendered (${pages > 0 ? fmt((100 * sum('vector')) / pages, 0) : '-'}% in content); corpus only (realworld-pdfs, the issue's goal): ${corpusVector} / ${corpusRendered} (${Number.isNaN(corpusShare) ? '-' : fmt(corpusShare, 0)}% in content)`,
      ...[...reasons.entries()].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `  rendered ×${count}: ${reason}`),
      'rendered pages:',
      ...renderedPages.map((entry) => `  ${entry.line}`),
      `size ratio, files redacted wholly in their content: median ${fmt(median(contentOnly))}×, worst ${fmt(Math.max(0, ...contentOnly))}×; rendered page images: median ${fmtInt(median(imageBytes))} bytes, worst ${fmtInt(Math.max(0, ...imageBytes))} bytes`,
      'time ratio: export wall time (POST to completed) / pdftoppm -r 200 of the boxed pages; size ratio: output / input',
      `failing inputs: ${failing.length === 0 ? 'none' : ''}`,
      ...failing.flatMap((result) => [`  ${result.name}${result.error ? `: ${result.error}` : ''}`, ...result.failures.map((failure) => `    ${failure}`)]),
    ],
    checks: [
      { name: 'every input exported and measured', pass: done.length === results.length, detail: `${results.length - done.length} failed`, required: true },
      { name: 'no withheld string leaked', pass: sum('leaked') === 0, detail: String(sum('leaked')), required: true },
      { name: 'no word missing outside the drawn black', pass: sum('missing') === 0, detail: String(sum('missing')), required: true },
      { name: 'no character changed in the words kept', pass: sum('changed') === 0, detail: String(sum('changed')), required: true },
      { name: 'no pixel beyond the allowance outside the drawn black, pages redacted in their content', pass: sum('pixels') === 0, detail: fmtInt(sum('pixels')), required: true },
      { name: 'content-redacted files ≤ 1.5× the input', pass: contentOnly.every((ratio) => ratio <= 1.5), detail: `worst ${fmt(Math.max(0, ...contentOnly))}×` },
      { name: 'rendered page images ≤ 150 KB', pass: imageBytes.every((bytes) => bytes <= 150 * 1024), detail: `worst ${fmtInt(Math.max(0, ...imageBytes))} bytes${worstImage ? `, ${worstImage.name}` : ''}` },
      { name: 'corpus pages with boxes ≥ 90% redacted in their content', pass: corpusShare >= 90, detail: `${corpusVector} of ${corpusVector + corpusRendered}` },
      ...selfChecks,
    ],
    data: results,
  };
}
