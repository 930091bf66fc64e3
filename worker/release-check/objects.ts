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
    } else if (char === '<' && text[index + 1] !== '<') {
      const end = text.indexOf('>', index + 1);
      if (end < 0) continue;
      const hex = text.slice(index + 1, end).replace(/\s+/gu, '');
      if (/^[0-9a-f]*$/iu.test(hex) && hex.length > 0) found.push({ key: keyBefore(index), bytes: Uint8Array.from(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex')), hex: true, start: index, end: end + 1 });
      index = end;
    } else if (char === '>' && text[index + 1] === '>') index += 1;
  }
  return found;
}

/**
 * Counts each withheld text (folded) in every place of the file's objects. `withheld` must be folded already.
 * Returns counts by text and place; a text absent from the map was found nowhere.
 */
export function searchObjects(context: PDFContext, withheld: readonly string[]): Map<string, Map<ObjectPlace, number>> {
  const result = new Map<string, Map<ObjectPlace, number>>();
  const needles = [...new Set(withheld.filter((text) => text.length > 0))];
  if (needles.length === 0) return result;
  const record = (place: ObjectPlace, texts: readonly string[]) => {
    const folded = [...new Set(texts.map(fold))];
    for (const needle of needles) {
      const best = Math.max(0, ...folded.map((text) => occurrences(text, needle)));
      if (best === 0) continue;
      const byPlace = result.get(needle) ?? new Map<ObjectPlace, number>();
      byPlace.set(place, (byPlace.get(place) ?? 0) + best);
      result.set(needle, byPlace);
    }
  };
  const infoRef = context.trailerInfo.Info;
  const info = infoRef instanceof PDFRef ? context.lookup(infoRef) : infoRef;
  const seen = new Set<PDFObject>();
  const visit = (object: PDFObject | undefined, key: string | null, inInfo: boolean) => {
    if (object === undefined || seen.has(object)) return;
    if (object instanceof PDFString || object instanceof PDFHexString) {
      const bytes = bytesOfString(object);
      let texts = [...readings(bytes), object.decodeText()];
      const place: ObjectPlace = inInfo ? 'metadata' : ((key ? KEY_PLACES[key] : undefined) ?? 'string');
      if (place === 'uri') texts = [...texts, ...texts.map(percentDecoded)];
      record(place, texts);
      return;
    }
    if (object instanceof PDFName) {
      const decoded = object.decodeText();
      record(key && KEY_PLACES[key] === 'font-name' ? 'font-name' : 'name', [decoded, percentDecoded(decoded.replace(/#/gu, '%'))]);
      return;
    }
    seen.add(object);
    if (object instanceof PDFRawStream) {
      visit(object.dict, key, false);
      let bytes: Uint8Array;
      try {
        bytes = decodePDFRawStream(object).decode();
      } catch {
        bytes = object.getContents();
      }
      const type = object.dict.get(PDFName.of('Type'));
      const isMetadata = type instanceof PDFName && type.decodeText() === 'Metadata';
      const text = Buffer.from(bytes).toString('latin1');
      // A keyed string (ActualText, Alt…) counts under its own place, not again as stream text; a hex string
      // is read decoded, as its raw digits say nothing.
      const strings = streamStrings(text);
      let plain = '';
      let from = 0;
      for (const entry of strings) {
        const keyed = entry.key ? KEY_PLACES[entry.key] : undefined;
        if (keyed) record(isMetadata ? 'metadata' : keyed, readings(entry.bytes));
        else if (entry.hex) record(isMetadata ? 'metadata' : 'stream', readings(entry.bytes));
        if (keyed || entry.hex) {
          plain += `${text.slice(from, entry.start)} `;
          from = entry.end;
        }
      }
      plain += text.slice(from);
      record(isMetadata ? 'metadata' : 'stream', strings.length === 0 ? readings(bytes) : readings(Buffer.from(plain, 'latin1')));
      return;
    }
    if (object instanceof PDFDict) {
      for (const [name, value] of object.entries()) {
        const child = value instanceof PDFRef ? context.lookup(value) : value;
        visit(child, name.decodeText(), inInfo || object === info);
        if (name instanceof PDFName) visit(name, key, false);
      }
      return;
    }
    if (object instanceof PDFArray) {
      for (const item of object.asArray()) visit(item instanceof PDFRef ? context.lookup(item) : item, key, inInfo);
    }
  };
  for (const [, object] of context.enumerateIndirectObjects()) visit(object, null, object === info);
  if (info && !(infoRef instanceof PDFRef)) visit(info, null, true);
  return result;
}
