import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { fontsDir } from '../fonts.js';
import { CJK_CHAR, cjkFace, cjkLanguageOf, fixedFontkit } from './cjk-font.js';
import { WRITE_WHOLE } from '../pdf-lib-load.js';

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
export const NO_CJK_FONT = 'no Chinese, Japanese or Korean font is installed (Debian/Ubuntu: apt-get install fonts-noto-cjk)';

let fontBytes: { regular: Buffer; bold: Buffer } | null = null;
function loadFonts() {
  fontBytes ??= { regular: fs.readFileSync(path.join(fontsDir(), 'DejaVuSans.ttf')), bold: fs.readFileSync(path.join(fontsDir(), 'DejaVuSans-Bold.ttf')) };
  return fontBytes;
}

/** Control characters out, tabs to spaces, every line break to \n. */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, (char) => (char === '\u2028' || char === '\u2029' ? '\n' : ''));
}

const coverage = new WeakMap<PDFFont, Set<number>>();
/** Whether the font has a glyph for the code point (its character set read once per font). */
function covers(font: PDFFont | null, code: number): font is PDFFont {
  if (!font) return false;
  let set = coverage.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    coverage.set(font, set);
  }
  return set.has(code);
}

/**
 * Per-character font choice: Han, Kana and Hangul in the CJK face, everything else in DejaVu Sans, and a
 * character neither has as U+FFFD (drawn as a box) so the text layer never maps a glyph wrongly.
 */
class Typesetter {
  private readonly picks = new Map<string, { font: PDFFont; char: string }>();
  readonly missing = { cjk: 0, other: 0 };

  constructor(
    private readonly regular: PDFFont,
    private readonly cjk: PDFFont | null,
  ) {}

  /** Whether DejaVu lacks a character of the text (then a CJK face is worth loading). */
  static needsFallback(regular: PDFFont, text: string): boolean {
    for (const char of text) if (char !== '\n' && (CJK_CHAR.test(char) || !covers(regular, char.codePointAt(0) ?? 0))) return true;
    return false;
  }

  pick(char: string): { font: PDFFont; char: string } {
    let picked = this.picks.get(char);
    if (picked) return picked;
    const code = char.codePointAt(0) ?? 0;
    const cjkScript = CJK_CHAR.test(char);
    if (cjkScript && covers(this.cjk, code)) picked = { font: this.cjk, char };
    else if (covers(this.regular, code)) picked = { font: this.regular, char };
    else if (covers(this.cjk, code)) picked = { font: this.cjk, char };
    else picked = { font: this.regular, char: covers(this.regular, 0xfffd) ? '\uFFFD' : '?' };
    this.picks.set(char, picked);
    return picked;
  }

  /** Counts what could not be drawn (once per occurrence), for the document's warnings. */
  count(text: string): void {
    for (const char of text) {
      if (char === '\n' || this.pick(char).char === char) continue;
      if (CJK_CHAR.test(char)) this.missing.cjk += 1;
      else this.missing.other += 1;
    }
  }

  private readonly widths = new Map<string, number>();
  width(char: string): number {
    let width = this.widths.get(char);
    if (width === undefined) {
      const { font, char: drawn } = this.pick(char);
      width = font.widthOfTextAtSize(drawn, SIZE);
      this.widths.set(char, width);
    }
    return width;
  }

