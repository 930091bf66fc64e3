import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import type { BurnSettings, PageImageEncoding } from '../../../main/common/export-tasks.js';
import { stripJpegMetadata } from '../metadata/jpeg.js';
import { encodeBilevel, isBlack, looksBilevel } from './bilevel.js';
import { THRESHOLD, VISIBLE, boxesStayBlack, differingCells, erasedInkCells, greyOf, type PixelRect } from './guard.js';
import { exactColours, frequentPalette, packIndexed, packRgb, paletteBytes } from './palette.js';
import { writeFlateImage } from './stored.js';

// The encoding of a rendered page, chosen per page. Lossless first: two colours → CCITT G4; up to 256 colours →
// /Indexed + Flate at 1/2/4/8 bits. Lossy only after a check against the canvas: near-bilevel text → G4 by
// threshold; photos → JPEG, kept only when every box pixel decodes black. One front door: encodePageImage.

export { embedFlateImage } from './stored.js';
export type { PixelRect } from './guard.js';

export interface EncodedImage {
  bytes: Uint8Array;
  encoding: PageImageEncoding;
  width: number;
  height: number;
}

/** The size a rendered text page should stay under (issue 15's target at the default 200 dpi). */
export const PAGE_BUDGET = 150 * 1024;
/** Share of 16-pixel tiles that look photographic above which a page with >256 colours goes JPEG. */
const PHOTO_SHARE = 0.1;

/** Share of 16×16 tiles with many distinct colours among 64 samples: photos and gradients, not text edges. */
export function photoShare(pixels: Uint32Array, width: number, height: number): number {
  let tiles = 0;
  let photo = 0;
  const seen = new Set<number>();
  for (let top = 0; top + 16 <= height; top += 16) {
    for (let left = 0; left + 16 <= width; left += 16) {
      tiles += 1;
      seen.clear();
      for (let y = top; y < top + 16; y += 2) for (let x = left; x < left + 16; x += 2) seen.add(pixels[y * width + x] as number);
      if (seen.size > 40) photo += 1;
    }
  }
  return tiles === 0 ? 0 : photo / tiles;
}

async function encodeJpeg(canvas: Canvas, quality: number): Promise<Uint8Array> {
  const jpeg = await canvas.encode('jpeg', quality);
  const bytes = new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  // The encoder adds an ICC profile segment (APP2); the PDF's colour space decides, and outputs carry no segments.
  return stripJpegMetadata(bytes)?.bytes ?? bytes;
}

async function decodeJpeg(bytes: Uint8Array, width: number, height: number): Promise<Uint32Array> {
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = canvas.data();
  return new Uint32Array(data.buffer, data.byteOffset, data.byteLength >>> 2);
}

/**
 * The page image of a burned canvas. `boxes` are the painted boxes in canvas pixels: a JPEG is kept only if every
 * black pixel inside them decodes black. `imageMode` bilevel forces G4; color never thresholds to 1 bit.
 */
