import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFObjectCopier, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib';
import type { Rect } from '../geometry.js';
import { encodeBilevel } from '../page-image/bilevel.js';
import { openPdf } from '../pdfjs.js';
import { Bail } from './bail.js';
import { editPageXObjects } from './forms.js';
import { boundsOf, quadOf, type Area, type Matrix, type Point } from './geometry.js';
import { arrayAt, dictAt, nameOf, numberAt, numbersOf, resolved } from './pdf-values.js';
import { WRITE_WHOLE } from '../../pdf-lib-load.js';

// An image XObject under a box is redacted in its own pixels: decoded (by pdf-lib, else pdf.js, which reads
// every filter), the pixels the box meets painted black (a stencil mask's cleared), stored again (G4 when black and white, else Flate) and drawn from a
// copy made for the one page. The black drawn over it grows to the whole pixels the box cuts. Images with a
// soft mask or a colour key, or in colour spaces a copy in DeviceGray/DeviceRGB would not reproduce, and
// images reached another way too, leave the page to the raster path.

/** The copy's kind: a stencil mask, grey (1 or 8 bits) or RGB. */
export type ImageKind = 'mask' | 'gray' | 'rgb';

export interface ImageCopy {
  /** The XObject name the rewritten content draws the copy by. */
  name: string;
  /** The original's XObject name: no draw of it remains, and the page's resources drop it. */
  replaces: string;
  /** The original image (same object number in every load of the same file). */
  ref: PDFRef;
  width: number;
  height: number;
  kind: ImageKind;
  /** Pixels to paint black: [x1, y1, x2, y2), top-left origin. */
  pixels: [number, number, number, number][];
}

/** The stored copy as assembly writes it: a new stream with this dictionary. */
export interface ImageData {
  width: number;
  height: number;
  mask: boolean;
  colorSpace: 'DeviceGray' | 'DeviceRGB' | null;
  bitsPerComponent: 1 | 8;
  filter: 'CCITTFaxDecode' | 'FlateDecode';
}

/** Largest image pixel (points) redacted whole: the black then reaches at most this far beyond the box. */
const MAX_PIXEL_PT = 2;

const GRAY = new Set(['DeviceGray', 'CalGray', 'G']);
const COLOUR = new Set(['DeviceRGB', 'CalRGB', 'RGB']);

function kindOf(context: PDFContext, dict: PDFDict): ImageKind {
  if (resolved(context, dict.get(PDFName.of('ImageMask')))?.toString() === 'true') return 'mask';
  const space = resolved(context, dict.get(PDFName.of('ColorSpace')));
  const name = nameOf(context, space);
  if (name && GRAY.has(name)) return 'gray';
  if (name && COLOUR.has(name)) return 'rgb';
  if (space instanceof PDFArray) {
    const family = nameOf(context, space.get(0));
    if (family && GRAY.has(family)) return 'gray';
    if (family && COLOUR.has(family)) return 'rgb';
    const profile = resolved(context, space.get(1));
    if (family === 'ICCBased' && profile instanceof PDFStream) {
      const components = numberAt(context, profile.dict, 'N');
      if (components === 1) return 'gray';
      if (components === 3) return 'rgb';
    }
  }
  throw new Bail(`an image in the colour space ${name ?? (space instanceof PDFArray ? (nameOf(context, space.get(0)) ?? 'array') : 'unknown')} lies under a box`);
}

/** Whether `target` is reachable from `object` (forms, patterns, nested resources). */
function reaches(context: PDFContext, object: PDFObject | undefined, target: PDFRef, seen: Set<PDFObject>): boolean {
  if (object === undefined || seen.has(object)) return false;
  seen.add(object);
  if (object instanceof PDFRef) return object === target || reaches(context, context.lookup(object), target, seen);
  if (object instanceof PDFArray) return object.asArray().some((item) => reaches(context, item, target, seen));
  if (object instanceof PDFDict) return [...object.entries()].some(([key, value]) => key !== PDFName.of('Parent') && reaches(context, value, target, seen));
  if (object instanceof PDFStream) return reaches(context, object.dict, target, seen);
  return false;
}

/**
 * Plans the redaction of the image drawn by `name` (CTM `ctm`) under the areas `hits`: the copy, and the black
 * beyond each area over the pixels it cuts (user space). Throws Bail when the image cannot be redacted so.
 */
