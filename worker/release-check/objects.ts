import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import { isVocabulary } from './pdf-vocabulary.js';
import { fold, occurrences } from './strings.js';

// The search of every object of a written PDF, as an adversary would read the file: every string and name of
// every object, and every stream after decompression, in literal, hex and UTF-16 forms, URIs percent-decoded,
// all folded (NFKC, case) before matching. Independent of how the file was built: it knows only the bytes.

export type ObjectPlace = 'uri' | 'actual-text' | 'alt' | 'field-name' | 'field-value' | 'contents' | 'outline' | 'metadata' | 'font-name' | 'name' | 'string' | 'stream';

const KEY_PLACES: Readonly<Record<string, ObjectPlace>> = {
  URI: 'uri',
  ActualText: 'actual-text',
  Alt: 'alt',
  E: 'alt',
  T: 'field-name',
  TU: 'field-name',
  TM: 'field-name',
  V: 'field-value',
  DV: 'field-value',
  Opt: 'field-value',
  Contents: 'contents',
  RC: 'contents',
  Subj: 'contents',
  Title: 'outline',
  BaseFont: 'font-name',
  FontName: 'font-name',
  FontFamily: 'font-name',
};

/** Everything a string's bytes may say: as PDF text (PDFDocEncoding or UTF-16 with BOM), UTF-16 without BOM, UTF-8. */
export function readings(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes);
  const out = [buffer.toString('latin1')];
  if (buffer.length >= 2 && buffer.length % 2 === 0) {
    const swapped = Buffer.from(buffer);
    swapped.swap16();
    out.push(swapped.toString('utf16le'), buffer.toString('utf16le'));
  }
  const utf8 = buffer.toString('utf8');
  if (!utf8.includes('\ufffd')) out.push(utf8);
  return out;
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text.replace(/%([0-9a-f]{2})/giu, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
}

function bytesOfString(value: PDFString | PDFHexString): Uint8Array {
  return value.asBytes();
}

export interface PlaceCounts {
  /** For each withheld text, occurrences by place. */
  counts: Map<string, Map<ObjectPlace, number>>;
}

interface StreamString {
  key: string | null;
  bytes: Uint8Array;
  hex: boolean;
  start: number;
  end: number;
}

/** Literal and hex strings inside a content or other stream, with the key (if any) right before each. */
function streamStrings(text: string): StreamString[] {
  const found: StreamString[] = [];
  const keyBefore = (at: number) => /\/([A-Za-z]+)\s*$/u.exec(text.slice(Math.max(0, at - 40), at))?.[1] ?? null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '(') {
      const bytes: number[] = [];
      let depth = 1;
      let at = index + 1;
      for (; at < text.length && depth > 0; at += 1) {
        const c = text.charCodeAt(at);
        if (c === 0x5c) {
          const next = text[at + 1] ?? '';
          const octal = /^[0-7]{1,3}/u.exec(text.slice(at + 1, at + 4))?.[0];
          if (octal) {
            bytes.push(Number.parseInt(octal, 8) & 0xff);
            at += octal.length;
          } else {
            const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
            if (next !== '\n' && next !== '\r') bytes.push(escapes[next] ?? next.charCodeAt(0));
            at += 1;
          }
          continue;
        }
        if (c === 0x28) depth += 1;
        if (c === 0x29) {
          depth -= 1;
          if (depth === 0) break;
        }
        bytes.push(c & 0xff);
      }
      found.push({ key: keyBefore(index), bytes: Uint8Array.from(bytes), hex: false, start: index, end: at + 1 });
      index = at;
    } else if (char === '<' && text[index + 1] === '<') {
      index += 1;
    } else if (char === '<') {
      const end = text.indexOf('>', index + 1);
      if (end < 0) continue;
      const hex = text.slice(index + 1, end).replace(/\s+/gu, '');
      if (/^[0-9a-f]*$/iu.test(hex) && hex.length > 0) found.push({ key: keyBefore(index), bytes: Uint8Array.from(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex')), hex: true, start: index, end: end + 1 });
      index = end;
    } else if (char === '>' && text[index + 1] === '>') index += 1;
  }
  return found;
}

/** Decodes XML character references and the predefined entities (XMP writes non-ASCII letters that way). */
function xmlDecoded(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/giu, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#([0-9]+);/gu, (_, decimal: string) => String.fromCodePoint(Number.parseInt(decimal, 10)))
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&quot;/gu, '"')
    .replace(/&apos;/gu, "'")
    .replace(/&amp;/gu, '&');
}

