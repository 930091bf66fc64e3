import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { withFile, type GreyPage } from './poppler.js';

// Independent readings of a PDF for the release-fidelity bench (issue 25), with no code shared with the builder
// or its release check: every string of every object after qpdf decompresses them (literal, hex, UTF-16, names,
// percent-decoded URIs, raw stream data such as XMP), poppler's page text in two modes, and Ghostscript's
// renderings with text, or images and vector fills, left out (what a page shows and what it hides).


/** Matching form: NFKC, lower case, whitespace runs as one space. */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A text folded once for many searches (and without whitespace, for CJK needles). */
export class Haystack {
  readonly folded: string;
  #compact: string | null = null;
  constructor(text: string) {
    this.folded = fold(text);
  }
  get compact(): string {
    this.#compact ??= this.folded.replace(/\s/g, '');
    return this.#compact;
  }
}

/** Occurrences of `needle` in `haystack`, both folded; CJK needles ignore whitespace (readers split columns). */
export function occurrences(haystack: string | Haystack, needle: string): number {
  const stack = typeof haystack === 'string' ? new Haystack(haystack) : haystack;
  let hay = stack.folded;
  let want = fold(needle).trim();
  if (CJK.test(want)) {
    hay = stack.compact;
    want = want.replace(/\s/g, '');
  }
  if (want === '') return 0;
  let count = 0;
  for (let at = hay.indexOf(want); at >= 0; at = hay.indexOf(want, at + want.length)) count += 1;
  return count;
}

/** pdftotext of every page in `-raw` (content order) or `-layout` mode. */
export function pageText(bytes: Buffer, mode: 'raw' | 'layout'): string {
  return withFile(bytes, (file) => execFileSync('pdftotext', ['-q', `-${mode}`, file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
}

/** One reading of one object: where it is (object number and the key or stream it sits under) and its text. */
export interface ObjectReading {
  object: number;
  place: string;
  text: Haystack;
}

function latin1(bytes: number[]): string {
  return Buffer.from(bytes).toString('latin1');
}

/** Bytes of a PDF string as text: UTF-16BE or UTF-8 with their byte-order marks, else Latin-1 (≈ PDFDocEncoding). */
function decodeString(bytes: number[]): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.slice(2)).swap16().toString('utf16le');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return Buffer.from(bytes.slice(3)).toString('utf8');
  return latin1(bytes);
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/%(?![0-9a-f]{2})/gi, '%25'));
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** A TJ gap (thousandths of an em) that separates words: poppler's word break (0.1 of the font size). */
const WORD_GAP = 100;

/**
 * The strings of a dictionary or content stream, in order, each with the last name before it (its key, or its
 * operator's resource): literal strings with their escapes, hex strings, names with #xx escapes. Strings side by
 * side in one array (a TJ's pieces between kerns) are also read joined, as a reader would: a kern that opens a gap
 * of a word space or more (WORD_GAP) joins them with a space, a smaller one (kerning inside a word) without.
 */
