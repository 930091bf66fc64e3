import fs from 'node:fs/promises';

// A multi-page TIFF (a fax, a scanner batch) is read one page at a time. Tesseract reads only the first
// page of a TIFF, so each page is copied into a TIFF of its own: the page's directory, its tag values and
// its strips or tiles, still encoded. Leptonica (libtiff) then decodes it exactly as it decodes a one-page
// TIFF, whatever the compression, and only that page's bytes are read from disk.

export interface TiffPageSize {
  width: number;
  height: number;
}

interface Directories {
  little: boolean;
  /** File offset of each page's directory (IFD), in page order. */
  offsets: number[];
  pages: TiffPageSize[];
}

const TYPE_SIZE: Readonly<Record<number, number>> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

const TAG = { width: 256, height: 257, compression: 259, stripOffsets: 273, stripByteCounts: 279, tileOffsets: 324, tileByteCounts: 325 } as const;
/** Pointers to other directories (sub-images, EXIF, GPS): not needed to read the page, and they would dangle. */
const POINTER_TAGS = new Set([330, 34665, 34853, 40965]);
/** Old-style JPEG (compression 6) points at tables elsewhere in the file: such a page keeps the whole file. */
const OLD_JPEG = 6;
/** More pages than OCR can be asked for (options.pages) is a broken directory chain, not a document. */
const MAX_PAGES = 100_000;
/** Strips closer than this are read with one read (the bytes between are read and dropped). */
const READ_GAP = 64 * 1024;

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

interface Entry {
  tag: number;
  type: number;
  count: number;
  /** The entry's 4 value bytes as stored: the value itself when it fits, else its offset. */
  raw: Buffer;
}

const u16 = (buffer: Buffer, at: number, little: boolean) => (little ? buffer.readUInt16LE(at) : buffer.readUInt16BE(at));
const u32 = (buffer: Buffer, at: number, little: boolean) => (little ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at));

const valueSize = (entry: Entry) => (TYPE_SIZE[entry.type] ?? 0) * entry.count;

async function readDirectory(file: TiffFile, offset: number, little: boolean): Promise<{ entries: Entry[]; next: number }> {
  const count = u16(await file.read(offset, 2), 0, little);
  const body = await file.read(offset + 2, count * 12 + 4);
  const entries: Entry[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = index * 12;
    entries.push({ tag: u16(body, at, little), type: u16(body, at + 2, little), count: u32(body, at + 4, little), raw: body.subarray(at + 8, at + 12) });
  }
  return { entries, next: u32(body, count * 12, little) };
}

/** The values of a SHORT or LONG entry (sizes, offsets, byte counts). */
async function numbers(file: TiffFile, entry: Entry | undefined, little: boolean): Promise<number[] | null> {
  if (!entry || (entry.type !== 3 && entry.type !== 4) || entry.count === 0) return null;
  const size = valueSize(entry);
  const bytes = size <= 4 ? entry.raw : await file.read(u32(entry.raw, 0, little), size);
  return Array.from({ length: entry.count }, (_, index) => (entry.type === 3 ? u16(bytes, index * 2, little) : u32(bytes, index * 4, little)));
}

async function readDirectories(file: TiffFile): Promise<Directories | null> {
  if (file.size < 8) return null;
  const header = await file.read(0, 8);
  const order = header.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const little = order === 'II';
  // BigTIFF (43) and other variants: left to the image reader as a whole file.
  if (u16(header, 2, little) !== 42) return null;
  const offsets: number[] = [];
  const pages: TiffPageSize[] = [];
  const seen = new Set<number>();
  for (let offset = u32(header, 4, little); offset !== 0 && !seen.has(offset) && offsets.length < MAX_PAGES; ) {
    seen.add(offset);
    let directory;
    try {
      directory = await readDirectory(file, offset, little);
    } catch (error) {
      // A damaged link after the first page ends the document there, as libtiff reads it.
      if (offsets.length > 0) break;
      throw error;
    }
    const tagged = (tag: number) => directory.entries.find((entry) => entry.tag === tag);
    const [width] = (await numbers(file, tagged(TAG.width), little)) ?? [];
    const [height] = (await numbers(file, tagged(TAG.height), little)) ?? [];
    if (width === undefined || height === undefined) throw new Error(`page ${offsets.length + 1} of the TIFF has no image size`);
    offsets.push(offset);
    pages.push({ width, height });
    offset = directory.next;
  }
  return offsets.length === 0 ? null : { little, offsets, pages };
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
 * The size in pixels of each page (as stored, before any orientation tag is applied); null when the file
 * is not a classic TIFF this reader walks (BigTIFF), which is then read as one image.
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
  return withFile(blobPath, async (file) => {
    const { entries } = await readDirectory(file, offset, directories.little);
    const tagged = (tag: number) => entries.find((entry) => entry.tag === tag);
    const [compression] = (await numbers(file, tagged(TAG.compression), directories.little)) ?? [1];
    if (compression === OLD_JPEG) return wholeFileFromPage(file, offset, entries.length, directories.little);
    return singlePage(file, entries, pageNumber, directories.little);
  });
}