/** XML's text and attribute values without its markup (element and attribute names are vocabulary, not text). */
function xmlText(text: string): string {
  const values = [...text.matchAll(/="([^"]*)"|='([^']*)'/gu)].map((match) => match[1] ?? match[2] ?? '');
  return xmlDecoded(`${text.replace(/<[^>]*>/gu, ' ')} ${values.join(' ')}`);
}

/**
 * `font`: a font program (FontFile, FontFile2, FontFile3, or a stream with /Length1 or /Length2): glyph outlines and
 * the font's own tables (its name, copyright and licence, which hold everyday words like "whether"), never text of
 * the document; not searched (font names in dictionaries are).
 */
type StreamKind = 'content' | 'metadata' | 'binary' | 'font' | 'cmap' | 'other';

/** How each stream is read: content streams by their strings (operators are vocabulary), binary data only for long texts. */
function streamKinds(context: PDFContext): Map<PDFRef, StreamKind> {
  const kinds = new Map<PDFRef, StreamKind>();
  const mark = (value: PDFObject | undefined, kind: StreamKind) => {
    if (value instanceof PDFRef) kinds.set(value, kind);
    else if (value instanceof PDFArray) for (const item of value.asArray()) if (item instanceof PDFRef) kinds.set(item, kind);
  };
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFRawStream ? object.dict : object instanceof PDFDict ? object : null;
    if (!dict) continue;
    const type = dict.get(PDFName.of('Type'));
    const subtype = dict.get(PDFName.of('Subtype'));
    if (object instanceof PDFRawStream) {
      if (subtype === PDFName.of('Form')) kinds.set(ref, 'content');
      else if (dict.has(PDFName.of('Length1')) || dict.has(PDFName.of('Length2'))) kinds.set(ref, 'font');
      else if (subtype === PDFName.of('Image')) kinds.set(ref, 'binary');
      else if (type === PDFName.of('Metadata')) kinds.set(ref, 'metadata');
      else if (type === PDFName.of('XRef') || type === PDFName.of('ObjStm')) kinds.set(ref, 'binary');
    }
    if (type === PDFName.of('Page')) mark(dict.get(PDFName.of('Contents')), 'content');
    for (const key of ['FontFile', 'FontFile2', 'FontFile3']) mark(dict.get(PDFName.of(key)), 'font');
    mark(dict.get(PDFName.of('ToUnicode')), 'cmap');
    mark(dict.get(PDFName.of('Encoding')), 'cmap');
    const procs = dict.get(PDFName.of('CharProcs'));
    const charProcs = procs instanceof PDFRef ? context.lookup(procs) : procs;
    if (charProcs instanceof PDFDict) for (const [, value] of charProcs.entries()) mark(value, 'content');
  }
  for (const [, object] of context.enumerateIndirectObjects()) {
    // [/ICCBased stream] colour spaces: the profile is binary.
    if (object instanceof PDFArray && object.get(0) === PDFName.of('ICCBased')) mark(object.get(1), 'binary');
  }
  return kinds;
}

/**
 * Stream text (content operands read as Latin-1, joined) is searched for texts of four characters or more: a font
 * with its own encoding turns any short text into other letters (cmmi's "ca" is γα), so shorter ones match by chance.
 */
