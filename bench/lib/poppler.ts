import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Poppler and qpdf as independent oracles of the release-fidelity bench: words with boxes (pdftotext -bbox),
// grey renderings (pdftoppm), decompressed bytes (qpdf --qdf). Coordinates are the displayed page's, top-left.

export interface DisplayWord {
  page: number;
  text: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Runs `work` on `bytes` written to a file in a fresh temporary folder, removed afterwards. */
export function withFile<T>(bytes: Buffer, work: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-oracle-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    return work(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'", '&amp;': '&' };

/**
 * Every word of every page (display space at 72 dpi, origin top-left), pages numbered from 1; with `cropbox`, of
 * the crop box (as pdftoppm -cropbox draws it; words outside it are left out), else of the media box.
 */
export function displayWords(bytes: Buffer, cropbox = false): DisplayWord[] {
  const html = withFile(bytes, (file) => execFileSync('pdftotext', ['-q', '-bbox', ...(cropbox ? ['-cropbox'] : []), file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
  const words: DisplayWord[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const match = /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*)<\/word>/.exec(line);
    if (match) words.push({ page, text: (match[5] ?? '').replace(/&(lt|gt|quot|apos|amp);/g, (entity) => ENTITIES[entity] ?? entity), x1: Number(match[1]), y1: Number(match[2]), x2: Number(match[3]), y2: Number(match[4]) });
  }
  return words;
}

export function plainText(bytes: Buffer): string {
  return withFile(bytes, (file) => execFileSync('pdftotext', ['-q', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
}

/** Every stream decompressed by qpdf (latin1); empty when qpdf cannot read the file. */
export function expandedBytes(bytes: Buffer): string {
  return withFile(bytes, (file, dir) => {
    const out = path.join(dir, 'qdf.pdf');
    try {
      execFileSync('qpdf', ['--qdf', '--object-streams=disable', '--decrypt', file, out], { stdio: 'pipe' });
    } catch (error) {
      if ((error as { status?: number }).status !== 3) return '';
    }
    return fs.existsSync(out) ? fs.readFileSync(out).toString('latin1') : '';
  });
}

export interface GreyPage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** One page rendered by pdftoppm in grey at `dpi` (crop box, as displayed). */
export function greyPage(bytes: Buffer, page: number, dpi: number): GreyPage {
  return withFile(bytes, (file, dir) => {
    execFileSync('pdftoppm', ['-q', '-r', String(dpi), '-gray', '-cropbox', '-f', String(page), '-l', String(page), file, path.join(dir, 'page')]);
    const name = fs.readdirSync(dir).find((entry) => entry.endsWith('.pgm'));
    if (!name) throw new Error('pdftoppm wrote no page');
    const data = fs.readFileSync(path.join(dir, name));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('not a PGM');
    return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(header[0].length) };
  });
}

/** Wall milliseconds of pdftoppm -r 200 rendering the given pages (to PPM files, as the export bench does). */
export function pdftoppmMs(bytes: Buffer, pages: readonly number[]): number {
  return withFile(bytes, (file, dir) => {
    const started = performance.now();
    for (const page of pages) execFileSync('pdftoppm', ['-q', '-r', '200', '-f', String(page), '-l', String(page), file, path.join(dir, `p${page}`)]);
    return performance.now() - started;
  });
}
