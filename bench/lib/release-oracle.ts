import { execFileSync } from 'node:child_process';
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

/**
 * The strings of a dictionary or content stream, in order, each with the last name before it (its key, or its
 * operator's resource): literal strings with their escapes, hex strings, names with #xx escapes. Strings side by
 * side in one array (a TJ's pieces between kerns) are also read joined.
 */
function tokens(source: string): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = [];
  let key = '';
  let joined: string[] | null = null;
  const push = (text: string) => {
    out.push({ key, text });
    if (joined) joined.push(text);
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
    } else if (char === '[') joined = [];
    else if (char === ']') {
      if (joined && joined.length > 1) out.push({ key: `${key} (array joined)`, text: joined.join('') });
      joined = null;
    }
  }
  return out;
}

/**
 * Every reading of every object of the file after `qpdf --qdf --object-streams=disable --decrypt` (streams
 * decompressed where qpdf can): each string token under its key (also percent-decoded), each stream's data as
 * Latin-1 and as UTF-8, and the object's tokens. Empty when qpdf cannot read the file.
 */
export function objectReadings(bytes: Buffer): ObjectReading[] {
  const qdf = withFile(bytes, (file, dir) => {
    const out = path.join(dir, 'qdf.pdf');
    try {
      execFileSync('qpdf', ['--qdf', '--object-streams=disable', '--decrypt', file, out], { stdio: 'pipe', maxBuffer: 256 * 1024 * 1024 });
    } catch (error) {
      if ((error as { status?: number }).status !== 3) return '';
    }
    return fs.existsSync(out) ? fs.readFileSync(out).toString('latin1') : '';
  });
  const readings: ObjectReading[] = [];
  const objectPattern = /(?:^|\n)(\d+) (\d+) obj\n([\s\S]*?)\nendobj/g;
  for (const match of qdf.matchAll(objectPattern)) {
    const object = Number(match[1]);
    const body = match[3] ?? '';
    const streamAt = body.search(/(?:>>|\s)stream\r?\n/);
    const dict = streamAt >= 0 ? body.slice(0, streamAt + 2) : body;
    const type = /\/(?:Type|Subtype) *\/(\w+)/.exec(dict)?.[1] ?? '';
    const inDict = tokens(dict);
    for (const token of inDict) {
      readings.push({ object, place: `obj ${object}${type ? ` /${type}` : ''} ${token.key || 'value'}`, text: new Haystack(token.text) });
      if (/%[0-9a-f]{2}/i.test(token.text)) readings.push({ object, place: `obj ${object}${type ? ` /${type}` : ''} ${token.key} (percent-decoded)`, text: new Haystack(percentDecoded(token.text)) });
    }
    if (streamAt >= 0) {
      const data = body.slice(body.indexOf('stream', streamAt) + 7).replace(/\r?\nendstream\s*$/, '');
      const where = `obj ${object} stream${type ? ` /${type}` : ''}`;
      // Raw data of every stream but images and font programs (their bytes spell words by chance and carry glyph
      // names): XMP, content, ToUnicode maps, embedded files.
      if (!/\/Subtype *\/Image|\/FontFile|\/Length1|\/Subtype *\/(?:Type1C|CIDFontType0C|OpenType)/.test(dict) && data.length < 8 * 1024 * 1024) {
        readings.push({ object, place: `${where} (Latin-1 bytes)`, text: new Haystack(data) });
        readings.push({ object, place: `${where} (UTF-8 bytes)`, text: new Haystack(Buffer.from(data, 'latin1').toString('utf8')) });
        for (const token of tokens(data)) readings.push({ object, place: `${where} string ${token.key}`, text: new Haystack(token.text) });
      }
    }
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

/** One page rendered by Ghostscript in grey (crop box, as displayed), with `filters` (-dFILTERTEXT…) applied. */
export function gsGreyPage(bytes: Buffer, page: number, dpi: number, filters: readonly ('FILTERTEXT' | 'FILTERIMAGE' | 'FILTERVECTOR' | 'ShowAnnots=false')[] = []): GreyPage {
  return withFile(bytes, (file, dir) => {
    const out = path.join(dir, 'page.pgm');
    execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dNEWPDF=false', '-dPrinted=false', '-sDEVICE=pgmraw', `-r${dpi}`, '-dUseCropBox', `-dFirstPage=${page}`, `-dLastPage=${page}`, ...filters.map((filter) => `-d${filter}`), '-o', out, file], {
      stdio: 'pipe',
      timeout: 120_000,
    });
    const data = fs.readFileSync(out);
    // Ghostscript writes a comment line after the magic number.
    const header = /^P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 200).toString('latin1'));
    if (!header) throw new Error('gs wrote no PGM');
    return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(header[0].length) };
  });
}

export type Visibility = 'shown' | 'ocr-layer' | 'hidden';

interface Area {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function count(image: GreyPage, area: Area, test: (x: number, y: number, value: number) => boolean): number {
  let found = 0;
  for (let y = Math.max(0, Math.floor(area.y1)); y < Math.min(image.height, Math.ceil(area.y2)); y += 1) {
    for (let x = Math.max(0, Math.floor(area.x1)); x < Math.min(image.width, Math.ceil(area.x2)); x += 1) if (test(x, y, image.pixels[y * image.width + x] ?? 255)) found += 1;
  }
  return found;
}

/**
 * How the page shows a word (its display box at 72 dpi): `shown` when its own glyphs change the page's pixels
 * (Ghostscript's rendering differs from the one without text there, or, for annotations' text, without annotations); `ocr-layer` when they do not, but the page
 * without images and fills has no ink there either while the page itself has (invisible text over a picture);
 * `hidden` otherwise: invisible over nothing, in a layer that is off, outside the crop box, or drawn and then
 * covered by an opaque image or fill (the text alone has ink there, the page does not show it).
 */
export function visibility(word: Area, dpi: number, full: GreyPage, noText: GreyPage, textOnly: GreyPage, noAnnotations?: GreyPage): Visibility {
  const scale = dpi / 72;
  const area = { x1: word.x1 * scale, y1: word.y1 * scale, x2: word.x2 * scale, y2: word.y2 * scale };
  if (area.x2 <= 0 || area.y2 <= 0 || area.x1 >= full.width || area.y1 >= full.height) return 'hidden';
  const changed = count(full, area, (x, y, value) => Math.abs(value - (noText.pixels[y * noText.width + x] ?? 255)) > 48);
  if (changed > 2) return 'shown';
  // Text of an annotation's appearance (a form field's value): Ghostscript's text filter leaves it drawn, so it
  // shows as the difference the annotations make.
  if (noAnnotations && count(full, area, (x, y, value) => Math.abs(value - (noAnnotations.pixels[y * noAnnotations.width + x] ?? 255)) > 48) > 2) return 'shown';
  const textInk = count(textOnly, area, (_x, _y, value) => value < 160);
  const pageInk = count(full, area, (_x, _y, value) => value < 160);
  if (textInk <= 2 && pageInk > 2) return 'ocr-layer';
  return 'hidden';
}