export function planImage(context: PDFContext, resources: PDFDict | undefined, name: string, copyName: string, ctm: Matrix, areas: readonly Area[]): { copy: ImageCopy; grown: { bounds: Rect; area: number }[] } {
  const xobjects = dictAt(context, resources, 'XObject');
  const reference = xobjects?.get(PDFName.of(name));
  const object = resolved(context, reference);
  if (!(reference instanceof PDFRef) || !(object instanceof PDFRawStream)) throw new Bail(`the image ${name} under a box is not a stream object of its own`);
  const dict = object.dict;
  if (dict.has(PDFName.of('SMask')) || dict.has(PDFName.of('Mask')) || dict.has(PDFName.of('SMaskInData'))) throw new Bail('an image with a mask lies under a box');
  const width = numberAt(context, dict, 'Width');
  const height = numberAt(context, dict, 'Height');
  if (!width || !height || !Number.isInteger(width) || !Number.isInteger(height) || width * height > 40_000_000) throw new Bail('an image under a box has no usable size');
  const kind = kindOf(context, dict);
  // Another name or a form of the page drawing the same image would carry the original along.
  for (const [key, value] of xobjects?.entries() ?? []) {
    if (key.decodeText() !== name && reaches(context, value, reference, new Set())) throw new Bail('an image under a box is also drawn another way on the page');
  }
  for (const kindName of ['Pattern', 'Font']) {
    if (reaches(context, dictAt(context, resources, kindName), reference, new Set())) throw new Bail('an image under a box is also drawn another way on the page');
  }
  const [a, b, c, d, e, f] = ctm;
  // Whole pixels go black: coarse ones would blacken far beyond the box (the page is better rendered).
  const pixelSize = Math.max(Math.hypot(a, b) / width, Math.hypot(c, d) / height);
  if (pixelSize > MAX_PIXEL_PT) throw new Bail(`an image under a box has pixels of ${pixelSize.toFixed(1)} pt (at most ${MAX_PIXEL_PT} are blackened whole)`);
  const det = a * d - b * c;
  if (Math.abs(det) < 1e-12) throw new Bail('an image under a box is drawn with a singular matrix');
  // User space → image pixel space (u right, v down).
  const toPixel = (point: Point): Point => {
    const x = point.x - e;
    const y = point.y - f;
    const unitX = (d * x - c * y) / det;
    const unitY = (-b * x + a * y) / det;
    return { x: unitX * width, y: (1 - unitY) * height };
  };
  const pixels: ImageCopy['pixels'] = [];
  const grown: { bounds: Rect; area: number }[] = [];
  for (const [index, area] of areas.entries()) {
    const corners = area.reach > 0 ? [
      { x: area.bounds.x1, y: area.bounds.y1 },
      { x: area.bounds.x2, y: area.bounds.y1 },
      { x: area.bounds.x2, y: area.bounds.y2 },
      { x: area.bounds.x1, y: area.bounds.y2 },
    ] : area.polygon;
    const inImage = boundsOf(corners.map(toPixel));
    // Whole pixels the area meets (an edge on a pixel boundary, up to rounding, meets none beyond it).
    const x1 = Math.max(0, Math.floor(inImage.x1 + 1e-6));
    const y1 = Math.max(0, Math.floor(inImage.y1 + 1e-6));
    const x2 = Math.min(width, Math.ceil(inImage.x2 - 1e-6));
    const y2 = Math.min(height, Math.ceil(inImage.y2 - 1e-6));
    if (x2 <= x1 || y2 <= y1) continue;
    pixels.push([x1, y1, x2, y2]);
    grown.push({ bounds: boundsOf(quadOf(ctm, x1 / width, 1 - y2 / height, x2 / width, 1 - y1 / height)), area: index });
  }
  return { copy: { name: copyName, replaces: name, ref: reference, width, height, kind, pixels }, grown };
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: Canvas; context: SKRSContext2D };
}

/** The image decoded by pdf.js, one canvas pixel per sample (a one-page file that draws only it). */
async function decoded(source: PDFDocument, copy: ImageCopy): Promise<Buffer> {
  const scratch = await PDFDocument.create({ updateMetadata: false });
  const image = PDFObjectCopier.for(source.context, scratch.context).copy(copy.ref);
  const page = scratch.addPage([copy.width, copy.height]);
  page.node.set(PDFName.of('Resources'), scratch.context.obj({ XObject: { Im: image } }));
  page.node.set(PDFName.of('Contents'), scratch.context.register(scratch.context.stream(`q 0 g ${copy.width} 0 0 ${copy.height} 0 0 cm /Im Do Q`)));
  const document = await openPdf(await scratch.save({ ...WRITE_WHOLE, useObjectStreams: false }));
  try {
    const pdfPage = await document.getPage(1);
    const { canvas, context } = (document.canvasFactory as CanvasFactory).create(copy.width, copy.height);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, copy.width, copy.height);
    await pdfPage.render({ canvas: canvas as never, canvasContext: context as never, viewport: pdfPage.getViewport({ scale: 1 }), intent: 'display' }).promise;
    pdfPage.cleanup();
    return Buffer.from(context.getImageData(0, 0, copy.width, copy.height).data.buffer);
  } finally {
    await document.destroy();
  }
}

/**
 * The samples as RGBA read straight from the stream, when pdf-lib decodes its filters (Flate, LZW, ASCII, run
 * length) and it holds 1 or 8 bits per sample: exact, where pdf.js's drawing loses the last bits of a 1-bit
 * image's last row. Null otherwise.
 */
