import { deflateSync } from 'node:zlib';

// Exact colour counting and /Indexed packing for page images with few colours (text, coloured headings, boxes).

/** The distinct RGB colours of an opaque RGBA surface, or null as soon as there are more than `limit`. */
export function exactColours(pixels: Uint32Array, limit: number): Uint32Array | null {
  // Open addressing over a table 8× the limit: a page has long runs of one colour, so the last hit is checked first.
  const size = 1 << Math.ceil(Math.log2(limit * 8));
  const table = new Uint32Array(size);
  const used = new Uint8Array(size);
  const found: number[] = [];
  let last = -1;
  for (let index = 0; index < pixels.length; index += 1) {
    const value = ((pixels[index] as number) & 0xffffff) >>> 0;
    if (value === last) continue;
    last = value;
    let slot = Math.imul(value, 0x9e3779b1) >>> (32 - Math.log2(size));
    while (used[slot] && table[slot] !== value) slot = (slot + 1) & (size - 1);
    if (used[slot]) continue;
    if (found.length === limit) return null;
    used[slot] = 1;
    table[slot] = value;
    found.push(value);
  }
  return Uint32Array.from(found);
}

export function bitsFor(colours: number): 1 | 2 | 4 | 8 {
  return colours <= 2 ? 1 : colours <= 4 ? 2 : colours <= 16 ? 4 : 8;
}

/** Palette indexes packed at the smallest bit depth, rows padded to a byte, Flate-compressed. */
export function packIndexed(pixels: Uint32Array, width: number, height: number, palette: Uint32Array): { data: Uint8Array; bits: number } {
  const bits = bitsFor(palette.length);
  const lookup = new Map<number, number>();
  palette.forEach((colour, index) => lookup.set(colour, index));
  const rowBytes = Math.ceil((width * bits) / 8);
  const raw = new Uint8Array(rowBytes * height);
  const perByte = 8 / bits;
  let last = -1;
  let lastIndex = 0;
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    const out = y * rowBytes;
    for (let x = 0; x < width; x += 1) {
      const value = ((pixels[row + x] as number) & 0xffffff) >>> 0;
      if (value !== last) {
        last = value;
        lastIndex = lookup.get(value) ?? 0;
      }
      const shift = 8 - bits * ((x % perByte) + 1);
      const at = out + Math.floor(x / perByte);
      raw[at] = (raw[at] as number) | (lastIndex << shift);
    }
  }
  return { data: deflateSync(raw, { level: 6 }), bits };
}

/** The RGB samples (no alpha) Flate-compressed: the lossless form of a page with more than 256 colours. */
export function packRgb(pixels: Uint32Array, width: number, height: number): Uint8Array {
  const raw = new Uint8Array(width * height * 3);
  for (let index = 0, at = 0; index < pixels.length; index += 1, at += 3) {
    const value = pixels[index] as number;
    raw[at] = value & 0xff;
    raw[at + 1] = (value >>> 8) & 0xff;
    raw[at + 2] = (value >>> 16) & 0xff;
  }
  return deflateSync(raw, { level: 6 });
}

/** Palette as the string of an /Indexed colour space: R G B bytes per entry. */
export function paletteBytes(palette: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(palette.length * 3);
  palette.forEach((colour, index) => {
    bytes[index * 3] = colour & 0xff;
    bytes[index * 3 + 1] = (colour >>> 8) & 0xff;
    bytes[index * 3 + 2] = (colour >>> 16) & 0xff;
  });
  return bytes;
}

/**
 * The `size` most frequent colours of a page and, for every pixel, its nearest one (RGB distance): antialiased
 * edges of text fold into the palette. Null when the page has more than `track` distinct colours (a photo).
 */
export function frequentPalette(pixels: Uint32Array, size: number, track = 65536): { palette: Uint32Array; mapped: Uint32Array } | null {
  const counts = new Map<number, number>();
  let last = -1;
  let run = 0;
  const flush = () => {
    if (last >= 0) counts.set(last, (counts.get(last) ?? 0) + run);
  };
  for (let index = 0; index < pixels.length; index += 1) {
    const value = ((pixels[index] as number) & 0xffffff) >>> 0;
    if (value === last) {
      run += 1;
      continue;
    }
    flush();
    if (counts.size > track) return null;
    last = value;
    run = 1;
  }
  flush();
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const palette = Uint32Array.from(ranked.slice(0, size).map(([colour]) => colour));
  const nearest = new Map<number, number>();
  for (const [colour] of ranked) {
    let best = 0;
    let bestDistance = Infinity;
    for (const candidate of palette) {
      const dr = (colour & 0xff) - (candidate & 0xff);
      const dg = ((colour >>> 8) & 0xff) - ((candidate >>> 8) & 0xff);
      const db = ((colour >>> 16) & 0xff) - ((candidate >>> 16) & 0xff);
      const distance = dr * dr + dg * dg + db * db;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = candidate;
      }
    }
    nearest.set(colour, best);
  }
  const mapped = new Uint32Array(pixels.length);
  let before = -1;
  let after = 0;
  for (let index = 0; index < pixels.length; index += 1) {
    const value = pixels[index] as number;
    if (value !== before) {
      before = value;
      after = (0xff000000 | (nearest.get((value & 0xffffff) >>> 0) as number)) >>> 0;
    }
    mapped[index] = after;
  }
  return { palette, mapped };
}
