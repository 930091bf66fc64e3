import type { LayerWord } from '../../../main/common/export-tasks.js';
import { emBox, isHidden, quadOf, type Glyph } from '../../pdf-glyphs/index.js';
import type { Rect } from '../geometry.js';
import { isRightToLeft } from './index.js';

// The invisible text layer of a rendered PDF page, built from the source's glyphs (worker/pdf-glyphs/): a glyph
// joins the layer only when its own extent meets no drawn area and a viewer of the source shows it (an OCR
// layer of the page's own picture counts as shown). Runs of such glyphs that follow on make the layer's words;
// vertical writing gives a word per glyph at its own cell. Characters are the source's own (a full-width colon
// stays full-width).

function meets(glyph: Rect, drawn: readonly Rect[]): boolean {
  return drawn.some((area) => glyph.x1 < area.x2 && area.x1 < glyph.x2 && glyph.y1 < area.y2 && area.y1 < glyph.y2);
}

type Turn = 0 | 90 | 180 | 270;

/** Which way a glyph's baseline runs in user space, to the nearest quarter turn (counterclockwise). */
function turnOf(glyph: Glyph): Turn {
  if (glyph.vertical || glyph.quad === null) return 0;
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = quadOf(glyph);
  const quarter = Math.round(Math.atan2(y1 - y0, x1 - x0) / (Math.PI / 2));
  return ((((quarter % 4) + 4) % 4) * 90) as Turn;
}

/** A box seen in the frame where text of that turn runs left to right (rotated back by the turn). */
function unturned(box: Rect, turn: Turn): Rect {
  switch (turn) {
    case 90:
      return { x1: box.y1, y1: -box.x2, x2: box.y2, y2: -box.x1 };
    case 180:
      return { x1: -box.x2, y1: -box.y2, x2: -box.x1, y2: -box.y1 };
    case 270:
      return { x1: -box.y2, y1: box.x1, x2: -box.y1, y2: box.x2 };
    default:
      return box;
  }
}

/**
 * Whether `second` continues the word `first` ends: the same writing and turn, on the same line, closer than a
 * word space (a tenth of an em, as poppler breaks words: OCR layers often draw no space glyphs).
 */
function followsOn(first: Glyph, second: Glyph): boolean {
  const turn = turnOf(first);
  if (turn !== turnOf(second) || first.vertical !== second.vertical) return false;
  if (first.vertical) {
    const width = Math.max(first.x2 - first.x1, 1);
    const gap = first.y1 - second.y2;
    return Math.abs((first.x1 + first.x2) / 2 - (second.x1 + second.x2) / 2) < width * 0.5 && gap < width * 0.34 && gap > -width;
  }
  const a = unturned(emBox(first), turn);
  const b = unturned(emBox(second), turn);
  // The em box spans 1.2 em (−0.25 … 0.95).
  const em = Math.max((a.y2 - a.y1) / 1.2, 0.1);
  const gap = b.x1 - a.x2;
  const across = Math.abs((a.y1 + a.y2) / 2 - (b.y1 + b.y2) / 2);
  return across < em * 0.6 && gap < em * 0.1 && gap > -em;
}

/**
 * CJK radicals and compatibility ideographs, and Arabic presentation forms, become the characters they stand for:
 * a font's own map (which pdf.js reads) often gives the radical U+2F42 for the glyph of 文, or the shaped ﻣ for م,
 * where the document's text (and poppler's reading of it) says 文 and م. Nothing else changes (a ligature ﬁ stays
 * U+FB01, a full-width colon stays full-width).
 */
function ideograph(text: string): string {
  return text.replace(/[\u2e80-\u2fdf\uf900-\ufaff\ufb50-\ufdff\ufe70-\ufefc]/gu, (char) => char.normalize('NFKC'));
}

export interface GlyphLayer {
  /** Words for the layer, in the source's units (user space), in drawing order. */
  words: LayerWord[];
  /** Texts of the glyph runs that met a drawn area or were hidden: what the page withholds. */
  withheld: string[];
}

/** Sorts a page's glyphs into the layer's words and the withheld runs. */
export function glyphLayer(glyphs: readonly Glyph[], drawn: readonly Rect[], visible: Rect, keepHidden = false): GlyphLayer {
  const words: LayerWord[] = [];
  const withheld: string[] = [];
  let word: LayerWord | null = null;
  let last: Glyph | null = null;
  let parts: { text: string; x: number }[] = [];
  let cut = '';
  const flush = () => {
    if (word && word.text.trim() !== '') {
      // Right-to-left script the source draws left to right (in visual order) is drawn so again, so readers
      // order it as they order the source's own glyphs.
      const first = parts[0];
      const final = parts[parts.length - 1];
      if (!word.vertical && !word.turn && isRightToLeft(word.text) && first && final && final.x > first.x) word.drawnLeftToRight = true;
      // Canonical composition (a base letter and its combining mark drawn apart become one character, as İ).
      word.text = word.text.normalize('NFC');
      words.push(word);
    }
    word = null;
    last = null;
    parts = [];
  };
  const flushCut = () => {
    if (cut.trim() !== '') withheld.push(cut.replace(/\s+/gu, ''));
    cut = '';
  };
  for (const glyph of glyphs) {
    const centreX = (glyph.x1 + glyph.x2) / 2;
    const centreY = (glyph.y1 + glyph.y2) / 2;
    const offPage = centreX < visible.x1 || centreX > visible.x2 || centreY < visible.y1 || centreY > visible.y2;
    // keepHidden (an internal review copy with the setting keep, never a release): hidden text inside the page stays.
    if ((!keepHidden && isHidden(glyph)) || offPage || meets(glyph, drawn)) {
      flush();
      if (glyph.isSpace) flushCut();
      else cut += glyph.text;
      continue;
    }
    flushCut();
    if (glyph.isSpace || glyph.text === '') {
      flush();
      continue;
    }
    if (word && last && followsOn(last, glyph)) {
      const current: LayerWord = word;
      current.text += ideograph(glyph.text);
      parts.push({ text: ideograph(glyph.text), x: glyph.x1 });
      const em = emBox(glyph);
      current.x1 = Math.min(current.x1, em.x1);
      current.y1 = Math.min(current.y1, em.y1);
      current.x2 = Math.max(current.x2, em.x2);
      current.y2 = Math.max(current.y2, em.y2);
    } else {
      flush();
      // Placed by its em box, as readers place text, so the layer's words stand where the source's words stand.
      parts = [{ text: ideograph(glyph.text), x: glyph.x1 }];
      const turn = turnOf(glyph);
      const em = emBox(glyph);
      word = { text: ideograph(glyph.text), x1: em.x1, y1: em.y1, x2: em.x2, y2: em.y2, ...(glyph.vertical && { vertical: true }), ...(turn !== 0 && { turn }) };
    }
    last = glyph;
  }
  flush();
  flushCut();
  return { words, withheld };
}
