import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { fontsDir } from '../fonts.js';

/** A rendered message or text file: a header block of label/value rows, then body paragraphs. */
export interface RenderInput {
  title: string;
  header: [label: string, value: string][];
  body: string;
  maxPages: number;
}

const PAGE = { width: 612, height: 792, margin: 54 };
const SIZE = 10;
const LEADING = 13;
const LABEL_WIDTH = 78;

let fontBytes: { regular: Buffer; bold: Buffer } | null = null;
function loadFonts() {
  fontBytes ??= { regular: fs.readFileSync(path.join(fontsDir(), 'DejaVuSans.ttf')), bold: fs.readFileSync(path.join(fontsDir(), 'DejaVuSans-Bold.ttf')) };
  return fontBytes;
}

const coverage = new WeakMap<PDFFont, Set<number>>();
/** Characters the font lacks become U+FFFD (drawn as a box) so the text layer never maps a glyph wrongly. */
function drawable(font: PDFFont, text: string): string {
  let set = coverage.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    coverage.set(font, set);
  }
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += set.has(code) ? char : set.has(0xfffd) ? '\uFFFD' : '?';
  }
  return out;
}

/** Control characters out, tabs to spaces, every line break to \n. */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, (char) => (char === '\u2028' || char === '\u2029' ? '\n' : ''));
}

const widths = new WeakMap<PDFFont, Map<string, number>>();
function charWidth(font: PDFFont, char: string): number {
  let map = widths.get(font);
  if (!map) {
    map = new Map();
    widths.set(font, map);
  }
  let width = map.get(char);
  if (width === undefined) {
    width = font.widthOfTextAtSize(char, SIZE);
    map.set(char, width);
  }
  return width;
}

/** Splits one paragraph into lines no wider than `width` (linear: widths per character, cached); over-long words break anywhere. */
function wrap(font: PDFFont, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(/(?<= )/)) {
    const chars = [...word];
    const wordWidth = chars.reduce((sum, char) => sum + charWidth(font, char), 0);
    if (lineWidth + wordWidth <= width) {
      line += word;
      lineWidth += wordWidth;
      continue;
    }
    if (line) lines.push(line.trimEnd());
    line = '';
    lineWidth = 0;
    for (const char of chars) {
      const w = charWidth(font, char);
      if (lineWidth + w > width && line) {
        lines.push(line);
        line = '';
        lineWidth = 0;
      }
      line += char;
      lineWidth += w;
    }
  }
  lines.push(line.trimEnd());
  return lines;
}

/** Draws the message with a real text layer: DejaVu Sans embedded (subset, with a ToUnicode map). */
export async function renderPdf(input: RenderInput): Promise<{ bytes: Uint8Array; pages: number; truncated: boolean }> {
  const fonts = loadFonts();
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(drawableTitle(input.title));
  pdf.setProducer('Obscura intake');
  pdf.setCreator('Obscura');
  const regular = await pdf.embedFont(fonts.regular, { subset: true });
  const bold = await pdf.embedFont(fonts.bold, { subset: true });
  const textWidth = PAGE.width - 2 * PAGE.margin;
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  let truncated = false;
  const nextLine = (): boolean => {
    y -= LEADING;
    if (y >= PAGE.margin) return true;
    if (pdf.getPageCount() >= input.maxPages) return false;
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin - LEADING;
    return true;
  };
  y += LEADING;
  header: for (const [label, value] of input.header) {
    const lines = cleanText(value)
      .split('\n')
      .flatMap((part) => wrap(regular, drawable(regular, part), textWidth - LABEL_WIDTH));
    for (const [index, line] of lines.entries()) {
      if (!nextLine()) {
        truncated = true;
        break header;
      }
      if (index === 0) page.drawText(`${label}:`, { x: PAGE.margin, y, size: SIZE, font: bold });
      if (line) page.drawText(line, { x: PAGE.margin + LABEL_WIDTH, y, size: SIZE, font: regular });
    }
  }
  if (!truncated && nextLine()) {
    page.drawLine({ start: { x: PAGE.margin, y: y + 4 }, end: { x: PAGE.width - PAGE.margin, y: y + 4 }, thickness: 0.75, color: rgb(0.4, 0.4, 0.4) });
  }
  if (!truncated) {
    body: for (const paragraph of cleanText(input.body).split('\n')) {
      for (const line of wrap(regular, drawable(regular, paragraph), textWidth)) {
        if (!nextLine()) {
          truncated = true;
          break body;
        }
        if (line) page.drawText(line, { x: PAGE.margin, y, size: SIZE, font: regular });
      }
    }
  }
  if (truncated) {
    page.drawText(`[Cut here: longer than ${input.maxPages} pages. The original file holds the rest.]`, { x: PAGE.margin, y: PAGE.margin / 2, size: 8, font: bold });
  }
  const bytes = await pdf.save({ useObjectStreams: false });
  return { bytes, pages: pdf.getPageCount(), truncated };
}

function drawableTitle(title: string): string {
  return cleanText(title).replace(/\n/g, ' ').slice(0, 500);
}
