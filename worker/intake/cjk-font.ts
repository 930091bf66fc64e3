import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument } from 'pdf-lib';

// Chinese, Japanese and Korean text in rendered messages. The bundled DejaVu has no Han, Kana or Hangul, so
// such text is drawn in a CJK face the machine has, found through fontconfig at run time (Debian:
// fonts-noto-cjk). Debian ships those faces only inside collections (.ttc), which pdf-lib cannot embed: one
// face is copied out into a standalone font in memory. Without any CJK font the text shows as U+FFFD and the
// document's intake warnings say why.

export type CjkLanguage = 'ja' | 'ko' | 'zh-cn';

/** Han, Kana, Hangul, Bopomofo, CJK punctuation and full-width forms: drawn in the CJK face first. */
export const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\u31f0-\u31ff\u3200-\u33ff\ufe30-\ufe4f\uff00-\uffef]/u;

/** The face a message's text asks for: Kana means Japanese, Hangul (without Kana) Korean, Han alone Chinese. */
export function cjkLanguageOf(text: string): CjkLanguage | null {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'ja';
  if (/\p{Script=Hangul}/u.test(text)) return 'ko';
  return CJK_CHAR.test(text) ? 'zh-cn' : null;
}

/**
 * One face out of a TrueType/OpenType collection: the TTC header's offset table names where the face's table
 * directory starts; its tables are copied after a new directory with offsets from the new file's start, and
 * head.checkSumAdjustment is set for the new file (table checksums stay: the bytes are the same).
 */
export function extractFace(collection: Buffer, index: number): Buffer {
  if (collection.toString('latin1', 0, 4) !== 'ttcf') throw new Error('not a font collection');
  const faces = collection.readUInt32BE(8);
  if (index < 0 || index >= faces) throw new Error(`the collection has ${faces} faces, not ${index + 1}`);
  const directory = collection.readUInt32BE(12 + 4 * index);
  const tableCount = collection.readUInt16BE(directory + 4);
  const headerSize = 12 + 16 * tableCount;
  const tables: { tag: string; checksum: number; offset: number; length: number }[] = [];
  let size = headerSize;
  for (let table = 0; table < tableCount; table += 1) {
    const record = directory + 12 + 16 * table;
    const entry = { tag: collection.toString('latin1', record, record + 4), checksum: collection.readUInt32BE(record + 4), offset: collection.readUInt32BE(record + 8), length: collection.readUInt32BE(record + 12) };
    if (entry.offset + entry.length > collection.length) throw new Error(`table ${entry.tag} lies outside the collection`);
    tables.push(entry);
    size += (entry.length + 3) & ~3;
  }
  const face = Buffer.alloc(size);
  collection.copy(face, 0, directory, directory + 12);
  let position = headerSize;
  let headOffset = -1;
  for (const [table, entry] of tables.entries()) {
    const record = 12 + 16 * table;
    face.write(entry.tag, record, 'latin1');
    face.writeUInt32BE(entry.checksum, record + 4);
    face.writeUInt32BE(position, record + 8);
    face.writeUInt32BE(entry.length, record + 12);
    collection.copy(face, position, entry.offset, entry.offset + entry.length);
    if (entry.tag === 'head') headOffset = position;
    position += (entry.length + 3) & ~3;
  }
  if (headOffset >= 0) {
    face.writeUInt32BE(0, headOffset + 8);
    let sum = 0;
    for (let offset = 0; offset < face.length; offset += 4) sum = (sum + face.readUInt32BE(offset)) >>> 0;
    face.writeUInt32BE((0xb1b0afba - sum) >>> 0, headOffset + 8);
  }
  return face;
}

interface Candidate {
  file: string;
  index: number;
}

/** fontconfig's ordered matches for sans-serif in the language; the first that really lists the language. */
function fontconfigMatch(language: CjkLanguage): Candidate | null {
  let listing: string;
  try {
    listing = execFileSync('fc-match', ['-s', '-f', '%{file}\t%{index}\t%{lang}\n', `sans-serif:lang=${language}:style=Regular`], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 16 * 1024 * 1024 });
  } catch {
    return null; // no fontconfig on this machine (Windows, macOS): no CJK face
  }
  for (const line of listing.split('\n')) {
    const [file, index, langs] = line.split('\t');
    if (!file || !/\.(ttf|otf|ttc|otc)$/i.test(file) || !(langs ?? '').split('|').includes(language)) continue;
    return { file, index: Number(index) || 0 };
  }
  return null;
}

const faces = new Map<string, Buffer | null>();

