// PDFs for the UI tests, made here so each test knows exactly what text is where.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { testSans } from '../../helpers/canvas-font.js';

export const PAGE = { width: 612, height: 792 } as const;

export interface Line {
  text: string;
  /** Baseline position in PDF points (origin bottom-left). */
  x: number;
  y: number;
  size: number;
}

/** A PDF with a real text layer: each line drawn in Helvetica. */
export async function textPdf(pages: Line[][]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = document.addPage([PAGE.width, PAGE.height]);
    for (const line of lines) page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font, color: rgb(0, 0, 0) });
  }
  return Buffer.from(await document.save());
}

/**
 * A scanned-looking PDF: each page is only a picture of its lines (no text layer), rendered at `dpi`, so
 * the text can only be found by OCR.
 */
export async function scannedPdf(pages: Line[][], dpi = 200): Promise<Buffer> {
  const document = await PDFDocument.create();
  const pixelsPerPoint = dpi / 72;
  for (const lines of pages) {
    const canvas = createCanvas(Math.round(PAGE.width * pixelsPerPoint), Math.round(PAGE.height * pixelsPerPoint));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = '#000000';
    for (const line of lines) {
      context.font = `${Math.round(line.size * pixelsPerPoint)}px ${testSans()}`;
      context.fillText(line.text, line.x * pixelsPerPoint, (PAGE.height - line.y) * pixelsPerPoint);
    }
    const image = await document.embedPng(canvas.toBuffer('image/png'));
    const page = document.addPage([PAGE.width, PAGE.height]);
    page.drawImage(image, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
  }
  return Buffer.from(await document.save());
}

/** Where `word` sits on `line` as scannedPdf draws it: its x range in points and the line's y range. */
export function wordBox(line: Line, word: string): { x1: number; x2: number; y1: number; y2: number } {
  const index = line.text.indexOf(word);
  if (index < 0) throw new Error(`"${word}" is not on the line "${line.text}"`);
  const context = createCanvas(10, 10).getContext('2d');
  context.font = `${line.size}px ${testSans()}`;
  const before = context.measureText(line.text.slice(0, index)).width;
  const width = context.measureText(word).width;
  return { x1: line.x + before, x2: line.x + before + width, y1: line.y - line.size * 0.3, y2: line.y + line.size * 0.85 };
}

/** The same PDF encrypted by qpdf (AES-256) so that it opens only with `password`. */
export function encryptedPdf(bytes: Buffer, password: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-qpdf-'));
  try {
    fs.writeFileSync(path.join(dir, 'plain.pdf'), bytes);
    execFileSync('qpdf', ['--encrypt', password, `${password}-owner`, '256', '--', path.join(dir, 'plain.pdf'), path.join(dir, 'locked.pdf')]);
    return fs.readFileSync(path.join(dir, 'locked.pdf'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
