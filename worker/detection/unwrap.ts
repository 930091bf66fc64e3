import type { Candidate } from './candidate.js';

// A page's text with its line breaks joined, so values wrapped across lines match as one: a break after a
// hyphen inside a word goes with the hyphen ("Wash-\nington"), after a hyphen between digits or capitals only
// the break goes ("555-\n0143"), any other break becomes a space. Offsets map back to the page text.

export interface Unwrapped {
  page: string;
  text: string;
  /** For each character of `text`, its offset in the page text. */
  origin: number[];
  /** Page-text offsets of the line breaks that were joined after a hyphen (sure wraps). */
  hyphenBreaks: Set<number>;
}

export function unwrap(page: string): Unwrapped {
  let text = '';
  const origin: number[] = [];
  const hyphenBreaks = new Set<number>();
  for (let index = 0; index < page.length; index += 1) {
    const char = page.charAt(index);
    if (char !== '\n') {
      text += char;
      origin.push(index);
      continue;
    }
    const before = page.charAt(index - 1);
    const previous = page.charAt(index - 2);
    const after = page.charAt(index + 1);
    if (before === '-' && /\p{Ll}/u.test(previous) && /\p{Ll}/u.test(after)) {
      // Soft hyphenation: drop the hyphen too.
      text = text.slice(0, -1);
      origin.pop();
      hyphenBreaks.add(index);
    } else if (before === '-' && /[\p{N}\p{Lu}]/u.test(previous) && /[\p{N}\p{L}]/u.test(after)) {
      hyphenBreaks.add(index);
    } else {
      text += ' ';
      origin.push(index);
    }
  }
  return { page, text, origin, hyphenBreaks };
}

/** Cues that speak of the value's own form, not of its context. */
const FORMAT_ONLY = new Set(['valid number', 'spelled out', 'wrapped']);

/**
 * A match in the joined text as a match in the page text, when it crosses a line break there (else null:
 * the detectors found it in the page text already). Not after a hyphen, the join is a guess: 0.1 off,
 * unless a context cue right before it backs the value ("Fax: 86 (10)" / "5424-8771": the cue announced it).
 */
export function mapBack(joined: Unwrapped, candidate: Candidate): Candidate | null {
  const start = joined.origin[candidate.start];
  const last = joined.origin[candidate.end - 1];
  if (start === undefined || last === undefined) return null;
  const end = last + 1;
  const crossed = [...joined.page.slice(start, end).matchAll(/\n/g)].map((match) => start + match.index);
  if (crossed.length === 0) return null;
  // Backed: a context cue ends right before the value, only a colon or the like between ("Fax: 86 (10)").
  const lead = joined.text.slice(Math.max(0, candidate.start - 30), candidate.start).toLowerCase().replace(/\s+/g, ' ');
  const backed = candidate.cues.some((cue) => !FORMAT_ONLY.has(cue) && new RegExp(`${cue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s:.#-]{0,3}$`).test(lead));
  const sure = backed || crossed.every((at) => joined.hyphenBreaks.has(at));
  return { ...candidate, start, end, score: Math.round(Math.max(0, candidate.score - (sure ? 0 : 0.1)) * 100) / 100, cues: [...candidate.cues, 'wrapped'] };
}
