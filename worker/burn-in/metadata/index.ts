import { inflateSync } from 'node:zlib';
import { PDFArray, PDFName, PDFRawStream, type PDFContext, type PDFObject, type PDFRef } from 'pdf-lib';
import { metadataSegments, stripJpegMetadata } from './jpeg.js';

// Metadata nested below the document level: private keys of the producing application (pdfTeX's /PTEX.InfoDict
// with the Author and Title of an included figure, /PTEX.FileName with its path) and the marker segments of
// JPEG images (EXIF with GPS, XMP, Photoshop/IPTC, comments). The key list of sanitize.ts covers /Metadata,
// /PieceInfo and /LastModified on any object.

/** Key prefixes of application-private data: pdfTeX and LuaTeX (PTEX.), XeTeX and dvipdfmx (same prefix). */
const PRIVATE_PREFIXES = ['PTEX.'];

export function isPrivateKey(key: string): boolean {
  return PRIVATE_PREFIXES.some((prefix) => key.startsWith(prefix));
}

function filters(context: PDFContext, value: PDFObject | undefined): string[] | null {
  const resolved = value === undefined ? undefined : context.lookup(value);
  if (resolved === undefined) return [];
  if (resolved instanceof PDFName) return [resolved.decodeText()];
  if (resolved instanceof PDFArray) {
    const names = resolved.asArray().map((item) => context.lookup(item));
    return names.every((name) => name instanceof PDFName) ? names.map((name) => (name as PDFName).decodeText()) : null;
  }
  return null;
}

/** The JPEG bytes of a DCTDecode image stream (Flate-wrapped JPEGs inflated); null for any other stream. */
function jpegOf(context: PDFContext, stream: PDFRawStream): Uint8Array | null {
  const chain = filters(context, stream.dict.get(PDFName.of('Filter')));
  if (!chain || chain[chain.length - 1] !== 'DCTDecode') return null;
  if (chain.length === 1) return stream.contents;
  if (chain.length === 2 && chain[0] === 'FlateDecode') {
    try {
      return new Uint8Array(inflateSync(stream.contents));
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Rewrites every JPEG image stream among `refs` without its metadata segments (APP0 JFIF and APP14 Adobe stay:
 * they decide how the colours decode). Returns how many streams changed.
 */
export function stripImageMetadata(context: PDFContext, refs: Iterable<PDFRef>): number {
  let changed = 0;
  for (const ref of refs) {
    const stream = context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const jpeg = jpegOf(context, stream);
    if (!jpeg) continue;
    const stripped = stripJpegMetadata(jpeg);
    if (!stripped || (stripped.removed === 0 && jpeg === stream.contents)) continue;
    const dict = stream.dict.clone(context);
    dict.set(PDFName.of('Filter'), PDFName.of('DCTDecode'));
    dict.delete(PDFName.of('DecodeParms'));
    dict.set(PDFName.of('Length'), context.obj(stripped.bytes.length));
    context.assign(ref, PDFRawStream.of(dict, stripped.bytes));
    changed += 1;
  }
  return changed;
}

/** Problems of nested metadata in one object of an output: a private key, or a JPEG still carrying segments. */
export function metadataProblems(context: PDFContext, object: PDFObject): string[] {
  if (!(object instanceof PDFRawStream)) return [];
  const jpeg = jpegOf(context, object);
  if (!jpeg) return [];
  const segments = metadataSegments(jpeg);
  return segments.length > 0 ? [`a JPEG image still has metadata segments (${segments.map((marker) => `0x${marker.toString(16)}`).join(', ')})`] : [];
}