const MIN_STREAM_NEEDLE = 4;
/** Text that binary data (images, font programs, profiles) is searched for: shorter texts match by chance. */
const MIN_BINARY_NEEDLE = 5;
/** Names are searched for texts of three characters or more (two-letter texts are in every name list). */
export const MIN_NAME_NEEDLE = 3;
/**
 * The standard 14 fonts (ISO 32000-1, 9.6.2.2): a reader supplies them by name, so a page drawn with one must keep
 * the name, and the name tells nothing of the document. As font names they are vocabulary, like /Type or /Font;
 * any other font name is searched (the builder renames embedded fonts whose names repeat withheld text).
 */
export const STANDARD_FONT_NAMES: ReadonlySet<string> = new Set(
  ['Courier', 'Helvetica'].flatMap((family) => [family, `${family}-Bold`, `${family}-Oblique`, `${family}-BoldOblique`]).concat(['Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic', 'Symbol', 'ZapfDingbats']),
);
/** Document information and XMP, for texts of three characters or more (producers' banners hold every pair). */
const MIN_METADATA_NEEDLE = 3;

/** Earlier definitions of objects that a later revision replaced: pdf-lib keeps only the newest. */
function supersededDefinitions(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes).toString('latin1');
  const starts = new Map<string, number[]>();
  for (const match of raw.matchAll(/(?:^|[\r\n\s])(\d+)\s+(\d+)\s+obj\b/gu)) {
    const key = `${match[1]} ${match[2]}`;
    starts.set(key, [...(starts.get(key) ?? []), match.index ?? 0]);
  }
  const older: string[] = [];
  for (const positions of starts.values()) {
    for (const start of positions.slice(0, -1)) {
      const end = raw.indexOf('endobj', start);
      older.push(raw.slice(start, end < 0 ? raw.length : end));
    }
  }
  return older;
}

/**
 * One search of a file's objects. Its steps are methods, not closures made per search: V8 keeps a function's
 * optimised code only while a closure using it lives, so closures made per call are compiled again after every
 * full collection (docs/architecture.md, session 22).
 */
class ObjectSearch {
  readonly result = new Map<string, Map<ObjectPlace, number>>();
  private readonly kinds: ReturnType<typeof streamKinds>;
  /** The document information dictionary; `infoIsDirect` when the trailer holds it rather than a reference. */
  readonly info: PDFObject | undefined;
  readonly infoIsDirect: boolean;
  private readonly seen = new Set<PDFObject>();

  constructor(
    private readonly context: PDFContext,
    private readonly needles: readonly string[],
  ) {
    this.kinds = streamKinds(context);
    const infoRef = context.trailerInfo.Info;
    this.info = infoRef instanceof PDFRef ? context.lookup(infoRef) : infoRef;
    this.infoIsDirect = !(infoRef instanceof PDFRef);
  }

  record(place: ObjectPlace, texts: readonly string[], minimum = 0): void {
    const folded = [...new Set(texts.map(fold))];
    for (const needle of this.needles) {
      if (needle.length < minimum) continue;
      const best = Math.max(0, ...folded.map((text) => occurrences(text, needle)));
      if (best === 0) continue;
      const byPlace = this.result.get(needle) ?? new Map<ObjectPlace, number>();
      byPlace.set(place, (byPlace.get(place) ?? 0) + best);
      this.result.set(needle, byPlace);
    }
  }

  /**
   * A stream's strings: keyed ones (ActualText, Alt…) are recorded under their own place; the others, decoded and
   * joined in order, are returned as the stream's text. Hex operands of content are glyph codes, read only when
   * they carry UTF-16 with its byte order mark.
   */
  streamText(text: string, content: boolean): string[] {
    const joined: Buffer[] = [];
    const utf16: string[] = [];
    for (const entry of streamStrings(text)) {
      const keyed = entry.key ? KEY_PLACES[entry.key] : undefined;
      if (keyed) this.record(keyed, readings(entry.bytes));
      else if (!entry.hex || !content) joined.push(Buffer.from(entry.bytes));
      else if (entry.bytes[0] === 0xfe && entry.bytes[1] === 0xff) utf16.push(...readings(entry.bytes));
    }
    return [...(joined.length > 0 ? readings(Buffer.concat(joined)) : []), ...utf16];
  }

