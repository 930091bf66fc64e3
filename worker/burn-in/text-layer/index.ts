import { PDFDict, PDFName, PDFString, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';
import type { LayerWord } from '../../../main/common/export-tasks.js';
import { ASCENT, DESCENT, GLYPH_ADVANCE, glyphlessFont, UNITS_PER_EM } from './glyphless.js';

// The invisible text layer of rendered pages (render mode 3): each word at its place, stretched to its width,
// in a glyphless CID font (Type0, Identity-H) whose ToUnicode map gives every code its text, so any script
// (CJK, Arabic, Hebrew, Turkish İ/Ş, €) stays searchable and copyable. Right-to-left words are drawn from their
// right edge leftwards, so their characters stand where the picture shows them and readers keep logical order.

/** The share of a word's box below the baseline: the boxes span −0.25 … 0.95 em. */
const BELOW = 0.25 / 1.2;

const descriptors = new WeakMap<PDFDocument, PDFRef>();

function descriptorOf(out: PDFDocument): PDFRef {
  let ref = descriptors.get(out);
  if (ref) return ref;
  const program = out.context.flateStream(glyphlessFont());
  const file = out.context.register(program);
  ref = out.context.register(
    out.context.obj({
      Type: 'FontDescriptor',
      FontName: 'GlyphLessFont',
      Flags: 5,
      FontBBox: [0, DESCENT, GLYPH_ADVANCE, ASCENT],
      ItalicAngle: 0,
      Ascent: ASCENT,
      Descent: DESCENT,
      CapHeight: ASCENT,
      StemV: 80,
      FontFile2: file,
    }),
  );
  descriptors.set(out, ref);
  return ref;
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/u;

export function isRightToLeft(text: string): boolean {
  return RTL.test(text);
}

function utf16Hex(text: string): string {
  return Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase();
}

function hex4(value: number): string {
  return value.toString(16).toUpperCase().padStart(4, '0');
}

/** ToUnicode: each CID to its character (one code point, possibly a surrogate pair). */
function toUnicode(chars: readonly string[]): string {
  const lines = ['/CIDInit /ProcSet findresource begin', '12 dict begin', 'begincmap', '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def', '/CMapName /Adobe-Identity-UCS def', '/CMapType 2 def', '1 begincodespacerange', '<0000> <FFFF>', 'endcodespacerange'];
  for (let start = 0; start < chars.length; start += 100) {
    const part = chars.slice(start, start + 100);
    lines.push(`${part.length} beginbfchar`);
    part.forEach((char, index) => lines.push(`<${hex4(start + index + 1)}> <${utf16Hex(char)}>`));
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return lines.join('\n');
}

function number(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

/** The content of the layer, and the characters in CID order (CID n is chars[n - 1]); vertical words use `verticalFont`. */
export function layerContent(fontName: string, words: readonly LayerWord[], verticalFont = fontName): { content: string; chars: string[] } {
  const cids = new Map<string, number>();
  const chars: string[] = [];
  const parts = ['BT 3 Tr'];
  for (const word of words) {
    const letters = Array.from(word.text);
    if (letters.length === 0) continue;
    const codes = letters.map((char) => {
      let cid = cids.get(char);
      if (cid === undefined) {
        chars.push(char);
        cid = chars.length;
        cids.set(char, cid);
      }
      return hex4(cid);
    });
    if (word.vertical) {
      // Vertical writing: each glyph advances one em down from the top centre of the column (DW2 880 -1000).
      const cell = Math.max(0.5, (word.y2 - word.y1) / letters.length);
      parts.push(`/Span BMC /${verticalFont} ${number(cell)} Tf 100 Tz 1 0 0 1 ${number((word.x1 + word.x2) / 2)} ${number(word.y2)} Tm <${codes.join('')}> Tj EMC`);
      continue;
    }
    if (word.turn) {
      // Turned text: the same word, its baseline along the turn, the descent side where the turn puts it.
      const across = word.turn === 180 ? word.y2 - word.y1 : word.x2 - word.x1;
      const along = word.turn === 180 ? word.x2 - word.x1 : word.y2 - word.y1;
      const size = Math.max(0.5, across / 1.2);
      const scale = Math.max(1, (100 * along) / ((letters.length * GLYPH_ADVANCE * size) / UNITS_PER_EM));
      const place =
        word.turn === 90
          ? `0 1 -1 0 ${number(word.x2 - BELOW * across)} ${number(word.y1)}`
          : word.turn === 270
            ? `0 -1 1 0 ${number(word.x1 + BELOW * across)} ${number(word.y2)}`
            : `-1 0 0 -1 ${number(word.x2)} ${number(word.y2 - BELOW * across)}`;
      parts.push(`/Span BMC /${fontName} ${number(size)} Tf ${number(scale)} Tz ${place} Tm <${codes.join('')}> Tj EMC`);
      continue;
    }
    const size = Math.max(0.5, (word.y2 - word.y1) / 1.2);
    const natural = (letters.length * GLYPH_ADVANCE * size) / UNITS_PER_EM;
    const scale = Math.max(1, (100 * (word.x2 - word.x1)) / natural);
    const baseline = word.y1 + BELOW * (word.y2 - word.y1);
    // Right to left: the text matrix mirrors x, so the first character stands at the right edge.
    const matrix = isRightToLeft(word.text) && !word.drawnLeftToRight ? `-1 0 0 1 ${number(word.x2)} ${number(baseline)}` : `1 0 0 1 ${number(word.x1)} ${number(baseline)}`;
    // One marked-content span per word keeps readers (pdf.js) from joining the words of a line into one run.
    parts.push(`/Span BMC /${fontName} ${number(size)} Tf ${number(scale)} Tz ${matrix} Tm <${codes.join('')}> Tj EMC`);
  }
  parts.push('ET');
  return { content: parts.join('\n'), chars };
}

/**
 * Adds the invisible words to a page as a content stream of their own, with the page's own Type0 font. The
 * page may be a source page redacted in its content: its content must leave the graphics state as it found
 * it (the rewritten content is wrapped in q … Q), the font takes a name the page does not use, and a font
 * dictionary shared with other pages is copied, not changed.
 */
export function addTextLayer(out: PDFDocument, page: PDFPage, words: readonly LayerWord[]): void {
  if (words.length === 0) return;
  const context = out.context;
  const resources = page.node.Resources();
  if (!resources) throw new Error('the page has no resource dictionary for its text layer');
  const existing = context.lookupMaybe(resources.get(PDFName.of('Font')), PDFDict);
  const fonts = existing ? existing.clone(context) : (context.obj({}) as PDFDict);
  const unused = (base: string) => {
    let name = base;
    for (let suffix = 1; fonts.has(PDFName.of(name)); suffix += 1) name = `${base}${suffix}`;
    return name;
  };
  const fontName = unused('TextLayer');
  const verticalName = words.some((word) => word.vertical) ? unused('TextLayerV') : fontName;
  const { content, chars } = layerContent(fontName, words, verticalName);
  if (chars.length === 0) return;
  // Every CID draws glyph 1, the blank one.
  const map = new Uint8Array(2 * (chars.length + 1));
  for (let cid = 1; cid <= chars.length; cid += 1) map[2 * cid + 1] = 1;
  const toUnicodeMap = context.register(context.flateStream(toUnicode(chars)));
  const cidToGid = context.register(context.flateStream(map));
  const makeFont = (encoding: 'Identity-H' | 'Identity-V') => {
    const descendant = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: 'GlyphLessFont',
        CIDSystemInfo: context.obj({ Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 }),
        FontDescriptor: descriptorOf(out),
        DW: GLYPH_ADVANCE,
        ...(encoding === 'Identity-V' && { DW2: [880, -1000] }),
        CIDToGIDMap: cidToGid,
      }),
    );
    return context.register(context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'GlyphLessFont', Encoding: encoding, DescendantFonts: [descendant], ToUnicode: toUnicodeMap }));
  };
  const font = makeFont('Identity-H');
  if (verticalName !== fontName) fonts.set(PDFName.of(verticalName), makeFont('Identity-V'));
  fonts.set(PDFName.of(fontName), font);
  resources.set(PDFName.of('Font'), fonts);
  page.node.addContentStream(context.register(context.flateStream(content)));
}
