// The picture handed to tesseract: an uncompressed 8-bit grey TIFF, one strip. Leptonica reads its strip
// with one read, where a binary PGM is read a byte at a time (about 60 ms more per 300 dpi page in wasm).

/**
 * Where the pixels start. tesseract.js looks for an EXIF orientation tag in the first 500 bytes of every
 * image; starting the pixels beyond that keeps a page's own grey levels from ever being taken for one.
 */
export const GREY_TIFF_PIXELS_OFFSET = 512;

const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;

const Tag = {
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  XResolution: 282,
  YResolution: 283,
  ResolutionUnit: 296,
} as const;

const IFD_OFFSET = 8;

export interface GreyTiff {
  /** The whole file. */
  bytes: Buffer;
  /** Its width × height pixels, row by row, 0 black to 255 white: the caller fills them. */
  pixels: Buffer;
}

/**
 * An empty grey TIFF of width × height pixels at `dpi` (written as its resolution, to a hundredth); with `dpi`
 * null no resolution is written and tesseract estimates it from the text, as for an image that states none.
 */
export function greyTiff(width: number, height: number, dpi: number | null): GreyTiff {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RangeError(`a picture of ${width} × ${height} pixels cannot be made`);
  const size = width * height;
  if (size > 0xffffffff - GREY_TIFF_PIXELS_OFFSET) throw new RangeError(`a picture of ${width} × ${height} pixels is too large for one TIFF strip`);
  const entries: Array<[number, number, number]> = [
    [Tag.ImageWidth, LONG, width],
    [Tag.ImageLength, LONG, height],
    [Tag.BitsPerSample, SHORT, 8],
    [Tag.Compression, SHORT, 1],
    [Tag.Photometric, SHORT, 1], // black is zero
    [Tag.StripOffsets, LONG, GREY_TIFF_PIXELS_OFFSET],
    [Tag.SamplesPerPixel, SHORT, 1],
    [Tag.RowsPerStrip, LONG, height],
    [Tag.StripByteCounts, LONG, size],
  ];
  if (dpi !== null) entries.push([Tag.XResolution, RATIONAL, 0], [Tag.YResolution, RATIONAL, 0], [Tag.ResolutionUnit, SHORT, 2]); // inch
  const resolutionAt = IFD_OFFSET + 2 + entries.length * 12 + 4;
  const bytes = Buffer.allocUnsafe(GREY_TIFF_PIXELS_OFFSET + size);
  bytes.fill(0, 0, GREY_TIFF_PIXELS_OFFSET);
  bytes.write('II', 0, 'latin1');
  bytes.writeUInt16LE(42, 2);
  bytes.writeUInt32LE(IFD_OFFSET, 4);
  bytes.writeUInt16LE(entries.length, IFD_OFFSET);
  entries.forEach(([tag, type, value], index) => {
    const at = IFD_OFFSET + 2 + index * 12;
    bytes.writeUInt16LE(tag, at);
    bytes.writeUInt16LE(type, at + 2);
    bytes.writeUInt32LE(1, at + 4);
    if (type === SHORT) bytes.writeUInt16LE(value, at + 8);
    else if (type === LONG) bytes.writeUInt32LE(value, at + 8);
    else bytes.writeUInt32LE(tag === Tag.XResolution ? resolutionAt : resolutionAt + 8, at + 8);
  });
  // The IFD's next-IFD offset stays 0 (one page). Resolution: dpi × 100 / 100, for both axes.
  if (dpi !== null) {
    const hundredths = Math.max(1, Math.round(dpi * 100));
    for (const at of [resolutionAt, resolutionAt + 8]) {
      bytes.writeUInt32LE(hundredths, at);
      bytes.writeUInt32LE(100, at + 4);
    }
  }
  return { bytes, pixels: bytes.subarray(GREY_TIFF_PIXELS_OFFSET) };
}