function tokens(source: string): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = [];
  let key = '';
  let joined: string[] | null = null;
  let pieces = 0;
  const push = (text: string) => {
    out.push({ key, text });
    if (joined) {
      joined.push(text);
      pieces += 1;
    }
  };
  for (let at = 0; at < source.length; at += 1) {
    const char = source[at];
    if (char === '%' && (at === 0 || source[at - 1] === '\n' || source[at - 1] === '\r' || source[at - 1] === ' ')) {
      // A comment (QDF writes "%% Original object ID" lines): to the end of the line.
      const end = source.indexOf('\n', at);
      at = end < 0 ? source.length : end;
    } else if (char === '(') {
      const bytes: number[] = [];
      let depth = 1;
      for (at += 1; at < source.length && depth > 0; at += 1) {
        const c = source.charCodeAt(at);
        if (c === 0x5c) {
          at += 1;
          const next = source[at] ?? '';
          const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
          if (next in escapes) bytes.push(escapes[next] as number);
          else if (/[0-7]/.test(next)) {
            const octal = /^[0-7]{1,3}/.exec(source.slice(at, at + 3))?.[0] ?? '0';
            bytes.push(parseInt(octal, 8) & 0xff);
            at += octal.length - 1;
          } else if (next === '\r' && source[at + 1] === '\n') at += 1;
          else if (next !== '\n' && next !== '\r') bytes.push(source.charCodeAt(at));
        } else if (c === 0x28) {
          depth += 1;
          bytes.push(c);
        } else if (c === 0x29) {
          depth -= 1;
          if (depth > 0) bytes.push(c);
        } else bytes.push(c);
      }
      at -= 1;
      push(decodeString(bytes));
    } else if (char === '<' && source[at + 1] !== '<') {
      const end = source.indexOf('>', at);
      if (end < 0) break;
      const hex = source.slice(at + 1, end).replace(/[^0-9a-f]/gi, '');
      const bytes = (hex.length % 2 ? `${hex}0` : hex).match(/../g)?.map((pair) => parseInt(pair, 16)) ?? [];
      push(decodeString(bytes));
      at = end;
    } else if (char === '<' || char === '>') {
      at += source[at + 1] === char ? 1 : 0;
    } else if (char === '/') {
      const name = /^\/[^\s/<>[\]()%{}]*/.exec(source.slice(at, at + 300))?.[0] ?? '/';
      const decoded = name.slice(1).replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      // The format's own names (/FontFile, /LastChar…) are vocabulary, not text: a name is read when it is a font's
      // or a thing's name (after /BaseFont, /FontName, /FontFamily, /Name, /T) or is no plain capitalised identifier.
      if (/^\/(?:BaseFont|FontName|FontFamily|Name|T)$/.test(key) || !/^[A-Z][A-Za-z0-9]*$/.test(decoded)) {
        out.push({ key, text: Buffer.from(decoded, 'latin1').toString('utf8').includes('\ufffd') ? decoded : Buffer.from(decoded, 'latin1').toString('utf8') });
      }
      key = name;
      at += name.length - 1;
    } else if (char === '[') {
      joined = [];
      pieces = 0;
    } else if (char === ']') {
      if (joined && pieces > 1) out.push({ key: `${key} (array joined)`, text: joined.join('') });
      joined = null;
    } else if (joined && char !== undefined && /[-+.\d]/.test(char)) {
      // A TJ number: thousandths of an em the next piece moves left; a gap (negative) of a word space or more
      // is where poppler starts a new word.
      const number = /^[-+]?(?:\d+\.?\d*|\.\d+)/.exec(source.slice(at, at + 32))?.[0] ?? char;
      if (-Number(number) >= WORD_GAP) joined.push(' ');
      at += Math.max(0, number.length - 1);
    }
  }
  return out;
}

/** CMap operators and keys (every ToUnicode map says "begincodespacerange"): the format's words, not text. */
const CMAP_VOCABULARY = /\b(?:(?:begin|end)(?:cmap|codespacerange|bfchar|bfrange|cidchar|cidrange|notdefchar|notdefrange|usematrix)|findresource|defineresource|usecmap|currentdict|CMapName|CMapType|CMapVersion|CIDSystemInfo|CIDInit|ProcSet|Registry|Ordering|Supplement|WMode)\b/g;

/** A stream's raw data with the CMap vocabulary blanked when the stream is a CMap; its strings stay. */
function withoutCMapVocabulary(data: string): string {
  return /\bbegincmap\b/.test(data) ? data.replace(CMAP_VOCABULARY, ' ') : data;
}

