import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { tempDir } from './temp.js';

// Independent readers of output files: poppler and qpdf, never the code under test. No database (database-reach.ts).

export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function withTempFile<T>(bytes: Buffer, work: (file: string, dir: string) => T): T {
  const dir = tempDir('obscura-export-check-');
  const file = path.join(dir, 'file.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return work(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function pdftotext(bytes: Buffer, options: { layout?: boolean; page?: number } = {}): string {
  const args = ['-q', ...(options.layout ? ['-layout'] : []), ...(options.page ? ['-f', String(options.page), '-l', String(options.page)] : [])];
  return withTempFile(bytes, (file) => execFileSync('pdftotext', [...args, file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

/** The file rewritten by qpdf with every stream decompressed and no object streams, as latin1 text. */
export function qpdfExpanded(bytes: Buffer): string {
  return withTempFile(bytes, (file, dir) => {
    const out = path.join(dir, 'qdf.pdf');
    try {
      execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, out], { stdio: 'pipe' });
    } catch (error) {
      // qpdf exits 3 for warnings; the file is still written.
      if ((error as { status?: number }).status !== 3) throw error;
    }
    return fs.readFileSync(out).toString('latin1');
  });
}

/** Every form a word could take inside PDF bytes: plain, hex (either case), UTF-16BE plain and hex. */
export function encodings(word: string): string[] {
  const latin = Buffer.from(word, 'latin1');
  const utf16 = Buffer.concat([...word].map((char) => Buffer.from([0, char.charCodeAt(0)])));
  return [word, latin.toString('hex'), latin.toString('hex').toUpperCase(), utf16.toString('latin1'), utf16.toString('hex'), utf16.toString('hex').toUpperCase()];
}

/** Grey pixels (0 black … 255 white) of one page rendered by pdftoppm: its crop box, as a viewer shows it. */
export function renderGray(bytes: Buffer, page: number, dpi: number): { width: number; height: number; pixels: Uint8Array } {
  return withTempFile(bytes, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-cropbox', '-f', String(page), '-l', String(page), file, path.join(dir, 'page')]);
    const name = fs.readdirSync(dir).find((entry) => entry.startsWith('page') && entry.endsWith('.pgm'));
    if (!name) throw new Error('pdftoppm wrote no page');
    const data = fs.readFileSync(path.join(dir, name));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('not a PGM');
    return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(header[0].length) };
  });
}

/** Share of dark pixels (< 100) inside a pixel rectangle, shrunk by `inset` on every side. */
export function darkShare(image: { width: number; pixels: Uint8Array }, rect: Rect, inset = 2): number {
  let dark = 0;
  let total = 0;
  for (let y = Math.ceil(rect.y1 + inset); y < Math.floor(rect.y2 - inset); y += 1) {
    for (let x = Math.ceil(rect.x1 + inset); x < Math.floor(rect.x2 - inset); x += 1) {
      total += 1;
      if ((image.pixels[y * image.width + x] ?? 255) < 100) dark += 1;
    }
  }
  return total === 0 ? 0 : dark / total;
}

/**
 * Where a rect in PDF user space lands in a rendering at `dpi` of a page with visible box `view` and /Rotate
 * `rotate` (0 or 90): the viewer's geometry, written out here independently of the exporter.
 */
export function userRectToPixels(rect: Rect, view: Rect, rotate: number, dpi: number): Rect {
  const s = dpi / 72;
  if (rotate === 90) return { x1: (rect.y1 - view.y1) * s, x2: (rect.y2 - view.y1) * s, y1: (rect.x1 - view.x1) * s, y2: (rect.x2 - view.x1) * s };
  return { x1: (rect.x1 - view.x1) * s, x2: (rect.x2 - view.x1) * s, y1: (view.y2 - rect.y2) * s, y2: (view.y2 - rect.y1) * s };
}

/** The raw bytes of a file as latin1, followed by every Flate stream inflated: where a secret can hide. */
export function rawTexts(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  const parts = [text];
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    try {
      parts.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // not Flate
    }
  }
  return parts.join('\n');
}

/** qpdf --check: the file's structure is sound (throws otherwise; exit 3 is warnings only). */
export function qpdfCheck(bytes: Buffer): string {
  return withTempFile(bytes, (file) => execFileSync('qpdf', ['--check', file], { encoding: 'utf8' }));
}