/** The page's directory with its values and image data relocated behind it, in the file's byte order. */
async function singlePage(file: TiffFile, entries: Entry[], pageNumber: number, little: boolean): Promise<Uint8Array> {
  const tagged = (tag: number) => entries.find((entry) => entry.tag === tag);
  const tiled = tagged(TAG.tileOffsets) !== undefined;
  const offsetsTag = tiled ? TAG.tileOffsets : TAG.stripOffsets;
  const offsets = await numbers(file, tagged(offsetsTag), little);
  const counts = await numbers(file, tagged(tiled ? TAG.tileByteCounts : TAG.stripByteCounts), little);
  if (!offsets || !counts || offsets.length !== counts.length) throw new Error(`page ${pageNumber} of the TIFF has no readable image data (strip offsets or byte counts missing)`);
  if (offsets.some((start, index) => start + (counts[index] ?? 0) > file.size)) throw new Error(`page ${pageNumber} of the TIFF is truncated: its image data runs past the end of the file`);

  // Unknown types, pointers and values past the end of the file are left out, as libtiff ignores them.
  const readable = (entry: Entry) => valueSize(entry) <= 4 || u32(entry.raw, 0, little) + valueSize(entry) <= file.size;
  const kept = entries
    .filter((entry) => TYPE_SIZE[entry.type] !== undefined && entry.type !== 13 && !POINTER_TAGS.has(entry.tag) && (entry.tag === offsetsTag || readable(entry)))
    .sort((a, b) => a.tag - b.tag);
  // Offsets are rewritten as LONGs: the page's data may sit beyond 64 KiB in the new file.
  const sizeOf = (entry: Entry) => (entry.tag === offsetsTag ? 4 * entry.count : valueSize(entry));
  const directorySize = 2 + kept.length * 12 + 4;
  let valuesEnd = 8 + directorySize;
  const valueAt = new Map<Entry, number>();
  for (const entry of kept) {
    const size = sizeOf(entry);
    if (size <= 4) continue;
    valueAt.set(entry, valuesEnd);
    valuesEnd += size + (size % 2); // values start on a word boundary
  }
  const dataSize = counts.reduce((sum, count) => sum + count, 0);
  const out = Buffer.alloc(valuesEnd + dataSize);
  const put16 = (value: number, at: number) => (little ? out.writeUInt16LE(value, at) : out.writeUInt16BE(value, at));
  const put32 = (value: number, at: number) => (little ? out.writeUInt32LE(value, at) : out.writeUInt32BE(value, at));
  out.write(little ? 'II' : 'MM', 0, 'latin1');
  put16(42, 2);
  put32(8, 4);
  put16(kept.length, 8);

  const newOffsets: number[] = [];
  let dataAt = valuesEnd;
  for (const count of counts) {
    newOffsets.push(dataAt);
    dataAt += count;
  }
  for (const [index, entry] of kept.entries()) {
    const at = 10 + index * 12;
    put16(entry.tag, at);
    put16(entry.tag === offsetsTag ? 4 : entry.type, at + 2);
    put32(entry.count, at + 4);
    const target = valueAt.get(entry);
    if (entry.tag === offsetsTag) {
      const base = target ?? at + 8;
      newOffsets.forEach((value, item) => put32(value, base + item * 4));
    } else if (target === undefined) {
      entry.raw.copy(out, at + 8);
    } else {
      (await file.read(u32(entry.raw, 0, little), valueSize(entry))).copy(out, target);
    }
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

/** The whole file, with the header pointing at the page and the page's link to the next one cut. */
async function wholeFileFromPage(file: TiffFile, offset: number, entryCount: number, little: boolean): Promise<Uint8Array> {
  const bytes = await file.read(0, file.size);
  if (little) {
    bytes.writeUInt32LE(offset, 4);
    bytes.writeUInt32LE(0, offset + 2 + entryCount * 12);
  } else {
    bytes.writeUInt32BE(offset, 4);
    bytes.writeUInt32BE(0, offset + 2 + entryCount * 12);
  }
  return bytes;
}
