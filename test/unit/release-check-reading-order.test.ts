import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText } from '../../main/common/fold-text.js';
import type { Glyph } from '../../worker/pdf-glyphs/interpret.js';
import { visualText } from '../../worker/release-check/strings.js';
import { token } from '../../worker/burn-in/words.js';

// visualText groups a page's glyphs into lines without comparing each glyph with every line, and foldText skips
// Unicode normalisation for plain ASCII: both must give exactly what the plain definitions give.

function glyph(text: string, x1: number, y1: number, width: number, height: number, vertical: boolean): Glyph {
  const x2 = x1 + width;
  const y2 = y1 + height;
  return { text, bytes: '', quad: [x1, y1, x2, y1, x2, y2, x1, y2], x1, y1, x2, y2, emSpan: null, vertical, isSpace: false, hiddenBy: null, overImage: false, annotation: false };
}

/** The definition: each glyph joins the first line (column) whose first glyph's middle is close enough. */
function reference(glyphs: readonly Glyph[]): string {
  const kept = glyphs.filter((entry) => entry.text !== '');
  const group = (sorted: Glyph[], middle: (g: Glyph) => number, size: (g: Glyph) => number) => {
    const groups: Glyph[][] = [];
    for (const entry of sorted) {
      const found = groups.find((list) => Math.abs(middle(list[0] as Glyph) - middle(entry)) < Math.max(size(list[0] as Glyph), size(entry)) * 0.4);
      if (found) found.push(entry);
      else groups.push([entry]);
    }
    return groups;
  };
  const lines = group(kept.filter((g) => !g.vertical).sort((a, b) => b.y1 + b.y2 - (a.y1 + a.y2)), (g) => (g.y1 + g.y2) / 2, (g) => g.y2 - g.y1);
  const columns = group(kept.filter((g) => g.vertical).sort((a, b) => b.x1 + b.x2 - (a.x1 + a.x2)), (g) => (g.x1 + g.x2) / 2, (g) => g.x2 - g.x1);
  const text = [...lines.map((line) => line.sort((a, b) => a.x1 - b.x1)), ...columns.map((column) => column.sort((a, b) => b.y2 - a.y2))]
    .map((list) => list.map((entry) => entry.text).join(''))
    .join(' ');
  return text.normalize('NFKC').toLowerCase().normalize('NFKC').replace(/[\s\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/gu, '');
}

const glyphs = fc.array(
  fc.record({
    text: fc.constantFrom('a', 'B', 'ﬁ', 'Ⅸ', '', 'é', '中'),
    x: fc.integer({ min: 0, max: 600 }),
    y: fc.integer({ min: 0, max: 800 }),
    width: fc.integer({ min: 1, max: 30 }),
    height: fc.integer({ min: 1, max: 40 }),
    vertical: fc.boolean(),
  }),
  { maxLength: 60 },
);

describe('reading order and folding, fast paths', () => {
  it('visualText groups lines and columns exactly as the definition does', () => {
    fc.assert(
      fc.property(glyphs, (specs) => {
        const list = specs.map((spec) => glyph(spec.text, spec.x, spec.y, spec.width, spec.height, spec.vertical));
        expect(visualText(list)).toBe(reference(list));
      }),
      { numRuns: 400 },
    );
  });

  it('foldText gives plain ASCII what NFKC, lower case and the ignored characters give it', () => {
    const slow = (text: string) => text.normalize('NFKC').toLowerCase().normalize('NFKC').replace(/[\s\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/gu, '');
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (text) => {
        expect(foldText(text)).toBe(slow(text));
      }),
      { numRuns: 2000 },
    );
    expect(foldText('ＡＢＣ ﬁ\u200b X')).toBe('abcfix');
  });

  it('token gives plain ASCII what NFKC without whitespace gives it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (text) => {
        expect(token(text)).toBe(text.normalize('NFKC').replace(/\s+/gu, ''));
      }),
      { numRuns: 2000 },
    );
    expect(token('ﬁle\u00a0name')).toBe('filename');
  });
});
