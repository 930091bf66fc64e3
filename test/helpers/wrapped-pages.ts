import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskPage } from '../../main/common/analysis-tasks.js';
import { bboxWords } from './burn-producers.js';

// A real PDF page as detection reads it: poppler's words and boxes, or the page rendered by pdftoppm and read
// by tesseract (boxes in image pixels), for tests of values wrapped across lines.

function pageOf(words: TaskPage['words'], unit: TaskPage['unit']): TaskPage {
  return { page_number: 1, unit, rotation: 0, text: words.map((word) => word.text).join(' '), words };
}

/** Page 1 of a PDF with poppler's words (pdftotext -bbox), in PDF points. */
export function pdfTextPage(pdf: Buffer): TaskPage {
  return pageOf(bboxWords(pdf).map((word) => ({ ...word, confidence: 100 })), 'pdf_points');
}

/** Page 1 of a PDF drawn at 200 dpi in grey by pdftoppm and read by the tesseract command, in image pixels. */
export function ocrScanPage(pdf: Buffer): TaskPage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-wrapped-scan-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', path.join(dir, 'in.pdf'), path.join(dir, 'scan')]);
    const tsv = execFileSync('tesseract', [path.join(dir, 'scan.png'), '-', 'tsv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const words = tsv
      .split('\n')
      .map((line) => line.split('\t'))
      .filter((cells) => cells[0] === '5' && (cells[11] ?? '').trim() !== '')
      .map(([, , , , , , left, top, width, height, confidence, text]) => ({ text: (text ?? '').trim(), x1: Number(left), y1: Number(top), x2: Number(left) + Number(width), y2: Number(top) + Number(height), confidence: Math.max(0, Number(confidence)) }));
    return pageOf(words, 'image_pixels');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Rect = { x1: number; y1: number; x2: number; y2: number };

/** Whether one of the boxes spans the word along its line and overlaps it across (either y orientation). */
export function someBoxCovers(boxes: readonly Rect[], word: Rect | undefined): boolean {
  return boxes.some((box) => word !== undefined && box.x1 <= word.x1 + 0.5 && box.x2 >= word.x2 - 0.5 && Math.min(box.y1, box.y2) <= Math.max(word.y1, word.y2) && Math.max(box.y1, box.y2) >= Math.min(word.y1, word.y2));
}
