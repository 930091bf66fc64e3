import path from 'node:path';
import { Reader, type CFolder } from '@kenjiuno/msgreader/lib/Reader.js';
import { checkCompoundFile } from './cfb-check.js';

// Files Office keeps wrapped in OLE objects: word|xl|ppt/embeddings/oleObject*.bin in OOXML and the ObjectPool
// storages of a legacy .doc (MBD* storages of a .xls) are OLE compound files. A "Package" object (an embedded
// PDF, image or any file) holds the file in an \x01Ole10Native stream, little endian:
//   u32 size of the rest; u16 flags; label (the file name, ANSI, NUL-terminated); source path (NUL-terminated);
//   u32 reserved (0x00030000); u32 n + temp path (n bytes, NUL-terminated); u32 data size + the file's bytes;
//   then, optionally, u32 n + temp path, u32 n + label, u32 n + source path, each n UTF-16 code units.
// Objects of other servers may carry a whole file instead: Acrobat's "CONTENTS" (a PDF), an OOXML "Package".

export const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const OLE10_NATIVE = '\u0001Ole10Native';

export interface EmbeddedFile {
  name: string;
  bytes: Buffer;
}

/** A bounded little-endian cursor: every read past the end throws, which the callers turn into a warning. */
class Cursor {
  offset = 0;
  constructor(private readonly bytes: Buffer) {}
  get remaining(): number {
    return this.bytes.length - this.offset;
  }
  take(length: number, what: string): Buffer {
    if (length < 0 || length > this.remaining) throw new Error(`${what} of ${length} bytes runs past the end of the stream (${this.remaining} left)`);
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
  u32(what: string): number {
    return this.take(4, what).readUInt32LE(0);
  }
  cString(what: string): string {
    const end = this.bytes.indexOf(0, this.offset);
    if (end < 0) throw new Error(`${what} has no terminating NUL`);
    return this.take(end - this.offset + 1, what).subarray(0, -1).toString('latin1');
  }
}

/** Parses an \x01Ole10Native stream; throws a clear message on a malformed one. */
export function parseOle10Native(stream: Buffer): { label: string; bytes: Buffer } {
  const cursor = new Cursor(stream);
  const total = cursor.u32('the package size');
  if (total > cursor.remaining) throw new Error(`the package claims ${total} bytes but the stream holds ${cursor.remaining}`);
  cursor.take(2, 'the flags');
  let label = cursor.cString('the label');
  cursor.cString('the source path');
  cursor.u32('the reserved field');
  cursor.take(cursor.u32('the temp path length'), 'the temp path');
  const bytes = Buffer.from(cursor.take(cursor.u32('the data size'), 'the embedded file'));
  // The Unicode names are optional; a short or odd tail keeps the ANSI label.
  try {
    const unicode = () => cursor.take(cursor.u32('a Unicode name length') * 2, 'a Unicode name').toString('utf16le');
    unicode();
    const wide = unicode();
    if (wide.trim()) label = wide;
  } catch {
    /* no Unicode variants */
  }
  return { label, bytes };
}

/** A file name a clerk can read: the label's last path part, no control characters, else `fallback`. */
function safeName(label: string, fallback: string): string {
  const name = path.win32.basename(label.replace(/\0/g, '')).replace(/[\u0000-\u001f\u007f/\\]/g, '').trim();
  return name && name !== '.' && name !== '..' ? name.slice(0, 200) : fallback;
}

function kindOf(bytes: Buffer): string | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return '.pdf';
  if (bytes.subarray(0, 2).toString('latin1') !== 'PK') return null;
  const head = bytes.subarray(0, Math.min(bytes.length, 1 << 20)).toString('latin1');
  return head.includes('word/') ? '.docx' : head.includes('xl/') ? '.xlsx' : head.includes('ppt/') ? '.pptx' : null;
}

/** The file one OLE object storage carries, or null when it is some other object (an equation, a chart). */
function fromStorage(folder: CFolder, fallback: string): EmbeddedFile | null {
  const streams = folder.fileNames();
  if (streams.includes(OLE10_NATIVE)) {
    const { label, bytes } = parseOle10Native(Buffer.from(folder.readFile(OLE10_NATIVE) ?? new Uint8Array(0)));
    return { name: safeName(label, fallback), bytes };
  }
  for (const stream of ['CONTENTS', 'Package']) {
    if (!streams.includes(stream)) continue;
    const bytes = Buffer.from(folder.readFile(stream) ?? new Uint8Array(0));
    const ext = kindOf(bytes);
    if (ext) return { name: `${path.parse(fallback).name}${ext}`, bytes };
  }
  return null;
}

function open(bytes: Buffer): CFolder {
  checkCompoundFile(bytes);
  const reader = new Reader(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  reader.parse();
  return reader.rootFolder();
}

function describe(error: unknown): string {
  // The CFB reader's own errors (DataView bounds and the like) say little; keep them short.
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

/**
 * An OOXML embedding (word/embeddings/oleObject1.bin) unwrapped: the file it wraps, `null` when it wraps none
 * (kept as it is), or a warning when the object is malformed (it is then not made a document).
 */
export function unwrapOleObject(name: string, bytes: Buffer): { file: EmbeddedFile | null; warning?: string } {
  if (!bytes.subarray(0, 8).equals(OLE_MAGIC)) return { file: null };
  try {
    return { file: fromStorage(open(bytes), name) };
  } catch (error) {
    return { file: null, warning: `embedded object ${name} is malformed and was not made a document: ${describe(error)}` };
  }
}

/** The files in a legacy .doc's ObjectPool (or a .xls's MBD* storages), in storage order, with warnings for bad ones. */
export function legacyEmbeddedFiles(bytes: Buffer, maxFiles: number): { embedded: EmbeddedFile[]; warnings: string[] } {
  const embedded: EmbeddedFile[] = [];
  const warnings: string[] = [];
  let root: CFolder;
  try {
    root = open(bytes);
  } catch {
    return { embedded, warnings }; // LibreOffice reports an unreadable file itself.
  }
  const pool = root.subFolders().find((folder) => folder.name === 'ObjectPool');
  const storages = [...(pool ? pool.subFolders() : []), ...root.subFolders().filter((folder) => /^MBD[0-9A-F]+$/i.test(folder.name))];
  for (const storage of storages.slice(0, maxFiles)) {
    try {
      const file = fromStorage(storage, `${storage.name.replace(/^_/, 'object')}.bin`);
      if (file) embedded.push(file);
    } catch (error) {
      warnings.push(`embedded object ${storage.name} is malformed and was not made a document: ${describe(error)}`);
    }
  }
  return { embedded, warnings };
}