function samplesOf(source: PDFDocument, copy: ImageCopy): Buffer | null {
  const stream = source.context.lookup(copy.ref);
  if (!(stream instanceof PDFRawStream)) return null;
  let bytes: Uint8Array;
  try {
    bytes = decodePDFRawStream(stream).decode();
  } catch {
    return null;
  }
  const bits = copy.kind === 'mask' ? 1 : numberAt(source.context, stream.dict, 'BitsPerComponent');
  const decode = numbersOf(source.context, arrayAt(source.context, stream.dict, 'Decode'));
  const inverted = decode !== undefined && decode[0] === 1 && decode[1] === 0;
  if (decode !== undefined && !inverted && !(decode[0] === 0 && decode[1] === 1)) return null;
  const { width, height } = copy;
  const channels = copy.kind === 'rgb' ? 3 : 1;
  const rgba = Buffer.alloc(width * height * 4, 255);
  if (bits === 1 && channels === 1) {
    const rowBytes = Math.ceil(width / 8);
    if (bytes.length < rowBytes * height) return null;
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const bit = ((bytes[y * rowBytes + (x >> 3)] as number) >> (7 - (x & 7))) & 1;
        // Black: a stencil's painted sample (0, or 1 when inverted); a grey image's dark one.
        if ((bit === 1) === inverted) rgba.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
      }
    }
    return rgba;
  }
  if (bits !== 8 || copy.kind === 'mask' || bytes.length < width * height * channels) return null;
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    for (let channel = 0; channel < 3; channel += 1) {
      const value = bytes[pixel * channels + (channels === 1 ? 0 : channel)] as number;
      rgba[pixel * 4 + channel] = inverted ? 255 - value : value;
    }
  }
  return rgba;
}

/** The copy's pixels and dictionary: the image with the planned pixels black. */
export async function redactImage(source: PDFDocument, copy: ImageCopy): Promise<{ data: ImageData; bytes: Uint8Array }> {
  const rgba = samplesOf(source, copy) ?? (await decoded(source, copy));
  const { width, height } = copy;
  // Black in an image; a stencil's pixels cleared (black there would paint its fill colour wherever it is drawn).
  const value = copy.kind === 'mask' ? 255 : 0;
  for (const [x1, y1, x2, y2] of copy.pixels) {
    for (let y = y1; y < y2; y += 1) rgba.fill(value, (y * width + x1) * 4, (y * width + x2) * 4);
    for (let y = y1; y < y2; y += 1) for (let x = x1; x < x2; x += 1) rgba[(y * width + x) * 4 + 3] = 255;
  }
  let bilevel = copy.kind !== 'rgb';
  if (copy.kind === 'gray') {
    for (let index = 0; index < rgba.length && bilevel; index += 4) {
      const value = rgba[index] as number;
      if (value !== 0 && value !== 255) bilevel = false;
    }
  }
  if (bilevel) {
    // A stencil paints where its samples are 0, as black is 0 in G4's default: painted pixels are black here.
    return { data: { width, height, mask: copy.kind === 'mask', colorSpace: copy.kind === 'mask' ? null : 'DeviceGray', bitsPerComponent: 1, filter: 'CCITTFaxDecode' }, bytes: encodeBilevel(rgba, width, height) };
  }
  const channels = copy.kind === 'gray' ? 1 : 3;
  const samples = Buffer.alloc(width * height * channels);
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    for (let channel = 0; channel < channels; channel += 1) samples[pixel * channels + channel] = rgba[pixel * 4 + channel] as number;
  }
  return { data: { width, height, mask: false, colorSpace: channels === 1 ? 'DeviceGray' : 'DeviceRGB', bitsPerComponent: 8, filter: 'FlateDecode' }, bytes: deflateSync(samples) };
}

/** Adds the image copies to page `pageIndex` under their names, in a resource dictionary of the page's own. */
export function addImageCopies(doc: PDFDocument, pageIndex: number, copies: readonly { name: string; replaces?: string; data: ImageData; bytes: Uint8Array }[]): void {
  if (copies.length === 0) return;
  const context = doc.context;
  editPageXObjects(doc, pageIndex, (xobjects) => {
    for (const copy of copies) {
      const { data } = copy;
      const dict = context.obj({
        Type: 'XObject',
        Subtype: 'Image',
        Width: data.width,
        Height: data.height,
        BitsPerComponent: data.bitsPerComponent,
        Filter: data.filter,
        ...(data.mask ? { ImageMask: true } : { ColorSpace: data.colorSpace ?? 'DeviceGray' }),
        ...(data.filter === 'CCITTFaxDecode' && { DecodeParms: { K: -1, Columns: data.width, Rows: data.height } }),
      }) as PDFDict;
      xobjects.set(PDFName.of(copy.name), context.register(PDFRawStream.of(dict, copy.bytes)));
      // Every draw of the original now draws the copy: the name goes, so the original cannot travel.
      if (copy.replaces) xobjects.delete(PDFName.of(copy.replaces));
    }
  });
}
