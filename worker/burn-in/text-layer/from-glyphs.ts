import type { LayerWord } from '../../../main/common/export-tasks.js';
import { isHidden, type Glyph } from '../../pdf-glyphs/index.js';
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

function followsOn(a: Glyph, b: Glyph): boolean {
  if (a.vertical !== b.vertical) return false;
  if (a.vertical) {
    const width = Math.max(a.x2 - a.x1, 1);
    const gap = a.y1 - b.y2;
    return Math.abs((a.x1 + a.x2) / 2 - (b.x1 + b.x2) / 2) < width * 0.5 && gap < width * 0.34 && gap > -width;
  }
  const height = Math.max(a.y2 - a.y1, 1);
  const gap = b.x1 - a.x2;
  const across = Math.abs((a.y1 + a.y2) / 2 - (b.y1 + b.y2) / 2);
  return across < height * 0.5 && gap < height * 0.34 && gap > -height;
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
      if (!word.vertical && isRightToLeft(word.text) && first && final && final.x > first.x) word.drawnLeftToRight = true;
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
      current.text += glyph.text;
      parts.push({ text: glyph.text, x: glyph.x1 });
      current.x1 = Math.min(current.x1, glyph.em.x1);
      current.y1 = Math.min(current.y1, glyph.em.y1);
      current.x2 = Math.max(current.x2, glyph.em.x2);
      current.y2 = Math.max(current.y2, glyph.em.y2);
    } else {
      flush();
      // Placed by its em box, as readers place text, so the layer's words stand where the source's words stand.
      parts = [{ text: glyph.text, x: glyph.x1 }];
      word = { text: glyph.text, x1: glyph.em.x1, y1: glyph.em.y1, x2: glyph.em.x2, y2: glyph.em.y2, ...(glyph.vertical && { vertical: true }) };
    }
    last = glyph;
  }
  flush();
  flushCut();
  return { words, withheld };
}
