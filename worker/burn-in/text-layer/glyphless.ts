// A TrueType program with two glyphs and no outlines (.notdef and one blank glyph), the font of the invisible
// text layer, as tesseract's and OCRmyPDF's text-only PDFs use: every character of any script maps to the blank
// glyph, and the ToUnicode map carries the text. Built once, a few hundred bytes, embedded once per output.

export const UNITS_PER_EM = 1000;
/** Advance of the blank glyph: half an em, stretched per word with Tz. */
export const GLYPH_ADVANCE = 500;
export const ASCENT = 950;
export const DESCENT = -250;

function table(tag: string, data: Buffer) {
  return { tag, data };
}

function checksum(data: Buffer): number {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + padded.readUInt32BE(at)) >>> 0;
  return sum;
}

function head(): Buffer {
  const data = Buffer.alloc(54);
  data.writeUInt32BE(0x00010000, 0); // version
  data.writeUInt32BE(0x00010000, 4); // fontRevision
  data.writeUInt32BE(0, 8); // checkSumAdjustment (set after assembly)
  data.writeUInt32BE(0x5f0f3cf5, 12); // magicNumber
  data.writeUInt16BE(0x000b, 16); // flags
  data.writeUInt16BE(UNITS_PER_EM, 18);
  // created, modified: zero (no dates in a release)
  data.writeInt16BE(0, 36); // xMin
  data.writeInt16BE(DESCENT, 38); // yMin
  data.writeInt16BE(GLYPH_ADVANCE, 40); // xMax
  data.writeInt16BE(ASCENT, 42); // yMax
  data.writeUInt16BE(0, 44); // macStyle
  data.writeUInt16BE(8, 46); // lowestRecPPEM
  data.writeInt16BE(2, 48); // fontDirectionHint
  data.writeInt16BE(0, 50); // indexToLocFormat: short
  data.writeInt16BE(0, 52); // glyphDataFormat
  return data;
}

function hhea(): Buffer {
  const data = Buffer.alloc(36);
  data.writeUInt32BE(0x00010000, 0);
  data.writeInt16BE(ASCENT, 4);
  data.writeInt16BE(DESCENT, 6);
  data.writeInt16BE(0, 8); // lineGap
  data.writeUInt16BE(GLYPH_ADVANCE, 10); // advanceWidthMax
  data.writeInt16BE(0, 12);
  data.writeInt16BE(0, 14);
  data.writeInt16BE(GLYPH_ADVANCE, 16); // xMaxExtent
  data.writeInt16BE(1, 18); // caretSlopeRise
  data.writeUInt16BE(2, 34); // numberOfHMetrics
  return data;
}

function maxp(): Buffer {
  const data = Buffer.alloc(32);
  data.writeUInt32BE(0x00010000, 0);
  data.writeUInt16BE(2, 4); // numGlyphs
  data.writeUInt16BE(1, 14); // maxZones
  return data;
}

function hmtx(): Buffer {
  const data = Buffer.alloc(8);
  data.writeUInt16BE(GLYPH_ADVANCE, 0);
  data.writeUInt16BE(GLYPH_ADVANCE, 4);
  return data;
}

/** cmap format 4 mapping nothing but the required final segment; the PDF maps codes to glyphs itself. */
function cmap(): Buffer {
  const sub = Buffer.alloc(24);
  sub.writeUInt16BE(4, 0);
  sub.writeUInt16BE(24, 2);
  sub.writeUInt16BE(2, 6); // segCountX2
  sub.writeUInt16BE(2, 8); // searchRange
  sub.writeUInt16BE(0, 10);
  sub.writeUInt16BE(0, 12);
  sub.writeUInt16BE(0xffff, 14); // endCode
  sub.writeUInt16BE(0, 16); // reservedPad
  sub.writeUInt16BE(0xffff, 18); // startCode
  sub.writeInt16BE(1, 20); // idDelta
  sub.writeUInt16BE(0, 22); // idRangeOffset
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0, 0);
  header.writeUInt16BE(1, 2);
  header.writeUInt16BE(3, 4); // Windows
  header.writeUInt16BE(1, 6); // Unicode BMP
  header.writeUInt32BE(12, 8);
  return Buffer.concat([header, sub]);
}

