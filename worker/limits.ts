import { workerData } from 'node:worker_threads';
import { constants, createInflate, inflateSync } from 'node:zlib';
import { DEFAULT_PARSER_LIMITS, ParserLimitError, type ParserLimits } from '../main/common/parser-limits.js';

// Limits applied before anything in this thread decodes an untrusted file (docs/security.md, Parser limits).

export function limits(): ParserLimits {
  const given = (workerData as { parserLimits?: Partial<ParserLimits> } | undefined)?.parserLimits;
  return { ...DEFAULT_PARSER_LIMITS, ...given };
}

const MiB = 1024 * 1024;

/** Options for pdf.js getDocument: no eval, and pictures over the pixel limit are skipped instead of decoded. */
export function pdfjsLimitOptions() {
  const { maxImagePixels } = limits();
  return { isEvalSupported: false, maxImageSize: maxImagePixels, canvasMaxAreaInBytes: maxImagePixels * 4 };
}

export function assertImagePixels(width: number, height: number, what: string): void {
  const max = limits().maxImagePixels;
  if (!(width > 0 && height > 0) || width * height > max) {
    throw new ParserLimitError(`${what} is ${width}×${height} pixels, more than the limit of ${max.toLocaleString('en-US')} pixels (parserLimits.maxImagePixels)`);
  }
}

export function assertPageCount(count: number, what = 'the document'): void {
  const max = limits().maxPages;
  if (count > max) throw new ParserLimitError(`${what} has ${count} pages, more than the limit of ${max} (parserLimits.maxPages)`);
}

/** view: a pdf.js page's [x1, y1, x2, y2] in points. */
export function assertPageSide(view: readonly number[], pageNumber: number): void {
  const max = limits().maxPageSidePoints;
  const width = Math.abs((view[2] ?? 0) - (view[0] ?? 0));
  const height = Math.abs((view[3] ?? 0) - (view[1] ?? 0));
  if (width > max || height > max) throw new ParserLimitError(`page ${pageNumber} is ${Math.round(width)}×${Math.round(height)} points, larger than ${max} points a side (parserLimits.maxPageSidePoints)`);
}

/** Width and height from a PNG's IHDR or a JPEG's frame header, read before anything decodes the picture. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString('latin1', 12, 16) === 'IHDR') {
    return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  }
  if (view.length >= 4 && view[0] === 0xff && view[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 < view.length) {
      if (view[offset] !== 0xff) return null;
      const marker = view[offset + 1] ?? 0;
      if (marker === 0xff) {
        offset += 1;
        continue;
      }
      const length = view.readUInt16BE(offset + 2);
      // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: view.readUInt16BE(offset + 7), height: view.readUInt16BE(offset + 5) };
      }
      offset += 2 + length;
    }
  }
  return null;
}

/** Refuses a PNG or JPEG whose declared size passes the pixel limit, before it is decoded. */
export function assertImageFile(bytes: Uint8Array, what = 'the image'): void {
  const size = imageSize(bytes);
  if (size) assertImagePixels(size.width, size.height, what);
}

/** Streams up to this size are inflated at once (at most ~1,032× this in memory, under the cap); larger ones stream. */
const INFLATE_AT_ONCE = 64 * 1024;

/** Bytes a Flate stream inflates to, counted without keeping them; stops counting past `cap`. */
export function inflatedSize(data: Uint8Array, cap: number): Promise<number> {
  // A page's content stream is small: inflated on this thread, not through libuv's pool shared by the process
  // (one round trip per stream, queued behind other threads' file work: tens of milliseconds per document).
  if (data.length <= INFLATE_AT_ONCE) {
    try {
      return Promise.resolve(inflateSync(data, { maxOutputLength: cap + 1, finishFlush: constants.Z_SYNC_FLUSH }).length);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return Promise.resolve(cap + 1);
      // A damaged stream: counted as far as it inflates, by the streaming count below.
    }
  }
  return new Promise((resolve) => {
    const inflate = createInflate({ chunkSize: MiB });
    let total = 0;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve(total);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) {
        inflate.destroy();
        finish();
      }
    });
    inflate.on('end', finish);
    inflate.on('close', finish);
    // A damaged stream counts as far as it inflated; whether the PDF is readable is pdf.js's call.
    inflate.on('error', finish);
    inflate.end(data);
  });
}

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');

/**
 * Decompression caps: every stream whose dictionary names FlateDecode as its (first) filter is inflated
 * once, counting bytes only, before pdf.js or pdf-lib sees the file. Encrypted streams do not inflate and
 * count as nothing; pdf.js then reads what it can within its own image limit.
 */
export async function assertPdfDecompression(bytes: Uint8Array): Promise<void> {
  const { maxStreamBytes, maxDocumentDecodedBytes } = limits();
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let from = 0;
  for (;;) {
    const at = data.indexOf(STREAM, from);
    if (at < 0) return;
    from = at + STREAM.length;
    if (at >= 3 && data.toString('latin1', at - 3, at) === 'end') continue;
    let start = from;
    if (data[start] === 0x0d) start += 1;
    if (data[start] !== 0x0a) continue;
    start += 1;
    const dictionary = data.toString('latin1', Math.max(0, at - 2048), at);
    const opened = dictionary.lastIndexOf('obj');
    const dict = opened >= 0 ? dictionary.slice(opened) : dictionary;
    if (!/\/Filter\s*(\[\s*)?\/FlateDecode\b/.test(dict)) continue;
    const end = data.indexOf(ENDSTREAM, start);
    if (end < 0) return;
    const size = await inflatedSize(data.subarray(start, end), Math.min(maxStreamBytes, maxDocumentDecodedBytes - total));
    if (size > maxStreamBytes) throw new ParserLimitError(`a stream of the PDF inflates to more than ${Math.round(maxStreamBytes / MiB)} MiB (parserLimits.maxStreamBytes)`);
    total += size;
    if (total > maxDocumentDecodedBytes) throw new ParserLimitError(`the PDF's streams inflate to more than ${Math.round(maxDocumentDecodedBytes / MiB)} MiB together (parserLimits.maxDocumentDecodedBytes)`);
    from = end + ENDSTREAM.length;
  }
}
