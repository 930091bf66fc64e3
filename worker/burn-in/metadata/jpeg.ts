// JPEG (DCTDecode) streams of kept images carry their own metadata in marker segments: EXIF and GPS (APP1),
// XMP (APP1), ICC-adjacent vendor data, Photoshop/IPTC (APP13), comments (COM). Only the segments that decode
// the picture stay: APP0 (JFIF) and APP14 (Adobe: tells YCCK/CMYK from RGB) besides the coding segments.

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;
const APP0 = 0xe0;
const APP14 = 0xee;

function isDropped(marker: number): boolean {
  if (marker === COM) return true;
  return marker >= 0xe1 && marker <= 0xef && marker !== APP14;
}

/** True for a marker with no length field (SOI, EOI, RSTn, TEM). */
function standalone(marker: number): boolean {
  return marker === SOI || marker === EOI || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;
}

/**
 * The JPEG without its metadata segments; null when the bytes are not a JPEG this can walk (then the caller
 * keeps nothing unchecked: it decides what to do). Everything from SOS on (entropy-coded data, further scans,
 * EOI) is copied as it is, except metadata segments between scans.
 */
export function stripJpegMetadata(bytes: Uint8Array): { bytes: Uint8Array; removed: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return null;
  const parts: Uint8Array[] = [bytes.subarray(0, 2)];
  let removed = 0;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    // Fill bytes (0xFF repeated) may precede a marker.
    while (at < bytes.length && bytes[at + 1] === 0xff) at += 1;
    const marker = bytes[at + 1] ?? -1;
    if (marker < 0) return null;
    if (marker === EOI) {
      parts.push(bytes.subarray(at));
      break;
    }
    if (standalone(marker)) {
      parts.push(bytes.subarray(at, at + 2));
      at += 2;
      continue;
    }
    const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    if (length < 2 || at + 2 + length > bytes.length) return null;
    const end = at + 2 + length;
    if (isDropped(marker)) removed += 1;
    else parts.push(bytes.subarray(at, end));
    at = end;
    if (marker === SOS) {
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      let scan = at;
      while (scan + 1 < bytes.length && !(bytes[scan] === 0xff && bytes[scan + 1] !== 0 && !(bytes[scan + 1]! >= 0xd0 && bytes[scan + 1]! <= 0xd7) && bytes[scan + 1] !== 0xff)) scan += 1;
      parts.push(bytes.subarray(at, scan));
      at = scan;
      if (scan + 1 >= bytes.length) {
        parts.push(bytes.subarray(scan));
        break;
      }
    }
  }
  if (removed === 0) return { bytes, removed };
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return { bytes: out, removed };
}

/** Marker codes of the metadata segments still in a JPEG (for checks): APP1..APP13, APP15, COM. */
export function metadataSegments(bytes: Uint8Array): number[] {
  const found: number[] = [];
  if (bytes[0] !== 0xff || bytes[1] !== SOI) return found;
  let at = 2;
  while (at + 3 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] ?? 0;
    if (marker === SOS || marker === EOI) break;
    if (standalone(marker) || marker === 0xff) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (isDropped(marker)) found.push(marker);
    at += 2 + (((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
  }
  return found;
}

export const KEPT_APP_MARKERS = [APP0, APP14];
