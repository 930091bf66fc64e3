import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

// The withholding index and the cover letter as PDFs: drawn from the requester-facing rows and counts only.

export interface IndexPdfRow {
  reference: string;
  document: string;
  exemptions: string;
  category: string;
  withheld: string;
  count: number;
  since_previous_release: string;
}

export interface CitedExemption {
  code: string;
  name: string;
  justification: string | null;
}

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
  return out.save({ useObjectStreams: true, addDefaultPage: false });
}

export interface CoverLetter {
  requestNumber: string | null;
  title: string | null;
  date: string;
  releaseNumber: number;
  documents: number;
  pages: number;
  withheldInFull: number;
  batesRange: string | null;
  byExemption: { code: string; name: string; count: number }[];
}

/** The requester's cover letter: request number, requester-facing title, date and counts per exemption. */
export async function coverLetterPdf(letter: CoverLetter): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const font = out.embedStandardFont(StandardFonts.Helvetica);
  const bold = out.embedStandardFont(StandardFonts.HelveticaBold);
  const page = out.addPage([612, 792]);
  const line = (text: string, y: number, size = 11, face = font, x = 72) => page.drawText(fit(face, text, size, 540 - x), { x, y, size, font: face });
  line(letter.releaseNumber > 1 ? `Supplemental release ${letter.releaseNumber}` : 'Records release', 700, 22, bold);
  let y = 664;
  if (letter.requestNumber) {
    line(`Request number: ${letter.requestNumber}`, y, 12, bold);
    y -= 20;
  }
  for (const part of wrap(bold, letter.title ?? 'Records responsive to your request', 13, 468).slice(0, 4)) {
    line(part, y, 13, bold);
    y -= 18;
  }
  y -= 8;
  line(`Date: ${letter.date}`, y);
  line(`Documents released: ${letter.documents}`, y - 18);
  line(`Pages released: ${letter.pages}`, y - 36);
  line(`Pages withheld in full: ${letter.withheldInFull}`, y - 54);
  if (letter.batesRange) line(`Page stamps: ${letter.batesRange}`, y - 72);
  y -= 110;
  line('Information withheld, by exemption', y, 12, bold);
  y -= 20;
  if (letter.byExemption.length === 0) line('None', y);
  for (const row of letter.byExemption) {
    line(row.code, y, 11, bold);
    line(row.name, y, 11, font, 170);
    line(String(row.count), y, 11, font, 480);
    y -= 16;
  }
  line('The enclosed withholding index lists each withheld passage and page by its page stamp.', 120, 10);
  return out.save({ useObjectStreams: true, addDefaultPage: false });
}
