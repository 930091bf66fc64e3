import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWords, touchesDrawn } from '../../worker/burn-in/fidelity/words.js';
import { center, contains, type Rect } from '../../worker/burn-in/geometry.js';
import { token, type SourceWord } from '../../worker/burn-in/words.js';

// Issue 29: (b) of the two-way check finds each source word's match among the output's words by token instead of
// scanning every output word (quadratic in a page's words). It must answer exactly as the plain scan does.

/** The plain definition: for each source word, the first unused output word with its token at its place, else one holding it. */
function plainCompare(source: readonly SourceWord[], output: readonly SourceWord[], drawn: readonly Rect[], visible: Rect, tolerance = 1) {
  const samePlace = (a: SourceWord, b: SourceWord) => {
    const tx = tolerance + a.slackX + b.slackX;
    const ty = tolerance + a.slackY + b.slackY;
    return Math.abs(a.x1 - b.x1) <= tx && Math.abs(a.y1 - b.y1) <= ty && Math.abs(a.x2 - b.x2) <= tx + 0.5 && Math.abs(a.y2 - b.y2) <= ty + 0.5;
  };
  const holds = (o: SourceWord, s: SourceWord) => {
    const tx = tolerance + o.slackX + s.slackX;
    const ty = tolerance + o.slackY + s.slackY;
    return token(o.text).includes(token(s.text)) && o.x1 <= s.x1 + tx && o.x2 >= s.x2 - tx && o.y1 <= s.y1 + ty && o.y2 >= s.y2 - ty;
  };
  const used = new Set<number>();
  let checked = 0;
  let missing = 0;
  let firstMissing: Rect | null = null;
  for (const word of source) {
    if (token(word.text) === '' || !contains(visible, center(word)) || touchesDrawn(word, drawn)) continue;
    checked += 1;
    let found = output.findIndex((candidate, index) => !used.has(index) && token(candidate.text) === token(word.text) && samePlace(candidate, word));
    if (found < 0) found = output.findIndex((candidate) => holds(candidate, word));
    if (found >= 0) {
      if (token(output[found]?.text ?? '') === token(word.text)) used.add(found);
      continue;
    }
    missing += 1;
    firstMissing ??= { x1: word.x1, y1: word.y1, x2: word.x2, y2: word.y2 };
  }
  return { checked, missing, firstMissing };
}

const wordOf = fc.record({
  text: fc.constantFrom('alpha', 'beta', 'alphabeta', 'ﬁne', 'fine', ' ', 'beta,', 'x'),
  x: fc.integer({ min: 0, max: 2 }),
  y: fc.integer({ min: 0, max: 1 }),
  jitter: fc.constantFrom(0, 0.6, 0.9, 1.2, 1.4, 1.8, 3),
  wide: fc.constantFrom(1, 1.02, 1.04, 2),
  slack: fc.constantFrom(0, 0.5),
});
const placed = ({ text, x, y, jitter, wide, slack }: { text: string; x: number; y: number; jitter: number; wide: number; slack: number }): SourceWord => ({
  text,
  x1: x * 20 + jitter,
  y1: y * 15,
  x2: x * 20 + 18 * wide + jitter,
  y2: y * 15 + 10,
  slackX: slack,
  slackY: 0,
});

describe('(b) words: matching by token', () => {
  it('answers as a scan of every output word does', () => {
    const visible = { x1: 0, y1: 0, x2: 130, y2: 60 };
    fc.assert(
      fc.property(fc.array(wordOf, { maxLength: 30 }), fc.array(wordOf, { maxLength: 30 }), fc.array(fc.record({ x: fc.integer({ min: 0, max: 120 }), y: fc.integer({ min: 0, max: 50 }) }), { maxLength: 2 }), (source, output, boxes) => {
        const drawn = boxes.map(({ x, y }) => ({ x1: x, y1: y, x2: x + 15, y2: y + 8 }));
        const a = source.map(placed);
        const b = output.map(placed);
        expect(compareWords(a, b, drawn, visible)).toEqual(plainCompare(a, b, drawn, visible));
      }),
      { numRuns: 3000 },
    );
  });
});
