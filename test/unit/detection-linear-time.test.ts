import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findAddresses } from '../../worker/detection/addresses.js';
import { PRIORITY, type Candidate } from '../../worker/detection/candidate.js';
import { resolveOverlaps } from '../../worker/detection/index.js';
import { capitalisedLine } from '../../worker/detection/name-precision.js';
import { foreignLine, headerLine, lineAround, sentenceInitial, titleCaseHeader, wordBounds } from '../../worker/detection/name-shape.js';
import { technicalVocabulary } from '../../worker/detection/technical-vocabulary.js';

// Detection runs over whatever text a document holds, one page at a time, with no time limit of its own: a
// long line must cost time in proportion to its length. Each case below took seconds to minutes before (a
// pattern that backtracked over a long run, or a rule that read the whole line again for every candidate on
// it); the bounds are on complexity, far above what the code takes now and far below what it took then.

const seconds = (work: () => unknown): number => {
  const started = performance.now();
  work();
  return (performance.now() - started) / 1000;
};

describe('detection on long lines', () => {
  it('strips addresses from a run without spaces in linear time (the vocabulary share of technical text)', () => {
    // One 12,000-character token: the old pattern (\S* around the address marks) backtracked cubically.
    const run = 'Ab-'.repeat(4000);
    expect(seconds(() => technicalVocabulary(`${run} compiler parser`))).toBeLessThan(1);
    // Still what it was for: URLs and e-mail addresses are no prose, their words not counted.
    expect(technicalVocabulary('see https://example.org/compiler or mail parser@example.org about the compiler')).toEqual({ share: 1 / 6, words: 6, terms: 1 });
  });

  it('reads a street after its type word in linear time when a long hyphenated run follows it', () => {
    // "Via " then capitalised pieces without spaces: the name's words with an optional space between them
    // could split the run every way (a 600-character line took seconds, 1,200 characters minutes).
    expect(seconds(() => findAddresses(`Via ${'Ab-'.repeat(2000)} 12`))).toBeLessThan(2);
    expect(seconds(() => findAddresses(`Contact ${'Äb-'.repeat(4000)}straße 12`))).toBeLessThan(2);
    // The shapes the patterns are for still match.
    const found = (text: string) => findAddresses(text).map((candidate) => text.slice(candidate.start, candidate.end));
    expect(found('Send it to Via Giuseppe Verdi 12, 20121 Milano please.')).toContain('Via Giuseppe Verdi 12, 20121 Milano');
    expect(found('Our office: 10 rue de la Paix 75002 Paris')).toContain('10 rue de la Paix 75002 Paris');
    expect(found('Wohnhaft: Konrad-Adenauer-Straße 1, 53113 Bonn')).toContain('Konrad-Adenauer-Straße 1, 53113 Bonn');
    expect(found('Adresse Karl Johans gate 22, 0159 Oslo')).toContain('Karl Johans gate 22, 0159 Oslo');
  });

  it('judges a line once for all the candidates on it', () => {
    const words = Array.from({ length: 6000 }, (_, index) => (index % 3 === 2 ? 'AB' : 'Ab'));
    const line = `Contact ${words.join(' ')}`;
    const starts = [...line.matchAll(/\S+/g)].map((match) => [match.index, match.index + match[0].length] as const);
    // Every word asks about its line, as the name rules do: reading the line each time was quadratic.
    expect(seconds(() => starts.forEach(([start, end]) => capitalisedLine(line, start, end)))).toBeLessThan(1);
    expect(seconds(() => starts.forEach(([start, end]) => foreignLine(line, start, end, false)))).toBeLessThan(1);
    // And the answer is the line's, whichever line is asked about.
    const text = 'Alpha Beta Gamma Delta Epsilon\nthe report was read by Maria Lopez today';
    expect(capitalisedLine(text, 0, 5)).toBe(true);
    expect(capitalisedLine(text, 52, 57)).toBe(false);
    expect(capitalisedLine(text, 6, 10)).toBe(true);
  });

  it('finds a line and a word around any place as scanning from it would, after one reading of the text', () => {
    const texts = fc.stringMatching(/^[ab \n\t\r]{0,40}$/);
    fc.assert(
      fc.property(texts, fc.nat(), fc.nat(), (text, a, b) => {
        const start = text.length === 0 ? 0 : a % (text.length + 1);
        const end = start + (text.length === 0 ? 0 : b % (text.length - start + 1));
        const next = text.indexOf('\n', end);
        expect(lineAround(text, start, end)).toEqual([text.lastIndexOf('\n', start - 1) + 1, next < 0 ? text.length : next]);
        const bounds = wordBounds(text);
        for (let index = 0; index < text.length; index += 1) {
          expect(bounds.lastBreak[index]).toBe(Math.max(text.lastIndexOf(' ', index), text.lastIndexOf('\n', index), text.lastIndexOf('\t', index)));
          const space = text.slice(index).search(/\s/);
          expect(bounds.nextSpace[index]).toBe(space < 0 ? text.length : index + space);
        }
      }),
      { numRuns: 300 },
    );
    // Asked at every word of a 60,000-character line: the answers come from one reading.
    const line = 'Ab '.repeat(20000);
    expect(seconds(() => {
      for (let index = 0; index < line.length; index += 3) lineAround(line, index, index + 2);
      wordBounds(line);
    })).toBeLessThan(1);
  });

  it('reads what stands before a candidate on its line, and a header line, as reading the whole line would', () => {
    // The plain definitions: the line's text before the candidate, trimmed; the line's last part before it.
    const plainInitial = (text: string, start: number) => {
      const before = text.slice(text.lastIndexOf('\n', start - 1) + 1, start).trim();
      return before === '' || /(?:[.!?:;•▪·*–—-]|^\(?(?:\d{1,3}|[a-z])[.)])$/u.test(before);
    };
    const plainHeaderLine = (text: string, start: number, end: number) => {
      const lineStart = text.lastIndexOf('\n', start - 1) + 1;
      const next = text.indexOf('\n', end);
      return (text.slice(lineStart, start).split(/[ \t]{2,}|\t|[ \t][-−‐]{1,2}[ \t]|[–—]/u).at(-1) ?? '') + text.slice(start, next < 0 ? text.length : next);
    };
    const lower = new Set(['page', 'fault', 'count']);
    const pieces = fc.constantFrom('Major', 'Page', 'Fault', 'Count', 'ROB', 'a', '1', '(2)', 'b)', '.', ':', '-', ' -- ', '  ', '\t', ' ', '\n', '\u00a0', '—', 'x'.repeat(30));
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }), fc.nat(), fc.nat(), (parts, a, b) => {
        const text = parts.join('');
        const start = text.length === 0 ? 0 : a % (text.length + 1);
        const end = start + (text.length === 0 ? 0 : b % (text.length - start + 1));
        expect(sentenceInitial(text, start)).toBe(plainInitial(text, start));
        const plain = plainHeaderLine(text, start, end);
        expect(headerLine(text, start, end)).toBe(plain.length > 80 ? null : plain);
      }),
      { numRuns: 2000 },
    );
    // What the header rule is for still holds.
    const header = 'vMj  --  Major Page Fault Count Delta';
    expect(titleCaseHeader(header, header.indexOf('Major'), header.indexOf('Major') + 5, lower)).toBe(true);
    // Every word of a 120,000-character line asks: the answers no longer read the line each time (6 s before).
    const line = `Intro ${'Ab Cd) '.repeat(17000)}`;
    const starts = [...line.matchAll(/\S+/g)].map((match) => [match.index, match.index + match[0].length] as const);
    expect(seconds(() => starts.forEach(([start, end]) => [sentenceInitial(line, start), titleCaseHeader(line, start, end, lower)]))).toBeLessThan(1);
  });

  it('settles overlapping matches as comparing each with every kept one would, in time near linear', () => {
    const plain = (candidates: readonly Candidate[]) => {
      const ordered = [...candidates].sort((a, b) => PRIORITY[b.entity] - PRIORITY[a.entity] || b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
      const kept: Candidate[] = [];
      for (const candidate of ordered) if (!kept.some((other) => other.start < candidate.end && candidate.start < other.end)) kept.push(candidate);
      return kept.sort((a, b) => a.start - b.start);
    };
    const candidate = fc.record({
      entity: fc.constantFrom('person_name' as const, 'phone' as const, 'street_address' as const, 'email' as const),
      start: fc.integer({ min: 0, max: 30 }),
      length: fc.integer({ min: 0, max: 8 }),
      score: fc.constantFrom(0.5, 0.7, 0.9),
    }).map(({ entity, start, length, score }): Candidate => ({ entity, start, end: start + length, score, cues: [] }));
    fc.assert(fc.property(fc.array(candidate, { maxLength: 25 }), (candidates) => {
      expect(resolveOverlaps(candidates)).toEqual(plain(candidates));
    }), { numRuns: 500 });
    // 50,000 matches on one page (a directory of names run into one line).
    const many = Array.from({ length: 50000 }, (_, index): Candidate => ({ entity: 'person_name', start: index * 6, end: index * 6 + 5, score: 0.8, cues: [] }));
    expect(seconds(() => resolveOverlaps(many))).toBeLessThan(1);
  });
});