/** The readings of one object: its dictionary (PDF syntax) and its stream's decoded data (Latin-1), if any. */
function readObject(object: number, label: string, dict: string, data: string | null, readings: ObjectReading[]): void {
  const type = /\/(?:Type|Subtype) *\/(\w+)/.exec(dict)?.[1] ?? '';
  for (const token of tokens(dict)) {
    readings.push({ object, place: `${label}${type ? ` /${type}` : ''} ${token.key || 'value'}`, text: new Haystack(token.text) });
    if (/%[0-9a-f]{2}/i.test(token.text)) readings.push({ object, place: `${label}${type ? ` /${type}` : ''} ${token.key} (percent-decoded)`, text: new Haystack(percentDecoded(token.text)) });
  }
  if (data === null) return;
  const where = `${label} stream${type ? ` /${type}` : ''}`;
  // Raw data of every stream but images and font programs (their bytes spell words by chance and carry glyph
  // names): XMP, content, ToUnicode maps, embedded files.
  if (!/\/Subtype *\/Image|\/FontFile|\/Length1|\/Subtype *\/(?:Type1C|CIDFontType0C|OpenType)/.test(dict) && data.length < 8 * 1024 * 1024) {
    const raw = withoutCMapVocabulary(data);
    readings.push({ object, place: `${where} (Latin-1 bytes)`, text: new Haystack(raw) });
    readings.push({ object, place: `${where} (UTF-8 bytes)`, text: new Haystack(Buffer.from(raw, 'latin1').toString('utf8')) });
    for (const token of tokens(data)) readings.push({ object, place: `${where} string ${token.key}`, text: new Haystack(token.text) });
  }
}

/** A value of qpdf's JSON (version 2) back in PDF syntax: "u:" and "b:" strings as hex strings, names, "n g R". */
function pdfSyntax(value: unknown): string {
  if (typeof value === 'string') {
    if (value.startsWith('u:')) return `<feff${Buffer.from(value.slice(2), 'utf16le').swap16().toString('hex')}>`;
    if (value.startsWith('b:')) return `<${value.slice(2)}>`;
    return value;
  }
  if (Array.isArray(value)) return `[${value.map(pdfSyntax).join(' ')}]`;
  if (value !== null && typeof value === 'object') return `<<${Object.entries(value).map(([key, entry]) => `${key} ${pdfSyntax(entry)}`).join(' ')}>>`;
  return String(value);
}

/**
 * Objects of the file no reference reaches (qpdf --qdf leaves them out, yet their bytes are in the file), read
 * through qpdf's JSON: every xref entry whose original number the QDF copy does not list.
 */