export async function encodePageImage(canvas: Canvas, settings: BurnSettings, boxes: readonly PixelRect[]): Promise<EncodedImage> {
  const { width, height } = canvas;
  // The raw RGBA surface (one copy, no ImageData object); opaque, so premultiplication changes nothing.
  const bytes = canvas.data();
  const pixels = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  const g4 = (): EncodedImage => ({ bytes: encodeBilevel(bytes, width, height), encoding: 'ccitt-g4', width, height });
  if (settings.imageMode === 'bilevel') return g4();
  const palette = exactColours(pixels, 256);
  if (palette && palette.every((colour) => colour === 0 || colour === 0xffffff)) return g4();
  if (settings.imageMode !== 'color' && looksBilevel(pixels, width, height)) {
    // Thresholding may lose nothing the fidelity check would see (light grey text, thin coloured rules).
    const lost = differingCells(pixels, width, height, settings.dpi, (index) => (isBlack(pixels[index] as number) ? 0 : 255), THRESHOLD);
    const erased = erasedInkCells(pixels, width, height, settings.dpi, (index) => isBlack(pixels[index] as number));
    if (lost === 0 && erased === 0) return g4();
  }
  if (palette) {
    const packed = packIndexed(pixels, width, height, palette);
    const exact: EncodedImage = { bytes: writeFlateImage({ palette: paletteBytes(palette), bits: packed.bits, data: packed.data }), encoding: 'flate', width, height };
    if (exact.bytes.length <= PAGE_BUDGET || palette.length <= 16) return exact;
    // Over budget at 8 bits: 4, 8 or 16 colours may do (fewer colours compress better at the same depth), guarded like any lossy form.
    const reduced = palette.every(isNeutral) ? greyLevels(pixels, width, height, settings.dpi) : reducedPalette(pixels, width, height, settings.dpi, [4, 8, 16]);
    return reduced && reduced.bytes.length < exact.bytes.length ? reduced : exact;
  }
  const photos = photoShare(pixels, width, height) >= PHOTO_SHARE;
  const jpeg = async () => {
    const encoded = await encodeJpeg(canvas, settings.jpegQuality);
    const decoded = await decodeJpeg(encoded, width, height);
    if (!boxesStayBlack(pixels, decoded, width, height, boxes)) return null;
    if (differingCells(pixels, width, height, settings.dpi, (index) => greyOf(decoded[index] as number)) > 0) return null;
    return { bytes: encoded, encoding: 'jpeg', width, height } as const;
  };
  if (photos) {
    const image = await jpeg();
    if (image) return image;
  }
  const reduced = reducedPalette(pixels, width, height, settings.dpi);
  if (reduced) return reduced;
  const lossless: EncodedImage = { bytes: writeFlateImage({ palette: null, bits: 8, data: packRgb(pixels, width, height) }), encoding: 'flate', width, height };
  if (photos || lossless.bytes.length <= PAGE_BUDGET) return lossless;
  const image = await jpeg();
  return image && image.bytes.length < lossless.bytes.length ? image : lossless;
}

const isNeutral = (colour: number) => (colour & 0xff) === ((colour >>> 8) & 0xff) && (colour & 0xff) === ((colour >>> 16) & 0xff);

/**
 * Grey pages over budget at 8 bits (a 1-bit scan drawn at another dpi: its edges take every grey): 4, then 16,
 * evenly spaced greys, each pixel to the nearest (off by at most 43, then 9). The most frequent greys of such a
 * page are near black and white, so a frequent-colour palette moves its edges too far (issue5747: 190 KB → 79 KB).
 */
function greyLevels(pixels: Uint32Array, width: number, height: number, dpi: number): EncodedImage | null {
  for (const levels of [4, 16]) {
    const step = 255 / (levels - 1);
    const palette = Uint32Array.from({ length: levels }, (_, index) => Math.round(index * step) * 0x010101);
    const mapped = new Uint32Array(pixels.length);
    for (let index = 0; index < pixels.length; index += 1) mapped[index] = (0xff000000 | (palette[Math.round(greyOf(pixels[index] as number) / step)] as number)) >>> 0;
    if (differingCells(pixels, width, height, dpi, (index) => greyOf(mapped[index] as number)) > 0) continue;
    if (erasedInkCells(pixels, width, height, dpi, (index) => greyOf(mapped[index] as number) < VISIBLE) > 0) continue;
    const packed = packIndexed(mapped, width, height, palette);
    return { bytes: writeFlateImage({ palette: paletteBytes(palette), bits: packed.bits, data: packed.data }), encoding: 'flate', width, height };
  }
  return null;
}

/**
 * Text pages with more than 256 colours (antialiased coloured text): the fewest of the most frequent colours,
 * every pixel mapped to the nearest, kept only when the guard sees no difference.
 */
function reducedPalette(pixels: Uint32Array, width: number, height: number, dpi: number, sizes = [4, 8, 16, 256]): EncodedImage | null {
  for (const size of sizes) {
    const reduced = frequentPalette(pixels, size);
    if (!reduced) return null;
    const { mapped, palette } = reduced;
    if (differingCells(pixels, width, height, dpi, (index) => greyOf(mapped[index] as number)) > 0) continue;
    if (erasedInkCells(pixels, width, height, dpi, (index) => greyOf(mapped[index] as number) < VISIBLE) > 0) continue;
    const packed = packIndexed(mapped, width, height, palette);
    return { bytes: writeFlateImage({ palette: paletteBytes(palette), bits: packed.bits, data: packed.data }), encoding: 'flate', width, height };
  }
  return null;
}