  visit(object: PDFObject | undefined, key: string | null, inInfo: boolean, ref: PDFRef | null): void {
    if (object === undefined || this.seen.has(object)) return;
    if (object instanceof PDFString || object instanceof PDFHexString) {
      const stringBytes = bytesOfString(object);
      let texts = [...readings(stringBytes), object.decodeText()];
      const place: ObjectPlace = inInfo ? 'metadata' : ((key ? KEY_PLACES[key] : undefined) ?? 'string');
      if (place === 'uri') texts = [...texts, ...texts.map(percentDecoded)];
      this.record(place, texts, place === 'metadata' ? MIN_METADATA_NEEDLE : 0);
      return;
    }
    if (object instanceof PDFName) {
      const decoded = object.decodeText();
      const fontName = key !== null && KEY_PLACES[key] === 'font-name';
      if (fontName ? STANDARD_FONT_NAMES.has(decoded) : isVocabulary(decoded)) return;
      this.record(fontName ? 'font-name' : 'name', [decoded, percentDecoded(decoded.replace(/#/gu, '%'))], MIN_NAME_NEEDLE);
      return;
    }
    this.seen.add(object);
    if (object instanceof PDFRawStream) {
      this.visit(object.dict, key, false, null);
      let data: Uint8Array;
      try {
        data = decodePDFRawStream(object).decode();
      } catch {
        data = object.getContents();
      }
      const text = Buffer.from(data).toString('latin1');
      const kind = (ref && this.kinds.get(ref)) ?? 'other';
      if (kind === 'font') return;
      if (kind === 'metadata') this.record('metadata', readings(data).map(xmlText), MIN_METADATA_NEEDLE);
      else if (kind === 'binary') this.record('stream', readings(data), MIN_BINARY_NEEDLE);
      else if (kind === 'content' || kind === 'cmap') this.record('stream', this.streamText(text, true), MIN_STREAM_NEEDLE);
      else this.record('stream', [...readings(data), ...this.streamText(text, false)], MIN_STREAM_NEEDLE);
      return;
    }
    if (object instanceof PDFDict) {
      for (const [name, value] of object.entries()) {
        const child = value instanceof PDFRef ? this.context.lookup(value) : value;
        this.visit(child, name.decodeText(), inInfo || object === this.info, value instanceof PDFRef ? value : null);
        // Keys are names too (a resource may be named after anyone); the format's own keys are skipped.
        const key = name.decodeText();
        if (!isVocabulary(key)) this.record('name', [key, percentDecoded(key.replace(/#/gu, '%'))], MIN_NAME_NEEDLE);
      }
      return;
    }
    if (object instanceof PDFArray) {
      for (const item of object.asArray()) this.visit(item instanceof PDFRef ? this.context.lookup(item) : item, key, inInfo, item instanceof PDFRef ? item : null);
    }
  }
}

/**
 * Counts each withheld text (folded) in every place of the file's objects. `withheld` must be folded already.
 * Returns counts by text and place; a text absent from the map was found nowhere.
 */
export function searchObjects(context: PDFContext, withheld: readonly string[], bytes?: Uint8Array): Map<string, Map<ObjectPlace, number>> {
  const needles = [...new Set(withheld.filter((text) => text.length > 0))];
  if (needles.length === 0) return new Map();
  const search = new ObjectSearch(context, needles);
  for (const [ref, object] of context.enumerateIndirectObjects()) search.visit(object, null, object === search.info, ref);
  if (search.info && search.infoIsDirect) search.visit(search.info, null, true, null);
  if (bytes) for (const definition of supersededDefinitions(bytes)) search.record('string', search.streamText(definition, false));
  return search.result;
}