function unreachableObjects(file: string, qdf: string, readings: ObjectReading[]): void {
  const written = new Set([...qdf.matchAll(/%% Original object ID: (\d+) (\d+)/g)].map((match) => `${match[1]},${match[2]}`));
  let xref: string;
  try {
    xref = execFileSync('qpdf', ['--show-xref', file], { encoding: 'latin1', stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    xref = String((error as { stdout?: string }).stdout ?? '');
  }
  const unreached = [...xref.matchAll(/^(\d+)\/(\d+): (?:uncompressed|compressed)/gm)].map((match) => `${match[1]},${match[2]}`).filter((id) => !written.has(id));
  for (let at = 0; at < unreached.length; at += 500) {
    let json: string;
    try {
      json = execFileSync('qpdf', ['--json=2', '--json-key=qpdf', '--json-stream-data=inline', '--decode-level=generalized', ...unreached.slice(at, at + 500).map((id) => `--json-object=${id}`), file], { encoding: 'utf8', stdio: 'pipe', maxBuffer: 256 * 1024 * 1024 });
    } catch (error) {
      json = String((error as { stdout?: string }).stdout ?? '');
    }
    let objects: Record<string, { value?: unknown; stream?: { dict?: unknown; data?: string } }> = {};
    try {
      objects = ((JSON.parse(json) as { qpdf?: unknown[] }).qpdf?.[1] ?? {}) as typeof objects;
    } catch {
      continue;
    }
    for (const [id, entry] of Object.entries(objects)) {
      // Object and xref streams are containers: their objects are read one by one (in the QDF copy or here).
      const container = (entry.stream?.dict as Record<string, unknown> | undefined)?.['/Type'];
      if (container === '/ObjStm' || container === '/XRef') continue;
      const number = Number(/^obj:(\d+)/.exec(id)?.[1]);
      // Numbered apart from the QDF copy's own (renumbered) objects.
      const object = 1e9 + number;
      const data = entry.stream?.data === undefined ? null : Buffer.from(entry.stream.data, 'base64').toString('latin1');
      readObject(object, `unreachable obj ${number}`, pdfSyntax(entry.stream ? entry.stream.dict : entry.value), data, readings);
    }
  }
}

/**
 * Every reading of every object of the file after `qpdf --qdf --object-streams=disable --decrypt` (streams
 * decompressed where qpdf can), and of the objects no reference reaches: each string token under its key (also
 * percent-decoded), each stream's data as Latin-1 and as UTF-8, and the object's tokens. Empty when qpdf cannot
 * read the file.
 */
export function objectReadings(bytes: Buffer): ObjectReading[] {
  const readings: ObjectReading[] = [];
  const qdf = withFile(bytes, (file, dir) => {
    const out = path.join(dir, 'qdf.pdf');
    try {
      execFileSync('qpdf', ['--qdf', '--object-streams=disable', '--decrypt', file, out], { stdio: 'pipe', maxBuffer: 256 * 1024 * 1024 });
    } catch (error) {
      if ((error as { status?: number }).status !== 3) return '';
    }
    const text = fs.existsSync(out) ? fs.readFileSync(out).toString('latin1') : '';
    if (text !== '') unreachableObjects(file, text, readings);
    return text;
  });
  const objectPattern = /(?:^|\n)(\d+) (\d+) obj\n([\s\S]*?)\nendobj/g;
  for (const match of qdf.matchAll(objectPattern)) {
    const object = Number(match[1]);
    const body = match[3] ?? '';
    const streamAt = body.search(/(?:>>|\s)stream\r?\n/);
    const dict = streamAt >= 0 ? body.slice(0, streamAt + 2) : body;
    const data = streamAt >= 0 ? body.slice(body.indexOf('stream', streamAt) + 7).replace(/\r?\nendstream\s*$/, '') : null;
    readObject(object, `obj ${object}`, dict, data, readings);
  }
  return readings;
}

/**
 * Occurrences of `needle` in the file's objects: per object, the most any one reading kind finds (a string and
 * the raw bytes it was read from are one occurrence, not two), summed over objects; with the places it was found.
 */
export function objectOccurrences(readings: readonly ObjectReading[], needle: string): { count: number; places: string[] } {
  const perObject = new Map<number, Map<string, number>>();
  const places = new Set<string>();
  for (const reading of readings) {
    const found = occurrences(reading.text, needle);
    if (found === 0) continue;
    places.add(reading.place);
    const kind = reading.place.includes('(Latin-1 bytes)') ? 'latin1' : reading.place.includes('(UTF-8 bytes)') ? 'utf8' : reading.place.includes('percent-decoded') ? 'percent' : reading.place.includes('array joined') ? 'joined' : 'tokens';
    const kinds = perObject.get(reading.object) ?? new Map<string, number>();
    kinds.set(kind, (kinds.get(kind) ?? 0) + found);
    perObject.set(reading.object, kinds);
  }
  let count = 0;
  for (const kinds of perObject.values()) {
    // A token found both alone and in its array's joined reading is one occurrence.
    const tokensAndJoined = Math.max(kinds.get('tokens') ?? 0, kinds.get('joined') ?? 0) + (kinds.get('percent') ?? 0);
    count += Math.max(tokensAndJoined, kinds.get('latin1') ?? 0, kinds.get('utf8') ?? 0);
  }
  return { count, places: [...places] };
}

type GsFilter = 'FILTERTEXT' | 'FILTERIMAGE' | 'FILTERVECTOR' | 'ShowAnnots=false';

/** Ghostscript's words when it gave up on part of a page's content (the rest of the page is not drawn). */
const INCOMPLETE = /page may be incomplete|did not complete the page/i;

/**
 * One page rendered by Ghostscript in grey (crop box, as displayed), with `filters` (-dFILTERTEXT…) applied, by its
 * legacy interpreter or the new one; throws when Ghostscript fails or says it drew only part of the page.
 */
export function gsGreyPage(bytes: Buffer, page: number, dpi: number, filters: readonly GsFilter[] = [], interpreter: 'legacy' | 'new' = 'legacy'): GreyPage {
  return withFile(bytes, (file, dir) => {
    const out = path.join(dir, 'page.pgm');
    const legacy = interpreter === 'legacy' ? ['-dNEWPDF=false'] : [];
    const run = spawnSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', ...legacy, '-dPrinted=false', '-sDEVICE=pgmraw', `-r${dpi}`, '-dUseCropBox', `-dFirstPage=${page}`, `-dLastPage=${page}`, ...filters.map((filter) => `-d${filter}`), '-o', out, file], {
      encoding: 'latin1',
      timeout: 120_000,
    });
    const said = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.status !== 0 || !fs.existsSync(out)) throw new Error(`gs failed: ${said.trim().split('\n')[0] ?? run.error?.message}`);
    if (INCOMPLETE.test(said)) throw new Error(`gs (${interpreter}) drew part of the page: ${said.trim().split('\n')[0]}`);
    const data = fs.readFileSync(out);
    // Ghostscript writes a comment line after the magic number.
    const header = /^P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 200).toString('latin1'));
    if (!header) throw new Error('gs wrote no PGM');
    return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(header[0].length) };
  });
}

