import { encodeG4 } from '../ccitt.js';

// 1-bit pages: black-and-white in substance (text, forms, scans), stored CCITT G4.

/** A pixel darker than this becomes black in a 1-bit page (antialiased strokes keep their weight). */
export const BILEVEL_THRESHOLD = 160;

export function isBlack(value: number): boolean {
  return value === -16777216 || ((value & 0xff) * 77 + ((value >>> 8) & 0xff) * 150 + ((value >>> 16) & 0xff) * 29) >>> 8 < BILEVEL_THRESHOLD;
}

interface PixelStats {
  colourful: number;
  midtones: number;
  sampled: number;
}

/** Colour and grey counts over every third pixel of every third row: plenty to tell a text page from a photo. */
function statsOf(pixels: Uint32Array, width: number, height: number): PixelStats {
  let colourful = 0;
  let midtones = 0;
  let sampled = 0;
  for (let y = 1; y < height; y += 3) {
    const row = y * width;
    for (let x = 1; x < width; x += 3) {
      sampled += 1;
      const value = pixels[row + x] as number;
      if (value === 0xffffffff || value === 0xff000000) continue;
      const r = value & 0xff;
      const g = (value >>> 8) & 0xff;
      const b = (value >>> 16) & 0xff;
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      if (max - min > 48) colourful += 1;
      else if (max > 48 && max < 208) midtones += 1;
    }
  }
  return { colourful, midtones, sampled };
}

/** Almost no colour and few grey pixels beyond the antialiased edges of text and lines. */
export function looksBilevel(pixels: Uint32Array, width: number, height: number): boolean {
  const stats = statsOf(pixels, width, height);
  return stats.colourful <= stats.sampled * 0.002 && stats.midtones <= stats.sampled * 0.06;
}

export function encodeBilevel(bytes: Buffer, width: number, height: number): Uint8Array {
  // Signed view: opaque white is -1 and opaque black -16777216, so the common pixels cost one comparison.
  const pixels = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  const rowBytes = width * 4;
  const white = Buffer.alloc(rowBytes, 0xff);
  return encodeG4(width, height, (y, out) => {
    const start = y * width;
    const end = start + width;
    // Most rows of a page are blank: one memcmp instead of a pixel loop.
    if (bytes.compare(white, 0, rowBytes, start * 4, end * 4) === 0) return 0;
    let count = 0;
    let black = false;
    for (let index = start; index < end; index += 1) {
      const value = pixels[index] as number;
      if (value === -1) {
        if (black) {
          out[count++] = index - start;
          black = false;
        }
        continue;
      }
      const dark = isBlack(value);
      if (dark !== black) {
        out[count++] = index - start;
        black = dark;
      }
    }
    return count;
  });
}
