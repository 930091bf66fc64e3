import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../main/common/csv.js';
import { CCITT_TABLES, encodeG4 } from '../../worker/burn-in/ccitt.js';
import { boxCovers } from '../../worker/burn-in/geometry.js';
import { tiffAsPdf } from '../../worker/burn-in/tiff.js';
import { searchOutput, verify } from '../../worker/burn-in/verify.js';
import { leakedWords } from '../../worker/burn-in/words.js';
import { tempDir } from '../helpers/temp.js';

// The pieces of burn-in with exact answers: the G4 encoder (checked by poppler's decoder), CSV escaping,
// the geometry of "under a box", the leak arithmetic of verification, and TIFF strips with CCITT data.

type Bitmap = { width: number; height: number; black: (x: number, y: number) => boolean };

function changesOf(bitmap: Bitmap) {
  return (y: number, out: Int32Array) => {
    let count = 0;
    let black = false;
    for (let x = 0; x < bitmap.width; x += 1) {
      const value = bitmap.black(x, y);
      if (value !== black) {
        out[count++] = x;
        black = value;
      }
    }
    return count;
  };
}

/** Wraps G4 data as a 1-bit image in a PDF, extracts it with poppler's pdfimages (PBM) and returns its bits. */
async function decodeWithPoppler(data: Uint8Array, width: number, height: number): Promise<(x: number, y: number) => boolean> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([width, height]);
  const stream = doc.context.stream(data, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 1,
    Filter: 'CCITTFaxDecode',
    DecodeParms: { K: -1, Columns: width, Rows: height },
  });
  const name = page.node.newXObject('Im', doc.context.register(stream));
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(width, 0, 0, height, 0, 0), drawObject(name), popGraphicsState());
  const dir = tempDir('obscura-g4-');
  try {
    fs.writeFileSync(path.join(dir, 'g4.pdf'), await doc.save());
    execFileSync('pdfimages', [path.join(dir, 'g4.pdf'), path.join(dir, 'img')]);
    const pbm = fs.readFileSync(path.join(dir, 'img-000.pbm'));
    const header = /^P4\s+(\d+)\s+(\d+)\s/.exec(pbm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('pdfimages did not write a PBM');
    expect([Number(header[1]), Number(header[2])]).toEqual([width, height]);
    const bits = pbm.subarray(header[0].length);
    const rowBytes = Math.ceil(width / 8);
    // PBM: 1 is black.
    return (x, y) => (((bits[y * rowBytes + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1) === 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe('CCITT G4 encoder', () => {
  it('each colour set of codes is prefix-free and has the standard counts', () => {
    const white = [...CCITT_TABLES.WHITE_TERMINATING, ...CCITT_TABLES.WHITE_MAKEUP, ...CCITT_TABLES.EXTENDED_MAKEUP];
    const black = [...CCITT_TABLES.BLACK_TERMINATING, ...CCITT_TABLES.BLACK_MAKEUP, ...CCITT_TABLES.EXTENDED_MAKEUP];
    expect([CCITT_TABLES.WHITE_TERMINATING.length, CCITT_TABLES.WHITE_MAKEUP.length, CCITT_TABLES.EXTENDED_MAKEUP.length]).toEqual([64, 27, 13]);
    for (const set of [white, black]) {
      const texts = set.map(([bits, length]) => bits.toString(2).padStart(length, '0'));
      for (const a of texts) for (const b of texts) if (a !== b) expect(b.startsWith(a), `${a} prefixes ${b}`).toBe(false);
    }
  });

  const cases: [string, Bitmap][] = [
    ['blank', { width: 64, height: 8, black: () => false }],
    ['all black', { width: 70, height: 5, black: () => true }],
    ['stripes and a width that is not a multiple of 8', { width: 203, height: 31, black: (x, y) => (x + y * 3) % 17 < 5 }],
    ['shifting edges (vertical modes)', { width: 128, height: 40, black: (x, y) => x > 20 + (y % 7) && x < 90 - (y % 5) }],
    ['runs longer than 2560 (make-up and extended codes)', { width: 6000, height: 4, black: (x, y) => (y % 2 === 0 ? x >= 2700 && x < 5900 : x < 1800) }],
  ];
  for (const [label, bitmap] of cases) {
    it(`poppler decodes exactly what was encoded: ${label}`, async () => {
      const decoded = await decodeWithPoppler(encodeG4(bitmap.width, bitmap.height, changesOf(bitmap)), bitmap.width, bitmap.height);
      for (let y = 0; y < bitmap.height; y += 1) for (let x = 0; x < bitmap.width; x += 1) if (decoded(x, y) !== bitmap.black(x, y)) throw new Error(`pixel ${x},${y} differs`);
    });
  }

  it('random noise round-trips (every mode, both colours)', async () => {
    const random = seeded(7);
    const width = 321;
    const height = 60;
    const pixels = Array.from({ length: width * height }, () => random() < 0.3);
    const bitmap: Bitmap = { width, height, black: (x, y) => pixels[y * width + x] ?? false };
    const decoded = await decodeWithPoppler(encodeG4(width, height, changesOf(bitmap)), width, height);
    let differences = 0;
    for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) if (decoded(x, y) !== bitmap.black(x, y)) differences += 1;
    expect(differences).toBe(0);
  });
});

describe('TIFF pages', () => {
  it('a G4-compressed, bit-reversed strip (FillOrder 2) becomes a page poppler reads', async () => {
    const width = 40;
    const height = 10;
    const bitmap: Bitmap = { width, height, black: (x, y) => x >= 10 && x < 30 && y >= 2 && y < 8 };
    const g4 = encodeG4(width, height, changesOf(bitmap));
    const reversed = g4.map((byte) => Number.parseInt(byte.toString(2).padStart(8, '0').split('').reverse().join(''), 2));
    const entries: [number, number, number][] = [
      [256, 3, width],
      [257, 3, height],
      [258, 3, 1],
      [259, 3, 4],
      [262, 3, 0],
      [266, 3, 2],
      [273, 4, 0],
      [277, 3, 1],
      [278, 3, height],
      [279, 4, reversed.length],
    ];
    const ifdAt = 8 + reversed.length;
    const file = Buffer.alloc(ifdAt + 2 + entries.length * 12 + 4);
    file.write('II', 0, 'latin1');
    file.writeUInt16LE(42, 2);
    file.writeUInt32LE(ifdAt, 4);
    Buffer.from(reversed).copy(file, 8);
    file.writeUInt16LE(entries.length, ifdAt);
    entries.forEach(([tag, type, value], index) => {
      const at = ifdAt + 2 + index * 12;
      file.writeUInt16LE(tag, at);
      file.writeUInt16LE(type, at + 2);
      file.writeUInt32LE(1, at + 4);
      if (type === 3) file.writeUInt16LE(value, at + 8);
      else file.writeUInt32LE(tag === 273 ? 8 : value, at + 8);
    });
    const { pdf, pages } = await tiffAsPdf(new Uint8Array(file));
    expect(pages).toEqual([{ width, height }]);
    const doc = await PDFDocument.load(pdf);
    const xobjects = doc.getPage(0).node.Resources()?.lookup(PDFName.of('XObject'));
    expect(xobjects?.toString()).toContain('Strip');
    const dir = tempDir('obscura-tiff-');
    try {
      fs.writeFileSync(path.join(dir, 't.pdf'), pdf);
      execFileSync('pdftoppm', ['-r', '72', '-gray', path.join(dir, 't.pdf'), path.join(dir, 'p')]);
      const pgm = fs.readFileSync(path.join(dir, fs.readdirSync(dir).find((name) => name.endsWith('.pgm')) ?? ''));
      const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
      const pixels = pgm.subarray(header?.[0].length ?? 0);
      expect((pixels[5 * width + 20] ?? 255) < 64, 'inside the block is black').toBe(true);
      expect((pixels[5 * width + 2] ?? 0) > 192, 'outside the block is white').toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('unsupported TIFFs are refused with a reason', async () => {
    await expect(tiffAsPdf(new Uint8Array(Buffer.from('II*\0\0\0\0\0')))).rejects.toThrow(/no pages|truncated/);
    await expect(tiffAsPdf(new Uint8Array(Buffer.from('GIF89a....')))).rejects.toThrow(/not a TIFF/);
  });
});

describe('redaction log CSV fields', () => {
  it('formula starters get an apostrophe; plain numbers stay numbers; RFC 4180 quoting', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1 555')).toBe("'+1 555");
    expect(csvField('-cmd|x')).toBe("'-cmd|x");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tindent')).toBe("'\tindent");
    expect(csvField('\rfirst')).toBe('"\'\rfirst"');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField('-3')).toBe('-3');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(null)).toBe('');
    expect(csvField('plain')).toBe('plain');
  });
});

describe('what lies under a box', () => {
  const rectangle = { x1: 100, y1: 100, x2: 200, y2: 120, points: [], label: null };
  const triangle = { x1: 0, y1: 0, x2: 100, y2: 100, points: [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 0, y: 100 }], label: null };
  it('a word overlapping any part of a rectangle, within the margins, is covered', () => {
    expect(boxCovers(rectangle, { x1: 190, y1: 105, x2: 230, y2: 115 }, 0, 0)).toBe(true);
    expect(boxCovers(rectangle, { x1: 201, y1: 105, x2: 230, y2: 115 }, 0, 0)).toBe(false);
    expect(boxCovers(rectangle, { x1: 201, y1: 105, x2: 230, y2: 115 }, 1.5, 0)).toBe(true);
    expect(boxCovers(rectangle, { x1: 120, y1: 121, x2: 130, y2: 130 }, 5, 0.5)).toBe(false);
  });
  it('polygons: inside, crossing an edge, and outside but inside the bounding box', () => {
    expect(boxCovers(triangle, { x1: 10, y1: 10, x2: 20, y2: 20 }, 0, 0)).toBe(true);
    expect(boxCovers(triangle, { x1: 45, y1: 45, x2: 60, y2: 60 }, 0, 0)).toBe(true);
    expect(boxCovers(triangle, { x1: 70, y1: 70, x2: 90, y2: 90 }, 0, 0)).toBe(false);
  });
});

describe('the leak check', () => {
  const kept = [{ text: 'Smith', x1: 0, y1: 0, x2: 1, y2: 1 }];
  it('a withheld word may appear only as often as the kept words carry it', () => {
    expect(leakedWords(['Alpha', 'Smith'], kept, ['Smith'])).toBe(0);
    expect(leakedWords(['Smith', 'Smith'], kept, ['Smith'])).toBe(1);
    expect(leakedWords(['Bravo', 'Secret'], kept, ['Secret'])).toBe(1);
    expect(leakedWords(['xSecretx'], kept, ['Secret']), 'glued to its neighbours').toBe(1);
    expect(leakedWords(['Bravo'], kept, [])).toBe(0);
  });
});

describe('verification of a written file', () => {
  async function written(build: (doc: PDFDocument) => void | Promise<void>): Promise<{ path: string; sha256: string; dir: string }> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    await build(doc);
    const bytes = await doc.save();
    const dir = tempDir('obscura-verify-');
    const file = path.join(dir, 'out.pdf');
    fs.writeFileSync(file, bytes);
    return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), dir };
  }
  const task = (file: { path: string; sha256: string }, overrides: Partial<Parameters<typeof verify>[0]> = {}) => ({
    kind: 'export-verify' as const,
    exportId: 1,
    path: file.path,
    sha256: file.sha256,
    expectedPages: 1,
    checks: [],
    structure: true,
    ...overrides,
  });

  it('passes a clean file and fails on a withheld word, a page count, a changed file, or document information', async () => {
    const withText = await written(async (doc) => {
      const page = doc.addPage([300, 300]);
      page.drawText('Visible Hiddenname', { x: 20, y: 150, size: 12, font: await doc.embedFont('Helvetica') });
    });
    try {
      const check = { outputPage: 1, label: 'document 1 page 1', words: [{ text: 'Visible', x1: 0, y1: 0, x2: 1, y2: 1 }], withheld: ['Hiddenname'] };
      // pdf-lib gives new pages an empty /Annots, which the exporter's sanitizing removes; the text checks here skip structure.
      await expect(verify(task(withText, { structure: false, checks: [check] }))).rejects.toThrow(/still in document 1 page 1 \(output page 1\) \(page-text\)/);
      const ok = await verify(task(withText, { structure: false, checks: [{ ...check, withheld: ['Absentword'] }] }));
      expect(ok.verification).toMatchObject({ pages: 1, burnedPages: 1, withheldWords: 1 });
      // A check without a source to compare with is certified on (a) only.
      expect(ok.verification.certificates).toEqual([
        { output_page: 1, document_id: '', page: 0, method: 'image', words_under_boxes_found: 0, words_outside_checked: 0, words_missing: 0, pixels_compared: null, pixels_differing: null, tolerance: null, passed: true, fallback_reason: null },
      ]);
      await expect(verify(task(withText, { structure: false, expectedPages: 2 }))).rejects.toThrow(/has 1 pages, 2 expected/);
      await expect(verify(task({ ...withText, sha256: '0'.repeat(64) }))).rejects.toThrow(/not the one assembled/);
      await expect(verify(task(withText))).rejects.toThrow(/an object has \/Annots/);
    } finally {
      fs.rmSync(withText.dir, { recursive: true, force: true });
    }
    const withInfo = await written((doc) => {
      doc.addPage([300, 300]);
      doc.setTitle('Leaky title');
    });
    try {
      await expect(verify(task(withInfo))).rejects.toThrow(/document information dictionary/);
    } finally {
      fs.rmSync(withInfo.dir, { recursive: true, force: true });
    }
  });

  it('checks the structure on the search\'s parse when the task searches the file, or in a search task of its own', async () => {
    const withInfo = await written((doc) => {
      doc.addPage([300, 300]);
      doc.setTitle('Leaky title');
    });
    const encrypted = path.join(withInfo.dir, 'encrypted.pdf');
    const plain = path.join(withInfo.dir, 'plain.pdf');
    try {
      await expect(verify(task(withInfo, { search: true }))).rejects.toThrow(/document information dictionary/);
      const search = (file: { path: string; sha256: string }, structure: boolean) => searchOutput({ kind: 'export-search', exportId: 1, path: file.path, format: 'pdf', withheld: [], sha256: file.sha256, structure });
      await expect(search(withInfo, true)).rejects.toThrow(/document information dictionary/);
      await expect(search(withInfo, false)).resolves.toMatchObject({ kind: 'export-search' });
      // An encrypted file fails as a structure problem, though the search itself reads past encryption.
      execFileSync('qpdf', ['--empty', '--pages', withInfo.path, '--', plain]);
      execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', plain, encrypted]);
      const bytes = fs.readFileSync(encrypted);
      await expect(search({ path: encrypted, sha256: createHash('sha256').update(bytes).digest('hex') }, true)).rejects.toThrow(/the file is encrypted/);
    } finally {
      fs.rmSync(withInfo.dir, { recursive: true, force: true });
    }
  });
});