/** The four renderings visibility() compares: the page, without text, text alone, without annotations. */
export interface PageRenders {
  full: GreyPage;
  noText: GreyPage;
  textOnly: GreyPage;
  noAnnotations: GreyPage;
  interpreter: 'legacy' | 'new';
}

/**
 * A page's renderings by Ghostscript's legacy interpreter (10.00's new one misplaces text after render-mode-3
 * runs), or all four by the new one where the legacy one gives up part way (issue12823: a Type 0 font without a
 * descendant stops it, and everything after would seem hidden). Throws when neither draws the whole page.
 */
export function gsPageRenders(bytes: Buffer, page: number, dpi: number): PageRenders {
  const render = (interpreter: 'legacy' | 'new'): PageRenders => ({
    full: gsGreyPage(bytes, page, dpi, [], interpreter),
    noText: gsGreyPage(bytes, page, dpi, ['FILTERTEXT'], interpreter),
    textOnly: gsGreyPage(bytes, page, dpi, ['FILTERIMAGE', 'FILTERVECTOR'], interpreter),
    noAnnotations: gsGreyPage(bytes, page, dpi, ['ShowAnnots=false'], interpreter),
    interpreter,
  });
  try {
    return render('legacy');
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('drew part of the page')) throw error;
    return render('new');
  }
}

export type Visibility = 'shown' | 'ocr-layer' | 'hidden';