/** The standalone font bytes for the language, or null when the machine has no font for it (cached per env). */
export function cjkFace(language: CjkLanguage): Buffer | null {
  const key = `${language}\0${process.env.FONTCONFIG_FILE ?? ''}\0${process.env.FONTCONFIG_PATH ?? ''}`;
  if (faces.has(key)) return faces.get(key) ?? null;
  let face: Buffer | null = null;
  const match = fontconfigMatch(language);
  if (match) {
    try {
      const bytes = fs.readFileSync(match.file);
      face = bytes.toString('latin1', 0, 4) === 'ttcf' ? extractFace(bytes, match.index) : bytes;
    } catch {
      face = null;
    }
  }
  faces.set(key, face);
  return face;
}

interface CffSubsetInternals {
  glyphs: number[];
  cff: { fdForGlyph(gid: number): number | null; topDict: { FDArray: { Private?: { Subrs?: unknown[] } }[] } };
  font: { getGlyph(gid: number): { path: unknown; _usedSubrs: Record<string, boolean> } };
  subsetSubrs(subrs: unknown[], used: Record<string, boolean>): unknown[];
}

/**
 * fontkit's own version files each glyph's local subroutines under the font dict added last rather than the
 * glyph's own, so a glyph of an earlier font dict (CJK faces have 19) loses its subroutines and FreeType calls
 * it a broken glyph. The same walk, keyed by the glyph's font dict.
 */
function subsetFontdict(this: CffSubsetInternals, topDict: { FDArray: { FontName?: unknown; Private?: { Subrs?: unknown[] } }[]; FDSelect: { version: number; fds: number[] } }): void {
  topDict.FDArray = [];
  topDict.FDSelect = { version: 0, fds: [] };
  const newIndex = new Map<number, number>();
  const usedSubrs: Record<string, boolean>[] = [];
  for (const gid of this.glyphs) {
    const fd = this.cff.fdForGlyph(gid);
    if (fd == null) continue;
    let index = newIndex.get(fd);
    if (index === undefined) {
      index = topDict.FDArray.length;
      newIndex.set(fd, index);
      topDict.FDArray.push({ ...this.cff.topDict.FDArray[fd] });
      usedSubrs.push({});
    }
    topDict.FDSelect.fds.push(index);
    const glyph = this.font.getGlyph(gid);
    void glyph.path; // parsing the outline records the subroutines it calls
    Object.assign(usedSubrs[index] as Record<string, boolean>, glyph._usedSubrs);
  }
  for (const [index, dict] of topDict.FDArray.entries()) {
    delete dict.FontName;
    if (dict.Private?.Subrs) dict.Private = { ...dict.Private, Subrs: this.subsetSubrs(dict.Private.Subrs, usedSubrs[index] ?? {}) };
  }
}

/**
 * pdf-lib's fontkit writes a CFF subset's header with the table length, cut to a byte, where the offset size
 * (1-4) belongs; FreeType (poppler, MuPDF) then refuses the whole font and draws nothing. CFF subsets get the
 * font-dict walk above and the header fixed on the way out; TrueType subsets are left alone.
 */
export const fixedFontkit: Parameters<PDFDocument['registerFontkit']>[0] = {
  create(buffer: Uint8Array, postscriptName?: string) {
    const font = fontkit.create(buffer, postscriptName);
    const createSubset = font.createSubset.bind(font);
    font.createSubset = () => {
      const subset = createSubset() as ReturnType<typeof createSubset> & { cff?: unknown; subsetFontdict?: unknown };
      if (!subset.cff) return subset;
      subset.subsetFontdict = subsetFontdict;
      const encodeStream = subset.encodeStream.bind(subset);
      subset.encodeStream = () => {
        const listeners: { data: ((bytes: Uint8Array) => void)[]; end: (() => void)[]; error: ((error: Error) => void)[] } = { data: [], end: [], error: [] };
        const parts: Uint8Array[] = [];
        const source = encodeStream() as unknown as { on(event: string, listener: (value: never) => void): typeof source };
        source
          .on('data', (bytes: Uint8Array) => parts.push(bytes))
          .on('end', () => {
            const bytes = Buffer.concat(parts);
            const offSize = bytes[3] ?? 0;
            if (bytes.length > 4 && (offSize < 1 || offSize > 4)) bytes[3] = 4;
            for (const listener of listeners.data) listener(bytes);
            for (const listener of listeners.end) listener();
          })
          .on('error', (error: Error) => listeners.error.forEach((listener) => listener(error)));
        const stream = {
          on(event: 'data' | 'end' | 'error', listener: never) {
            (listeners[event] as unknown[]).push(listener);
            return stream;
          },
        };
        return stream as unknown as ReturnType<typeof encodeStream>;
      };
      return subset;
    };
    return font;
  },
};
