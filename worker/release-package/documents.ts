import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { CitedExemption, CoverLetter, IndexPdfRow } from '../../main/common/release-package-tasks.js';
import { WRITE_WHOLE } from '../pdf-lib-load.js';

// The types travel in the `release-package` task (main/common/release-package-tasks.ts).
export type { CitedExemption, CoverLetter, IndexPdfRow };

// The withholding index and the cover letter as PDFs: drawn from the requester-facing rows and counts only.

function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(text.normalize('NFKC'))
    .map((char) => (known.has(char.codePointAt(0) ?? 0) ? char : '?'))
    .join('');
}

function fit(font: PDFFont, text: string, size: number, width: number): string {
  let value = printable(font, text);
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  while (value.length > 1 && font.widthOfTextAtSize(`${value}...`, size) > width) value = value.slice(0, -1);
  return `${value}...`;
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(font, text).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const COLUMNS: { title: string; key: keyof IndexPdfRow; width: number }[] = [
  { title: 'Page reference', key: 'reference', width: 120 },
  { title: 'Document', key: 'document', width: 150 },
  { title: 'Exemption', key: 'exemptions', width: 80 },
  { title: 'Category', key: 'category', width: 150 },
  { title: 'Withheld', key: 'withheld', width: 56 },
  { title: 'Count', key: 'count', width: 40 },
  { title: 'Since last release', key: 'since_previous_release', width: 80 },
];

/** Landscape pages, the header repeated on each, and its own page stamp ("Withholding index, page N of M"). */
export async function withholdingIndexPdf(input: { heading: string; rows: IndexPdfRow[]; cited: CitedExemption[] }): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const font = out.embedStandardFont(StandardFonts.Helvetica);
  const bold = out.embedStandardFont(StandardFonts.HelveticaBold);
  const pages: PDFPage[] = [];
  let page: PDFPage | null = null;
  let y = 0;
  const newPage = () => {
    page = out.addPage([792, 612]);
    pages.push(page);
    page.drawText(fit(bold, input.heading, 14, 648), { x: 72, y: 560, size: 14, font: bold });
    let x = 40;
    for (const column of COLUMNS) {
      page.drawText(column.title, { x, y: 530, size: 9, font: bold });
      x += column.width + 6;
    }
    page.drawLine({ start: { x: 40, y: 524 }, end: { x: 752, y: 524 }, thickness: 0.8, color: rgb(0, 0, 0) });
    y = 510;
  };
  newPage();
  if (input.rows.length === 0) (page as PDFPage | null)?.drawText('Nothing was withheld.', { x: 40, y, size: 10, font });
  for (const row of input.rows) {
    if (y < 60) newPage();
    let x = 40;
    for (const column of COLUMNS) {
      (page as PDFPage | null)?.drawText(fit(font, String(row[column.key]), 9, column.width), { x, y, size: 9, font });
      x += column.width + 6;
    }
    y -= 15;
  }
  if (input.cited.length > 0) {
    y -= 10;
    if (y < 100) newPage();
    (page as PDFPage | null)?.drawText('Exemptions cited', { x: 40, y, size: 11, font: bold });
    y -= 18;
    for (const entry of input.cited) {
      const lines = [`${entry.code}  ${entry.name}`, ...(entry.justification ? wrap(font, entry.justification, 9, 680) : [])];
      for (const [index, line] of lines.entries()) {
        if (y < 60) newPage();
        (page as PDFPage | null)?.drawText(index === 0 ? fit(bold, line, 9, 700) : line, { x: index === 0 ? 40 : 56, y, size: 9, font: index === 0 ? bold : font });
        y -= 13;
      }
      y -= 4;
    }
  }
  pages.forEach((entry, index) => {
    const text = `Withholding index, page ${index + 1} of ${pages.length}`;
    entry.drawText(text, { x: 752 - font.widthOfTextAtSize(text, 8), y: 24, size: 8, font });
  });
  return out.save({ ...WRITE_WHOLE, useObjectStreams: true, addDefaultPage: false });
}

/** The requester's cover letter: letterhead, request number, requester-facing title, date, counts per exemption, appeal rights. */
export async function coverLetterPdf(letter: CoverLetter): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const font = out.embedStandardFont(StandardFonts.Helvetica);
  const bold = out.embedStandardFont(StandardFonts.HelveticaBold);
  let page = out.addPage([612, 792]);
  let y = 740;
  // Top-down; a letter longer than a page (a long appeal paragraph) goes on to a second page.
  const line = (text: string, size = 11, face = font, x = 72, step = size + 5) => {
    if (y < 72) {
      page = out.addPage([612, 792]);
      y = 740;
    }
    page.drawText(fit(face, text, size, 540 - x), { x, y, size, font: face });
    y -= step;
  };
  const letterhead = (letter.letterhead ?? '').split('\n').map((part) => part.trim()).filter(Boolean).slice(0, 6);
  for (const [index, part] of letterhead.entries()) line(part, index === 0 ? 13 : 10, index === 0 ? bold : font);
  if (letterhead.length > 0) y -= 18;
  line(letter.releaseNumber > 1 ? `Supplemental release ${letter.releaseNumber}` : 'Records release', 22, bold, 72, 36);
  if (letter.requestNumber) line(`Request number: ${letter.requestNumber}`, 12, bold, 72, 20);
  for (const part of wrap(bold, letter.title ?? 'Records responsive to your request', 13, 468).slice(0, 4)) line(part, 13, bold, 72, 18);
  y -= 8;
  line(`Date: ${letter.date}`, 11, font, 72, 18);
  line(`Documents released: ${letter.documents}`, 11, font, 72, 18);
  line(`Pages released: ${letter.pages}`, 11, font, 72, 18);
  line(`Pages withheld in full: ${letter.withheldInFull}`, 11, font, 72, 18);
  if (letter.batesRange) line(`Page stamps: ${letter.batesRange}`, 11, font, 72, 18);
  y -= 20;
  line('Information withheld, by exemption', 12, bold, 72, 20);
  if (letter.byExemption.length === 0) line('None');
  for (const row of letter.byExemption) {
    if (y < 72) line('');
    page.drawText(fit(bold, row.code, 11, 90), { x: 72, y, size: 11, font: bold });
    page.drawText(fit(font, row.name, 11, 300), { x: 170, y, size: 11, font });
    page.drawText(String(row.count), { x: 480, y, size: 11, font });
    y -= 16;
  }
  y -= 12;
  line('The enclosed withholding index lists each withheld passage and page by its page stamp.', 10, font, 72, 14);
  const appeal = (letter.appealRights ?? '').trim();
  if (appeal) {
    y -= 14;
    line('Your right to appeal', 12, bold, 72, 18);
    for (const paragraph of appeal.split(/\n+/)) {
      for (const part of wrap(font, paragraph, 10, 468)) line(part, 10, font, 72, 14);
      y -= 4;
    }
  }
  return out.save({ ...WRITE_WHOLE, useObjectStreams: true, addDefaultPage: false });
}
