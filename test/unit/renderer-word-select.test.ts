import { describe, expect, it } from 'vitest';
import { snapToWords, type Word } from '../../renderer/src/views/viewer/word-select.js';

// The viewer's Words tool: a drag selects like text, in reading order, one box per line snapped to the words.

// Two lines in PDF user space (y up): line 1 at y 700–712, line 2 at y 680–692.
const PDF_WORDS: Word[] = [
  { text: 'Applicant:', x1: 72, y1: 700, x2: 130, y2: 712 },
  { text: 'Rowan', x1: 134, y1: 700, x2: 170, y2: 712 },
  { text: 'Ellery', x1: 174, y1: 700, x2: 205, y2: 712 },
  { text: 'Phone', x1: 72, y1: 680, x2: 108, y2: 692 },
  { text: '555-0143', x1: 112, y1: 680, x2: 165, y2: 692 },
  { text: 'today', x1: 169, y1: 680, x2: 200, y2: 692 },
];

describe('snapToWords', () => {
  it('from the word at the start to the word at the end, in reading order, one box per line', () => {
    const boxes = snapToWords(PDF_WORDS, { x: 150, y: 706 }, { x: 120, y: 686 }, true);
    expect(boxes).toEqual([
      { x1: 134, y1: 700, x2: 205, y2: 712 },
      { x1: 72, y1: 680, x2: 165, y2: 692 },
    ]);
  });

  it('a drag backwards selects the same words', () => {
    expect(snapToWords(PDF_WORDS, { x: 120, y: 686 }, { x: 150, y: 706 }, true)).toEqual(snapToWords(PDF_WORDS, { x: 150, y: 706 }, { x: 120, y: 686 }, true));
  });

  it('within one line: only the words between the ends', () => {
    expect(snapToWords(PDF_WORDS, { x: 140, y: 705 }, { x: 160, y: 707 }, true)).toEqual([{ x1: 134, y1: 700, x2: 170, y2: 712 }]);
  });

  it('image pixels (y down) read lines top to bottom too', () => {
    const image = PDF_WORDS.map((word) => ({ ...word, y1: 1000 - word.y2, y2: 1000 - word.y1 }));
    const boxes = snapToWords(image, { x: 150, y: 294 }, { x: 120, y: 314 }, false);
    expect(boxes).toEqual([
      { x1: 134, y1: 288, x2: 205, y2: 300 },
      { x1: 72, y1: 308, x2: 165, y2: 320 },
    ]);
  });

  it('a drag over empty paper selects nothing', () => {
    expect(snapToWords(PDF_WORDS, { x: 300, y: 300 }, { x: 400, y: 250 }, true)).toEqual([]);
    expect(snapToWords([], { x: 100, y: 700 }, { x: 150, y: 710 }, true)).toEqual([]);
  });
});
