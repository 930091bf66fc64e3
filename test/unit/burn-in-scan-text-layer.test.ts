import fs from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { BurnBox, BurnSettings, ExportBurnTask } from '../../main/common/export-tasks.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { assemble } from '../../worker/burn-in/assemble.js';
import { burnPages } from '../../worker/burn-in/burn.js';
import { tempDir } from '../helpers/temp.js';
import { pdftotext } from '../helpers/pdf-tools.js';

// A scan redacted in its content (method auto: the image redacted in its pixels) keeps its OCR words outside
// the boxes as an invisible text layer, as a rendered page does; a born-digital page gets no second copy of
// its own text.

const DPI = 150;
const SCALE = 72 / DPI;
const LINES = ['Requester asked for parks budget records', 'Applicant number K7731 was assigned', 'Reviewed by the records office'];
const SETTINGS: BurnSettings = { dpi: 150, padding: 0.5, labels: false, imageMode: 'auto', jpegQuality: 80, method: 'auto' };

/** A one-page scan of LINES (no text in its content) and the words OCR would store for it, in PDF points. */
async function scannedPage(): Promise<{ bytes: Uint8Array; words: PageWord[] }> {
  const canvas = createCanvas(Math.round(612 / SCALE), Math.round(792 / SCALE));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = '36px sans-serif';
  const words: PageWord[] = [];
  LINES.forEach((line, index) => {
    const baseline = 300 + index * 90;
    let x = 150;
    for (const text of line.split(' ')) {
      context.fillText(text, x, baseline);
      const width = context.measureText(text).width;
      words.push({ text, x1: x * SCALE, y1: 792 - (baseline + 9) * SCALE, x2: (x + width) * SCALE, y2: 792 - (baseline - 34) * SCALE } as PageWord);
      x += width + context.measureText(' ').width;
    }
  });
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  page.drawImage(await pdf.embedPng(await canvas.encode('png')), { x: 0, y: 0, width: 612, height: 792 });
  return { bytes: await pdf.save(), words };
}

async function release(bytes: Uint8Array, boxes: BurnBox[], words: PageWord[]): Promise<{ text: string; method: string }> {
  const dir = tempDir('obscura-scan-layer-');
  try {
    const source = { documentId: 4, path: path.join(dir, 'scan.pdf'), documentType: 'pdf' as const };
    fs.writeFileSync(source.path, bytes);
    const task: ExportBurnTask = { kind: 'export-burn', exportId: 1, source, pages: [{ page: 1, boxes, words }], allPages: true, settings: SETTINGS, workPrefix: path.join(dir, 'work') };
    const burned = await burnPages(task, () => undefined);
    const outputPath = path.join(dir, 'out.pdf');
    await assemble({ kind: 'export-assemble', exportId: 1, outputPath, cover: null, documents: [{ source, pageCount: 1, burned: burned.pages }], settings: SETTINGS, workPrefix: task.workPrefix }, () => undefined);
    return { text: pdftotext(fs.readFileSync(outputPath)), method: burned.pages[0]?.method ?? 'none' };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const around = (word: PageWord): BurnBox => ({ x1: word.x1 - 1, y1: word.y1 - 1, x2: word.x2 + 1, y2: word.y2 + 1, points: [], label: null });

describe('a scan redacted in its content', () => {
  it('keeps its OCR words outside the boxes searchable, and not the boxed one', async () => {
    const { bytes, words } = await scannedPage();
    const secret = words.find((word) => word.text === 'K7731') as PageWord;
    const { text, method } = await release(bytes, [around(secret)], words);
    expect(method).toBe('vector');
    expect(text).not.toContain('K7731');
    for (const line of LINES) for (const word of line.split(' ')) if (word !== 'K7731') expect(text).toContain(word);
  });

  it('a born-digital page whose stored words are its own text gets no second copy of them', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    page.drawText('Keep this line', { x: 72, y: 700, size: 12, font });
    page.drawText('Secret 4411', { x: 72, y: 600, size: 12, font });
    const width = (value: string) => font.widthOfTextAtSize(value, 12);
    const words: PageWord[] = [
      { text: 'Keep', x1: 72, y1: 697, x2: 72 + width('Keep'), y2: 710 },
      { text: 'this', x1: 72 + width('Keep '), y1: 697, x2: 72 + width('Keep this'), y2: 710 },
      { text: 'line', x1: 72 + width('Keep this '), y1: 697, x2: 72 + width('Keep this line'), y2: 710 },
      { text: 'Secret', x1: 72, y1: 597, x2: 72 + width('Secret'), y2: 610 },
      { text: '4411', x1: 72 + width('Secret '), y1: 597, x2: 72 + width('Secret 4411'), y2: 610 },
    ] as PageWord[];
    const { text, method } = await release(await pdf.save(), [around(words[4] as PageWord)], words);
    expect(method).toBe('vector');
    expect(text).not.toContain('4411');
    expect(text.match(/Keep/g)).toHaveLength(1);
    expect(text.match(/Secret/g)).toHaveLength(1);
  });
});
