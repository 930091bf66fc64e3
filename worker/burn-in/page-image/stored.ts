import { PDFName, PDFNumber, PDFHexString, type PDFDocument, type PDFRef } from 'pdf-lib';

// A Flate page image travels from the burn task to assembly as one file: a short header carrying what the image
// dictionary needs (colour space, bit depth, palette), then the compressed samples.

const MAGIC = [0x4f, 0x42, 0x46, 0x4c]; // "OBFL"

export interface FlateImage {
  /** Null for DeviceRGB samples. */
  palette: Uint8Array | null;
  bits: number;
  data: Uint8Array;
}

export function writeFlateImage(image: FlateImage): Uint8Array {
  const paletteLength = image.palette?.length ?? 0;
  const out = new Uint8Array(8 + paletteLength + image.data.length);
  out.set(MAGIC, 0);
  out[4] = image.bits;
  out[5] = image.palette ? 1 : 0;
  out[6] = (paletteLength >>> 8) & 0xff;
  out[7] = paletteLength & 0xff;
  if (image.palette) out.set(image.palette, 8);
  out.set(image.data, 8 + paletteLength);
  return out;
}

export function readFlateImage(bytes: Uint8Array): FlateImage {
  if (bytes.length < 8 || MAGIC.some((value, index) => bytes[index] !== value)) throw new Error('not a Flate page image');
  const bits = bytes[4] as number;
  const indexed = bytes[5] === 1;
  const paletteLength = ((bytes[6] as number) << 8) | (bytes[7] as number);
  return { bits, palette: indexed ? bytes.subarray(8, 8 + paletteLength) : null, data: bytes.subarray(8 + paletteLength) };
}

/** Registers the image XObject of a stored Flate page image. */
export function embedFlateImage(out: PDFDocument, bytes: Uint8Array, width: number, height: number): PDFRef {
  const image = readFlateImage(bytes);
  const colourSpace = image.palette
    ? out.context.obj([PDFName.of('Indexed'), PDFName.of('DeviceRGB'), PDFNumber.of(image.palette.length / 3 - 1), PDFHexString.of(Buffer.from(image.palette).toString('hex'))])
    : PDFName.of('DeviceRGB');
  const stream = out.context.stream(image.data, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    ColorSpace: colourSpace,
    BitsPerComponent: image.bits,
    Filter: 'FlateDecode',
  });
  return out.context.register(stream);
}