  /** Splits one paragraph into lines no wider than `width` (linear: widths per character, cached); over-long words (and CJK runs) break anywhere. */
  wrap(text: string, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    for (const word of text.split(/(?<= )/)) {
      const chars = [...word];
      const wordWidth = chars.reduce((sum, char) => sum + this.width(char), 0);
      if (lineWidth + wordWidth <= width) {
        line += word;
        lineWidth += wordWidth;
        continue;
      }
      if (line) lines.push(line.trimEnd());
      line = '';
      lineWidth = 0;
      for (const char of chars) {
        const w = this.width(char);
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

  /** Draws a line as runs of one font each, advancing by the widths wrap() measured. */
  draw(page: PDFPage, line: string, x: number, y: number): void {
    let run = '';
    let runFont: PDFFont | null = null;
    let runX = x;
    let cursor = x;
    const flush = () => {
      if (run && runFont && run.trim()) page.drawText(run, { x: runX, y, size: SIZE, font: runFont });
      run = '';
      runX = cursor;
    };
    for (const char of line) {
      const { font, char: drawn } = this.pick(char);
      if (font !== runFont) {
        flush();
        runFont = font;
      }
      run += drawn;
      cursor += this.width(char);
    }
    flush();
  }
}

/** Draws the message with a real text layer: DejaVu Sans and, for CJK text, a CJK face, embedded subset with ToUnicode maps. */
export async function renderPdf(input: RenderInput): Promise<{ bytes: Uint8Array; pages: number; truncated: boolean; warnings: string[] }> {
  const fonts = loadFonts();
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fixedFontkit);
  pdf.setTitle(drawableTitle(input.title));
  pdf.setProducer('Obscura intake');
  pdf.setCreator('Obscura');
  const regular = await pdf.embedFont(fonts.regular, { subset: true });
  const bold = await pdf.embedFont(fonts.bold, { subset: true });
  const header = input.header.map(([label, value]) => [label, cleanText(value)] as const);
  const body = cleanText(input.body);
  const allText = `${header.map(([, value]) => value).join('\n')}\n${body}`;
  const warnings: string[] = [];
  let cjk: PDFFont | null = null;
  if (Typesetter.needsFallback(regular, allText)) {
    const face = cjkFace(cjkLanguageOf(allText) ?? 'zh-cn');
    if (face) {
      try {
        cjk = await pdf.embedFont(face, { subset: true });
      } catch (error) {
        warnings.push(`the installed CJK font could not be used (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  }
  const type = new Typesetter(regular, cjk);
  type.count(allText);
  if (type.missing.cjk > 0) warnings.push(`${type.missing.cjk} Chinese, Japanese or Korean characters show as boxes (U+FFFD) in the rendered PDF and its text layer: ${cjk ? 'the installed CJK font lacks them' : NO_CJK_FONT}; the original file keeps them`);
  if (type.missing.other > 0) warnings.push(`${type.missing.other} characters no bundled or installed font can draw show as boxes (U+FFFD) in the rendered PDF; the original file keeps them`);
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
  header: for (const [label, value] of header) {
    const lines = value.split('\n').flatMap((part) => type.wrap(part, textWidth - LABEL_WIDTH));
    for (const [index, line] of lines.entries()) {
      if (!nextLine()) {
        truncated = true;
        break header;
      }
      if (index === 0) page.drawText(`${label}:`, { x: PAGE.margin, y, size: SIZE, font: bold });
      if (line) type.draw(page, line, PAGE.margin + LABEL_WIDTH, y);
    }
  }
  if (!truncated && nextLine()) {
    page.drawLine({ start: { x: PAGE.margin, y: y + 4 }, end: { x: PAGE.width - PAGE.margin, y: y + 4 }, thickness: 0.75, color: rgb(0.4, 0.4, 0.4) });
  }
  if (!truncated) {
    body: for (const paragraph of body.split('\n')) {
      for (const line of type.wrap(paragraph, textWidth)) {
        if (!nextLine()) {
          truncated = true;
          break body;
        }
        if (line) type.draw(page, line, PAGE.margin, y);
      }
    }
  }
  if (truncated) {
    page.drawText(`[Cut here: longer than ${input.maxPages} pages. The original file holds the rest.]`, { x: PAGE.margin, y: PAGE.margin / 2, size: 8, font: bold });
  }
  const bytes = await pdf.save({ ...WRITE_WHOLE, useObjectStreams: false });
  return { bytes, pages: pdf.getPageCount(), truncated, warnings };
}

function drawableTitle(title: string): string {
  return cleanText(title).replace(/\n/g, ' ').slice(0, 500);
}