interface Area {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Pixels of `area` outside every one of `others` (all in pixels), as a list of indexes into a page `width` wide. */
function ownPixels(area: Area, others: readonly Area[], width: number, height: number): number[] {
  const pixels: number[] = [];
  for (let y = Math.max(0, Math.floor(area.y1)); y < Math.min(height, Math.ceil(area.y2)); y += 1) {
    for (let x = Math.max(0, Math.floor(area.x1)); x < Math.min(width, Math.ceil(area.x2)); x += 1) {
      if (!others.some((other) => x + 1 > other.x1 && x < other.x2 && y + 1 > other.y1 && y < other.y2)) pixels.push(y * width + x);
    }
  }
  return pixels;
}

/**
 * How the page shows a word (its display box at 72 dpi), judged on its own area: the box less the boxes of
 * `others` (the page's other words) that overlap it, so that a header drawn over a covered line, or a visible line
 * over an invisible one, does not lend its ink; the whole box when under a quarter of it is left (a word wholly
 * under another: pixels cannot tell them apart). `shown` when its glyphs there change the page's pixels
 * (Ghostscript's rendering differs from the one without text, or, for annotations' text, without annotations);
 * `ocr-layer` when they do not, but the page without images and fills has no ink there either while the page
 * itself has (invisible text over a picture); `hidden` otherwise: invisible over nothing, in a layer that is off,
 * outside the crop box, or drawn and then covered by an opaque image or fill (the text alone has ink there, the
 * page does not show it).
 */
export function visibility(word: Area, dpi: number, renders: Omit<PageRenders, 'interpreter'>, others: readonly Area[] = []): Visibility {
  const { full, noText, textOnly, noAnnotations } = renders;
  const scale = dpi / 72;
  const toPixels = (box: Area) => ({ x1: box.x1 * scale, y1: box.y1 * scale, x2: box.x2 * scale, y2: box.y2 * scale });
  const area = toPixels(word);
  if (area.x2 <= 0 || area.y2 <= 0 || area.x1 >= full.width || area.y1 >= full.height) return 'hidden';
  const whole = ownPixels(area, [], full.width, full.height);
  const overlapping = others.filter((other) => other !== word && other.x1 < word.x2 && word.x1 < other.x2 && other.y1 < word.y2 && word.y1 < other.y2).map(toPixels);
  const own = overlapping.length > 0 ? ownPixels(area, overlapping, full.width, full.height) : whole;
  const pixels = own.length * 4 >= whole.length ? own : whole;
  const count = (test: (index: number) => boolean) => pixels.filter(test).length;
  const differs = (other: GreyPage) => (index: number) => Math.abs((full.pixels[index] ?? 255) - (other.pixels[index] ?? 255)) > 48;
  if (count(differs(noText)) > 2) return 'shown';
  // Text of an annotation's appearance (a form field's value): Ghostscript's text filter leaves it drawn, so it
  // shows as the difference the annotations make.
  if (count(differs(noAnnotations)) > 2) return 'shown';
  const textInk = count((index) => (textOnly.pixels[index] ?? 255) < 160);
  const pageInk = count((index) => (full.pixels[index] ?? 255) < 160);
  if (textInk <= 2 && pageInk > 2) return 'ocr-layer';
  return 'hidden';
}

/** An annotation a viewer shows (display rect, 72 dpi) and its /Subtype. */
export interface PageAnnotation {
  subtype: string;
  rect: Area;
}

/** Annotations whose text viewers draw from the field or note itself when there is no appearance (Ghostscript draws none). */
const TEXT_ANNOTATIONS = new Set(['Widget', 'FreeText']);

/**
 * Each word of one page (display boxes) as the page shows it: visibility() on Ghostscript's renderings, each word
 * judged on its own area; a hidden word inside a form field or free-text note counts as shown (viewers make up
 * their appearance), inside any other annotation (a link, which draws no text) it stays hidden. Throws when
 * Ghostscript cannot draw the whole page.
 */
export function pageVisibility<W extends Area>(bytes: Buffer, page: number, dpi: number, words: readonly W[], annotations: readonly PageAnnotation[]): { shownAs: Map<W, Visibility>; renders: PageRenders } {
  const renders = gsPageRenders(bytes, page, dpi);
  const shownAs = new Map<W, Visibility>();
  const overlaps = (a: Area, b: Area) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  for (const word of words) {
    const seen = visibility(word, dpi, renders, words);
    const inField = annotations.some((annotation) => TEXT_ANNOTATIONS.has(annotation.subtype) && overlaps(annotation.rect, word));
    shownAs.set(word, seen === 'hidden' && inField ? 'shown' : seen);
  }
  return { shownAs, renders };
}

/**
 * Withheld strings (text → where it came from) a release holds more often than `shown` (what the source shows
 * outside every box) allows, in pdftotext -raw, -layout or any object's readings: one line per leak.
 */
export function leakedStrings(withheld: ReadonlyMap<string, string>, shown: Haystack, shownCodes: Haystack, release: Buffer): string[] {
  const raw = new Haystack(pageText(release, 'raw'));
  const layout = new Haystack(pageText(release, 'layout'));
  const readings = objectReadings(release);
  const leaks: string[] = [];
  for (const [text, origin] of withheld) {
    const allowance = occurrences(shown, text);
    const inRaw = occurrences(raw, text);
    const inLayout = occurrences(layout, text);
    const inObjects = objectOccurrences(readings, text);
    // Objects may also hold the codes of what pages kept in content show: a Symbol string's "lazy" for λαζψ.
    const inCodes = Math.max(allowance, occurrences(shownCodes, text));
    if (inRaw > allowance || inLayout > allowance || inObjects.count > inCodes) {
      leaks.push(`leaked ${JSON.stringify(text)} (${origin}, allowed ${allowance}, in objects ${inCodes}): pdftotext -raw ${inRaw}, -layout ${inLayout}, objects ${inObjects.count}${inObjects.count > inCodes ? ` [${inObjects.places.slice(0, 6).join('; ')}]` : ''}`);
    }
  }
  return leaks;
}
