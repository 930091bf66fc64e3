import fs from 'node:fs/promises';
import {
  checkEntryCount,
  directoryBodySize,
  directoryEntries,
  HEADER_BYTES,
  IFD_TYPES,
  readTiffHeader,
  TiffView,
  TYPE_SIZE,
  valueSize,
  valuesInline,
  valuesOffset,
  type TiffEntry,
  type TiffLayout,
} from '../burn-in/tiff-layout.js';

// A multi-page TIFF (a fax, a scanner batch) is read one page at a time. Tesseract reads only the first
// page of a TIFF, so each page is copied into a TIFF of its own: the page's directory, its tag values and
// its strips or tiles, still encoded. Leptonica (libtiff) then decodes it exactly as it decodes a one-page
// TIFF, whatever the compression, and only that page's bytes are read from disk.

export interface TiffPageSize {
  width: number;
  height: number;
}

interface Directories {
  layout: TiffLayout;
  /** File offset of each page's directory (IFD), in page order. */
  offsets: number[];
  pages: TiffPageSize[];
}

const TAG = { width: 256, height: 257, compression: 259, stripOffsets: 273, stripByteCounts: 279, tileOffsets: 324, tileByteCounts: 325 } as const;
/** Pointers to other directories (sub-images, EXIF, GPS): not needed to read the page, and they would dangle. */
const POINTER_TAGS = new Set([330, 34665, 34853, 40965]);
/** Old-style JPEG (compression 6) points at tables elsewhere in the file: such a page keeps the whole file. */
const OLD_JPEG = 6;
/** More pages than OCR can be asked for (options.pages) is a broken directory chain, not a document. */
const MAX_PAGES = 100_000;
/** Strips closer than this are read with one read (the bytes between are read and dropped). */
const READ_GAP = 64 * 1024;
/** The copy is a classic TIFF, whose offsets are 4 bytes wide. */
const CLASSIC_LIMIT = 0xffff_ffff;

class TiffFile {
  private constructor(
    private readonly handle: fs.FileHandle,
    readonly size: number,
  ) {}

