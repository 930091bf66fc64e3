// Tesseract's TSV output: one row per page, block, paragraph, line and word, with pixel boxes (origin
// top-left) and, for words, a confidence of 0..100. Read in C++ and handed over as one string, it is much
// cheaper than tesseract.js's `blocks` tree, which walks every symbol through the wasm boundary.

/** A recognised word in image pixels (origin top-left, y down). */
export interface PixelWord {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  confidence: number;
  /** Words with the same line key were recognised on one text line, in reading order. */
  line: string;
}

export interface RecognizedPage {
  /** Size of the image tesseract read (after EXIF orientation for photos). */
  width: number;
  height: number;
  words: PixelWord[];
}

const WORD_LEVEL = 5;
const PAGE_LEVEL = 1;

export function parseTsv(tsv: string): RecognizedPage {
  let width = 0;
  let height = 0;
  const words: PixelWord[] = [];
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12) continue;
    const [level, page, block, paragraph, line, , left, top, boxWidth, boxHeight, confidence] = cells.slice(0, 11).map(Number);
    if (level === undefined || !Number.isFinite(level)) continue; // the header row of the file renderer
    if (level === PAGE_LEVEL) {
      width = Math.max(width, boxWidth ?? 0);
      height = Math.max(height, boxHeight ?? 0);
      continue;
    }
    // A word's text is the last column; a tab cannot occur inside it.
    const text = cells.slice(11).join('\t').trim();
    if (level !== WORD_LEVEL || text === '' || left === undefined || top === undefined || boxWidth === undefined || boxHeight === undefined) continue;
    words.push({
      text,
      left,
      top,
      right: left + boxWidth,
      bottom: top + boxHeight,
      confidence: Math.min(100, Math.max(0, confidence ?? 0)),
      line: `${page}.${block}.${paragraph}.${line}`,
    });
  }
  return { width, height, words };
}
