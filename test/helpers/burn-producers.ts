import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BurnBox, BurnedPage, BurnSettings, ExportAssembleResult, ExportBurnTask } from '../../main/common/export-tasks.js';
import { assemble } from '../../worker/burn-in/assemble.js';
import { burnPages } from '../../worker/burn-in/burn.js';
import { verify } from '../../worker/burn-in/verify.js';
import { pdftotext } from './pdf-tools.js';
import { tempDir } from './temp.js';
import { box } from './vector-pdfs.js';

// PDFs made at test time by real producers (pdfTeX, qpdf), words placed by an independent reader (poppler's
// pdftotext -bbox), and the burn and assemble tasks of an export run on them as the worker runs them.

/** pdfTeX's PDF of a LaTeX document body (article class; Computer Modern Type 1, or bitmap Type 3 with T1 fontenc). */
export function pdflatex(body: string, preamble = ''): Buffer {
  const dir = tempDir('obscura-pdftex-');
  try {
    const tex = `\\documentclass{article}\n${preamble}\n\\pagestyle{empty}\n\\begin{document}\n${body}\n\\end{document}\n`;
    fs.writeFileSync(path.join(dir, 'doc.tex'), tex);
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
    return fs.readFileSync(path.join(dir, 'doc.pdf'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface BboxWord {
  text: string;
  /** PDF user space (origin bottom-left) of an unrotated page. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** poppler's words of a page with their boxes (font ascent to descent), in PDF user space. */
export function bboxWords(bytes: Uint8Array, page = 1, password?: string): BboxWord[] {
  const dir = tempDir('obscura-bbox-');
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const args = ['-bbox', '-f', String(page), '-l', String(page), ...(password === undefined ? [] : ['-upw', password]), file, '-'];
    const html = execFileSync('pdftotext', args, { encoding: 'utf8' });
    const height = Number(/<page width="[\d.]+" height="([\d.]+)"/.exec(html)?.[1] ?? 792);
    return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((match) => ({
      text: (match[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
      x1: Number(match[1]),
      y1: height - Number(match[4]),
      x2: Number(match[3]),
      y2: height - Number(match[2]),
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A word as mutool reads it: its characters' boxes (font ascent to descent) joined, and its baseline. */
export interface StextWord extends BboxWord {
  baseline: number;
}

/** mutool's words of page 1 (characters split at spaces), in PDF user space of an unrotated page. */
export function stextWords(bytes: Uint8Array): StextWord[] {
  const dir = tempDir('obscura-stext-');
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    const xml = execFileSync('mutool', ['draw', '-F', 'stext', '-o', '-', file, '1'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const height = Number(/<page [^>]*height="([\d.]+)"/.exec(xml)?.[1] ?? 792);
    const words: StextWord[] = [];
    for (const line of xml.split('<line ').slice(1)) {
      let word: StextWord | null = null;
      for (const match of line.matchAll(/<char quad="([^"]+)" x="[^"]+" y="([^"]+)"[^>]* c="([^"]*)"\/>/g)) {
        const [x1, top, , , , bottom, x2] = (match[1] ?? '').split(' ').map(Number) as number[];
        const char = (match[3] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');
        if (char.trim() === '') {
          word = null;
          continue;
        }
        const rect = { x1: x1 as number, y1: height - (bottom as number), x2: x2 as number, y2: height - (top as number) };
        if (!word) {
          word = { text: '', ...rect, baseline: height - Number(match[2]) };
          words.push(word);
        }
        word.text += char;
        word.x1 = Math.min(word.x1, rect.x1);
        word.x2 = Math.max(word.x2, rect.x2);
        word.y1 = Math.min(word.y1, rect.y1);
        word.y2 = Math.max(word.y2, rect.y2);
      }
    }
    return words;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** poppler's text of a PDF file (every page, layout kept). */
export function popplerText(bytes: Uint8Array): string {
  const dir = tempDir('obscura-text-');
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function boxOver(word: BboxWord, id?: string): BurnBox {
  return { x1: word.x1, y1: word.y1, x2: word.x2, y2: word.y2, points: [], label: null, ...(id && { id }) };
}

export const SETTINGS: BurnSettings = { dpi: 100, padding: 1, labels: false, imageMode: 'auto', jpegQuality: 80, method: 'auto' };

/**
 * The burn and assembly tasks of an export of one PDF (document `documentId`) with its boxed pages, in `dir`:
 * source.pdf, out.pdf (not yet verified), and what each task gave.
 */
export async function burnedAndAssembled(dir: string, bytes: Uint8Array, boxes: Map<number, BurnBox[]>, settings: BurnSettings = SETTINGS, documentId = 7) {
  const source = { documentId, path: path.join(dir, 'source.pdf'), documentType: 'pdf' as const };
  fs.writeFileSync(source.path, bytes);
  const task: ExportBurnTask = {
    kind: 'export-burn',
    exportId: 1,
    source,
    pages: [...boxes.entries()].map(([page, list]) => ({ page, boxes: list, words: null })),
    allPages: false,
    settings,
    workPrefix: path.join(dir, 'work'),
  };
  const burned = await burnPages(task, () => undefined);
  const outputPath = path.join(dir, 'out.pdf');
  const make = (): Promise<ExportAssembleResult> => assemble({ kind: 'export-assemble', exportId: 1, outputPath, cover: null, documents: [{ source, pageCount: burned.pageCount, burned: burned.pages }], settings, workPrefix: task.workPrefix }, () => undefined);
  return { source, task, burned, outputPath, make, assembled: await make() };
}

/** Burns and assembles one PDF as an export of its boxed pages does; returns the released bytes and the burned pages. */
export async function release(bytes: Uint8Array, boxes: Map<number, BurnBox[]>, settings: BurnSettings = SETTINGS): Promise<{ bytes: Buffer; pages: BurnedPage[] }> {
  const dir = tempDir('obscura-release-');
  try {
    const { task, burned, outputPath, make, assembled } = await burnedAndAssembled(dir, bytes, boxes, settings);
    // As the runner does (main/jobs/export/verify.ts madeAndVerified): the two-way check of the written file may refuse a
    // rewritten page; it is then rendered with the reason and the file made again.
    const { refused = [] } = await verify({ kind: 'export-verify', exportId: 1, path: outputPath, sha256: assembled.sha256, expectedPages: assembled.pages, checks: assembled.checks, structure: false });
    if (refused.length > 0) {
      const rendered = await burnPages({ ...task, pages: task.pages.filter((request) => refused.some((entry) => entry.page === request.page)), render: refused.map(({ page, reason }) => ({ page, reason })) }, () => undefined);
      burned.pages = burned.pages.map((page) => rendered.pages.find((entry) => entry.page === page.page) ?? page);
      fs.rmSync(outputPath);
      await make();
    }
    return { bytes: fs.readFileSync(outputPath), pages: burned.pages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The one-page release of `source` with the word `word` (placed by pdftotext -bbox) boxed; `drawn` is the black
 * as drawn: the box with its padding, grown over the glyphs it cuts.
 */
export async function boxedRelease(source: Buffer, word = 'Secretword'): Promise<{ bytes: Buffer; page: BurnedPage; drawn: BurnBox[] }> {
  const secret = bboxWords(source).find((entry) => entry.text === word);
  if (!secret) throw new Error(`no ${word}`);
  const { bytes, pages } = await release(source, new Map([[1, [boxOver(secret)]]]));
  const page = pages[0] as BurnedPage;
  return { bytes, page, drawn: (page.drawnAreas ?? []).map(([x1, y1, x2, y2]) => box(x1, y1, x2, y2)) };
}

/** Chromium's PDF (page.pdf()) of an HTML document, printed by the system's Chromium through playwright-core. */
export async function chromiumPdf(html: string): Promise<Buffer> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.setContent(html);
    return await page.pdf({ format: 'Letter', printBackground: true });
  } finally {
    await browser.close();
  }
}


