import { describe, expect, it } from 'vitest';
import { extractiveSummary, splitSentences } from '../../worker/summary.js';

const page = (page_number: number, text: string) => ({ page_number, unit: 'pdf_points' as const, text });

describe('sentence splitting', () => {
  it('splits at sentence ends but not after titles, initials or common abbreviations', () => {
    expect(splitSentences('Mr. J. R. Smith met Dr. Lee at 5 p.m. on Jan. 4 in the U.S. office. The meeting ended early! Was it useful? Yes.')).toEqual([
      'Mr. J. R. Smith met Dr. Lee at 5 p.m. on Jan. 4 in the U.S. office.',
      'The meeting ended early!',
      'Was it useful?',
      'Yes.',
    ]);
  });
});

describe('extractive summary', () => {
  // A records-office letter: the sentences about the water contract dispute recur in other words; the
  // filler sentences share little with the rest. Running header and page numbers repeat on each page.
  const pages = [
    page(
      1,
      [
        'CITY OF SPRINGFIELD - OFFICE OF THE CLERK',
        'The city council reviewed the water treatment contract with Harbor Engineering after residents complained about billing errors.',
        'The weather on the day of the meeting was mild and sunny.',
        'Council members found that the water treatment contract allowed Harbor Engineering to bill the city twice for the same maintenance work.',
        'Page 1 of 3',
      ].join('\n'),
    ),
    page(
      2,
      [
        'CITY OF SPRINGFIELD - OFFICE OF THE CLERK',
        'Refreshments were served in the lobby before the session began.',
        'The auditor estimated that the double billing under the water treatment contract cost the city about two million dollars.',
        'Page 2 of 3',
      ].join('\n'),
    ),
    page(
      3,
      [
        'CITY OF SPRINGFIELD - OFFICE OF THE CLERK',
        'The council voted to suspend payments to Harbor Engineering until the water treatment contract billing is corrected.',
        'Parking for visitors is available on the north side of the building.',
        'Page 3 of 3',
      ].join('\n'),
    ),
  ];

  it('keeps the central sentences, in document order, and drops repeated headers and page numbers', () => {
    const summary = extractiveSummary(pages, 3);
    expect(summary.sentences.map((sentence) => sentence.page)).toEqual([...summary.sentences.map((sentence) => sentence.page)].sort());
    expect(summary.sentences).toHaveLength(3);
    for (const sentence of summary.sentences) expect(sentence.text).toMatch(/water treatment contract/);
    expect(summary.summary).not.toMatch(/CITY OF SPRINGFIELD|Page \d of 3|weather|Refreshments|Parking/);
    expect(summary.summary).toBe(summary.sentences.map((sentence) => sentence.text).join(' '));
    expect(summary.candidate_sentences).toBe(7);
  });

  it('gives as many sentences as asked, at most as many as there are', () => {
    expect(extractiveSummary(pages, 1).sentences).toHaveLength(1);
    expect(extractiveSummary(pages, 30).sentences.length).toBeLessThanOrEqual(7);
  });

  it('joins lines wrapped mid-sentence and keeps headings apart', () => {
    const wrapped = page(1, 'MEMORANDUM\nThe inspection of the bridge found corrosion on the\nnorthern supports and recommended closing two lanes immediately.\nThe inspection team will return next month to review the bridge supports again.');
    const summary = extractiveSummary([wrapped], 2);
    expect(summary.sentences.map((sentence) => sentence.text)).toEqual([
      'The inspection of the bridge found corrosion on the northern supports and recommended closing two lanes immediately.',
      'The inspection team will return next month to review the bridge supports again.',
    ]);
  });

  it('an empty or number-only document gives an empty summary', () => {
    expect(extractiveSummary([page(1, '')], 3)).toEqual({ summary: '', sentences: [], candidate_sentences: 0, characters: 0 });
    expect(extractiveSummary([page(1, '12 34 56\n78 90')], 3).summary).toBe('');
  });
});