function post(): Buffer {
  const data = Buffer.alloc(32);
  data.writeUInt32BE(0x00030000, 0); // no glyph names
  return data;
}

function name(): Buffer {
  const value = Buffer.from('GlyphLessFont', 'utf16le').swap16();
  const ids = [1, 2, 4, 6];
  const header = Buffer.alloc(6 + ids.length * 12);
  header.writeUInt16BE(0, 0);
  header.writeUInt16BE(ids.length, 2);
  header.writeUInt16BE(header.length, 4);
  ids.forEach((id, index) => {
    const at = 6 + index * 12;
    header.writeUInt16BE(3, at);
    header.writeUInt16BE(1, at + 2);
    header.writeUInt16BE(0x409, at + 4);
    header.writeUInt16BE(id, at + 6);
    header.writeUInt16BE(value.length, at + 8);
    header.writeUInt16BE(0, at + 10);
  });
  return Buffer.concat([header, value]);
}

let program: Uint8Array | null = null;

/** The font program (FontFile2). */
export function glyphlessFont(): Uint8Array {
  if (program) return program;
  const tables = [
    table('OS/2', os2()),
    table('cmap', cmap()),
    // Two empty glyphs: loca offsets all zero (short format), glyf holds no data beyond padding.
    table('glyf', Buffer.alloc(4)),
    table('head', head()),
    table('hhea', hhea()),
    table('hmtx', hmtx()),
    table('loca', Buffer.alloc(6)),
    table('maxp', maxp()),
    table('name', name()),
    table('post', post()),
  ];
  const count = tables.length;
  const directory = Buffer.alloc(12 + count * 16);
  directory.writeUInt32BE(0x00010000, 0);
  directory.writeUInt16BE(count, 4);
  const power = 2 ** Math.floor(Math.log2(count));
  directory.writeUInt16BE(power * 16, 6);
  directory.writeUInt16BE(Math.log2(power), 8);
  directory.writeUInt16BE(count * 16 - power * 16, 10);
  let offset = directory.length;
  const bodies: Buffer[] = [];
  tables.forEach((entry, index) => {
    const at = 12 + index * 16;
    directory.write(entry.tag, at, 'latin1');
    directory.writeUInt32BE(checksum(entry.data), at + 4);
    directory.writeUInt32BE(offset, at + 8);
    directory.writeUInt32BE(entry.data.length, at + 12);
    const padded = Buffer.concat([entry.data, Buffer.alloc((4 - (entry.data.length % 4)) % 4)]);
    bodies.push(padded);
    offset += padded.length;
  });
  const font = Buffer.concat([directory, ...bodies]);
  const headAt = font.indexOf(Buffer.from('head', 'latin1'), 12);
  const headOffset = font.readUInt32BE(headAt + 8);
  font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headOffset + 8);
  program = new Uint8Array(font);
  return program;
}

function os2(): Buffer {
  const data = Buffer.alloc(78);
  data.writeUInt16BE(1, 0); // version
  data.writeInt16BE(GLYPH_ADVANCE, 2); // xAvgCharWidth
  data.writeUInt16BE(400, 4); // weight
  data.writeUInt16BE(5, 6); // width
  data.writeUInt16BE(0, 8); // fsType: installable
  data.writeInt16BE(ASCENT, 68); // sTypoAscender
  data.writeInt16BE(DESCENT, 70); // sTypoDescender
  data.writeInt16BE(0, 72); // sTypoLineGap
  data.writeUInt16BE(ASCENT, 74); // usWinAscent
  data.writeUInt16BE(-DESCENT, 76); // usWinDescent
  return Buffer.concat([data, Buffer.alloc(8)]); // ulCodePageRange1/2 (version 1)
}