  static async open(path: string): Promise<TiffFile> {
    const handle = await fs.open(path, 'r');
    try {
      return new TiffFile(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async read(position: number, length: number): Promise<Buffer> {
    if (position < 0 || length < 0 || position + length > this.size) throw new Error('the TIFF is truncated: a directory or its values run past the end of the file');
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(buffer, done, length - done, position + done);
      if (bytesRead === 0) throw new Error('the TIFF is truncated');
      done += bytesRead;
    }
    return buffer;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

async function withFile<T>(path: string, work: (file: TiffFile) => Promise<T>): Promise<T> {
  const file = await TiffFile.open(path);
  try {
    return await work(file);
  } finally {
    await file.close();
  }
}

async function readDirectory(file: TiffFile, offset: number, layout: TiffLayout): Promise<{ entries: TiffEntry[]; next: number }> {
  const count = new TiffView(await file.read(offset, layout.countSize), layout).count(0);
  checkEntryCount(count, offset);
  const body = await file.read(offset + layout.countSize, directoryBodySize(count, layout));
  return directoryEntries(new TiffView(body, layout), 0, count);
}

/** The values of an entry, as stored: from its own field when they fit, else read from the file. */
async function valueBytes(file: TiffFile, entry: TiffEntry, layout: TiffLayout): Promise<Uint8Array> {
  return valuesInline(entry, layout) ? entry.field.subarray(0, valueSize(entry)) : file.read(valuesOffset(entry, layout), valueSize(entry));
}

/** The values of a SHORT, LONG or LONG8 entry (sizes, offsets, byte counts). */
async function numbers(file: TiffFile, entry: TiffEntry | undefined, layout: TiffLayout): Promise<number[] | null> {
  if (!entry || (entry.type !== 3 && entry.type !== 4 && entry.type !== 16) || entry.count === 0) return null;
  return new TiffView(await valueBytes(file, entry, layout), layout).numbers(entry.type, 0, entry.count);
}

async function readDirectories(file: TiffFile): Promise<Directories | null> {
  const header = readTiffHeader(await file.read(0, Math.min(HEADER_BYTES, file.size)));
  // Not a TIFF, or a variant other than classic and BigTIFF: left to the image reader as a whole file.
  if (!header) return null;
  const { layout } = header;
  const offsets: number[] = [];
  const pages: TiffPageSize[] = [];
  const seen = new Set<number>();
  for (let offset = header.firstDirectory; offset !== 0 && !seen.has(offset) && offsets.length < MAX_PAGES; ) {
    seen.add(offset);
    let directory;
    try {
      directory = await readDirectory(file, offset, layout);
    } catch (error) {
      // A damaged link after the first page ends the document there, as libtiff reads it.
      if (offsets.length > 0) break;
      throw error;
    }
    const tagged = (tag: number) => directory.entries.find((entry) => entry.tag === tag);
    const [width] = (await numbers(file, tagged(TAG.width), layout)) ?? [];
    const [height] = (await numbers(file, tagged(TAG.height), layout)) ?? [];
    if (width === undefined || height === undefined) throw new Error(`page ${offsets.length + 1} of the TIFF has no image size`);
    offsets.push(offset);
    pages.push({ width, height });
    offset = directory.next;
  }
  return offsets.length === 0 ? null : { layout, offsets, pages };
}

// Pages of one TIFF usually arrive one after another on the same thread: its directory chain is walked once.
let cached: { blobPath: string; directories: Promise<Directories | null> } | null = null;

/** Blobs are content-addressed: a path always names the same bytes. */
function directoriesOf(blobPath: string): Promise<Directories | null> {
  if (cached?.blobPath !== blobPath) {
    const directories = withFile(blobPath, readDirectories);
    cached = { blobPath, directories };
    directories.catch(() => {
      if (cached?.directories === directories) cached = null;
    });
  }
  return cached.directories;
}

/**
 * The size in pixels of each page (as stored, before any orientation tag is applied) of a classic TIFF or a
 * BigTIFF; null when the file is another TIFF variant, which is then read as one image.
 */
export async function tiffPageSizes(blobPath: string): Promise<TiffPageSize[] | null> {
  return (await directoriesOf(blobPath))?.pages ?? null;
}

/** Page `pageNumber` (1-based) of a multi-page TIFF as a TIFF of its own, for the image reader. */
export async function tiffPageFile(blobPath: string, pageNumber: number): Promise<Uint8Array> {
  const directories = await directoriesOf(blobPath);
  const offset = directories?.offsets[pageNumber - 1];
  if (!directories || offset === undefined) {
    const count = directories?.offsets.length ?? 1;
    throw new Error(`page ${pageNumber} does not exist: the TIFF has ${count} page${count === 1 ? '' : 's'}`);
  }
  const { layout } = directories;
  return withFile(blobPath, async (file) => {
    const { entries } = await readDirectory(file, offset, layout);
    const tagged = (tag: number) => entries.find((entry) => entry.tag === tag);
    const [compression] = (await numbers(file, tagged(TAG.compression), layout)) ?? [1];
    if (compression === OLD_JPEG) return wholeFileFromPage(file, offset, entries.length, layout);
    return singlePage(file, entries, pageNumber, layout);
  });
}

/**
 * The page's directory with its values and image data relocated behind it, in the file's byte order. A BigTIFF's
 * page is written as a classic TIFF too: one writer for both, and any page tesseract's 32-bit wasm memory can
 * hold fits in classic TIFF's 4 GiB.
 */
async function singlePage(file: TiffFile, entries: TiffEntry[], pageNumber: number, layout: TiffLayout): Promise<Uint8Array> {
  const tagged = (tag: number) => entries.find((entry) => entry.tag === tag);
  const tiled = tagged(TAG.tileOffsets) !== undefined;
  const offsetsTag = tiled ? TAG.tileOffsets : TAG.stripOffsets;
  const offsets = await numbers(file, tagged(offsetsTag), layout);
  const counts = await numbers(file, tagged(tiled ? TAG.tileByteCounts : TAG.stripByteCounts), layout);
  if (!offsets || !counts || offsets.length !== counts.length) throw new Error(`page ${pageNumber} of the TIFF has no readable image data (strip offsets or byte counts missing)`);
  if (offsets.some((start, index) => start + (counts[index] ?? 0) > file.size)) throw new Error(`page ${pageNumber} of the TIFF is truncated: its image data runs past the end of the file`);

  // Unknown types, pointers and values past the end of the file are left out, as libtiff ignores them.
  const readable = (entry: TiffEntry) => valuesInline(entry, layout) || valuesOffset(entry, layout) + valueSize(entry) <= file.size;
  const candidates = entries.filter((entry) => TYPE_SIZE[entry.type] !== undefined && !IFD_TYPES.has(entry.type) && !POINTER_TAGS.has(entry.tag) && (entry.tag === offsetsTag || readable(entry)));
  // Strips or tiles stored once and named several times (blank tiles) are copied once.
  const pieces = new Map(offsets.map((start, index) => [`${start}:${counts[index] ?? 0}`, counts[index] ?? 0]));
  // Checked before reading or allocating: values and strips that overlap, or are named many times, could ask for
  // many times the file's size; those of a sound page are each stored once.
  const claimed = candidates.reduce((sum, entry) => sum + (valuesInline(entry, layout) ? 0 : valueSize(entry)), 0) + [...pieces.values()].reduce((sum, count) => sum + count, 0);
  if (claimed > 2 * file.size) throw new Error(`page ${pageNumber} of the TIFF is damaged: its values and image data overlap, adding up to more than twice the file`);
  // Each kept entry as the copy stores it: offsets rewritten as LONGs (the page's data may sit beyond 64 KiB in
  // the copy), BigTIFF's 8-byte integers narrowed to classic TIFF's 4-byte ones, or left out when they do not fit.
  const kept: { tag: number; type: number; count: number; bytes: Uint8Array | null }[] = [];
  for (const entry of candidates.sort((a, b) => a.tag - b.tag)) {
    if (entry.tag === offsetsTag) kept.push({ tag: entry.tag, type: 4, count: entry.count, bytes: null });
    else if (entry.type === 16 || entry.type === 17) {
      const values = new TiffView(await valueBytes(file, entry, layout), layout).numbers(entry.type, 0, entry.count);
      const signed = entry.type === 17;
      if (!values.every((value) => (signed ? value >= -0x8000_0000 && value <= 0x7fff_ffff : value <= CLASSIC_LIMIT))) continue;
      const bytes = new Uint8Array(values.length * 4);
      const view = new DataView(bytes.buffer);
      values.forEach((value, index) => (signed ? view.setInt32(index * 4, value, layout.little) : view.setUint32(index * 4, value, layout.little)));
      kept.push({ tag: entry.tag, type: signed ? 9 : 4, count: entry.count, bytes });
    } else kept.push({ tag: entry.tag, type: entry.type, count: entry.count, bytes: await valueBytes(file, entry, layout) });
  }

  const placed = new Map<string, number>();
  const directorySize = 2 + kept.length * 12 + 4;
  let valuesEnd = 8 + directorySize;
  const valueAt = new Map<(typeof kept)[number], number>();
  for (const entry of kept) {
    const size = (TYPE_SIZE[entry.type] ?? 0) * entry.count;
    if (size <= 4) continue;
    valueAt.set(entry, valuesEnd);
    valuesEnd += size + (size % 2); // values start on a word boundary
  }
  let dataAt = valuesEnd;
  const newOffsets = offsets.map((start, index) => {
    const key = `${start}:${counts[index] ?? 0}`;
    const known = placed.get(key);
    if (known !== undefined) return known;
    placed.set(key, dataAt);
    dataAt += counts[index] ?? 0;
    return dataAt - (counts[index] ?? 0);
  });
  if (dataAt > CLASSIC_LIMIT) throw new Error(`page ${pageNumber} of the TIFF is too large to read on its own (over 4 GiB)`);
  const out = Buffer.alloc(dataAt);
  const put16 = (value: number, at: number) => (layout.little ? out.writeUInt16LE(value, at) : out.writeUInt16BE(value, at));
  const put32 = (value: number, at: number) => (layout.little ? out.writeUInt32LE(value, at) : out.writeUInt32BE(value, at));
  out.write(layout.little ? 'II' : 'MM', 0, 'latin1');
  put16(42, 2);
  put32(8, 4);
  put16(kept.length, 8);
  for (const [index, entry] of kept.entries()) {
    const at = 10 + index * 12;
    put16(entry.tag, at);
    put16(entry.type, at + 2);
    put32(entry.count, at + 4);
    const target = valueAt.get(entry);
    if (entry.bytes === null) {
      const base = target ?? at + 8;
      newOffsets.forEach((value, item) => put32(value, base + item * 4));
    } else out.set(entry.bytes, target ?? at + 8);
    if (target !== undefined) put32(target, at + 8);
  }
  put32(0, 8 + 2 + kept.length * 12);
  await copyPieces(file, offsets, counts, out, newOffsets);
  return out;
}

/** Copies each strip or tile to its new place, reading strips that lie close together with one read. */
async function copyPieces(file: TiffFile, offsets: readonly number[], counts: readonly number[], out: Buffer, targets: readonly number[]): Promise<void> {
  const order = offsets.map((_, index) => index).sort((a, b) => (offsets[a] ?? 0) - (offsets[b] ?? 0));
  for (let first = 0; first < order.length; ) {
    const start = offsets[order[first] ?? 0] ?? 0;
    let end = start;
    let last = first;
    while (last < order.length) {
      const index = order[last] ?? 0;
      const from = offsets[index] ?? 0;
      if (last > first && from > end + READ_GAP) break;
      end = Math.max(end, from + (counts[index] ?? 0));
      last += 1;
    }
    const span = await file.read(start, end - start);
    for (let item = first; item < last; item += 1) {
      const index = order[item] ?? 0;
      const from = (offsets[index] ?? 0) - start;
      span.copy(out, targets[index] ?? 0, from, from + (counts[index] ?? 0));
    }
    first = last;
  }
}

/** The whole file, in its own layout, with the header pointing at the page and the page's link to the next one cut. */
async function wholeFileFromPage(file: TiffFile, offset: number, entryCount: number, layout: TiffLayout): Promise<Uint8Array> {
  const bytes = await file.read(0, file.size);
  const view = new TiffView(bytes, layout);
  view.putOffset(layout.bigTiff ? 8 : 4, offset);
  view.putOffset(offset + layout.countSize + entryCount * layout.entrySize, 0);
  return bytes;
}
