import { RE2JS } from 're2js';
import { DomainError } from '../../common/errors.js';
import type { SearchMode } from '../../common/schemas/search.js';
import { foldQuery, stripMarksSameLength } from './page-text.js';

// The four query modes over one page string (see page-text.ts). Patterns run on RE2 (re2js): linear time
// in the text whatever the pattern, so a pasted pattern that would backtrack forever answers promptly.

export interface MatchSpec {
  query: string;
  mode: SearchMode;
  wholeWord: boolean;
  caseSensitive: boolean;
}

export interface TextMatch {
  start: number;
  end: number;
}

export interface CompiledSearch {
  /** An FTS5 MATCH expression that every page with a hit satisfies; null when every page must be read. */
  ftsQuery: string | null;
  /** Which page strings `find` reads; one it does not read is passed as ''. */
  reads: 'text' | 'folded' | 'both';
  find(text: string, folded: string): TextMatch[];
  /** `find` over many pages. */
  findPages(pages: readonly { text: string; folded: string }[]): TextMatch[][];
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const MAX_TERMS = 1000;
const MAX_PATTERN = 1000;
/** Compiled RE2 instructions: counted repetitions multiply a short pattern into a large program. */
export const MAX_PROGRAM_SIZE = 5000;

function collapse(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function atWordBoundaries(text: string, start: number, end: number): boolean {
  return !WORD_CHAR.test(text.charAt(start - 1)) && !WORD_CHAR.test(text.charAt(end));
}

function invalid(message: string, field = 'query'): DomainError {
  return new DomainError('validation_error', message, [{ field, message }]);
}

function ftsPhrase(needle: string): string {
  return `"${needle.replace(/"/g, '""')}"`;
}

/** Literal search for one or more needles; `accept` checks a candidate found in the folded text. */
function literalSearch(
  needles: string[],
  wholeWord: boolean,
  accept: ((text: string, start: number, end: number, index: number) => boolean) | null,
): CompiledSearch {
  const folded = needles.map(foldQuery);
  return {
    reads: accept !== null ? 'both' : 'folded',
    // Trigrams need 3 characters; a shorter needle leaves no index to consult.
    ftsQuery: folded.every((needle) => needle.length >= 3) ? folded.map(ftsPhrase).join(' OR ') : null,
    findPages(pages) {
      return pages.map((page) => this.find(page.text, page.folded));
    },
    find(text, foldedText) {
      const found: TextMatch[] = [];
      folded.forEach((needle, index) => {
        for (let at = foldedText.indexOf(needle); at !== -1; at = foldedText.indexOf(needle, at + 1)) {
          const end = at + needle.length;
          // Folding keeps letters letters, so word boundaries read the same in either string.
          if (wholeWord && !atWordBoundaries(foldedText, at, end)) continue;
          if (accept && !accept(text, at, end, index)) continue;
          found.push({ start: at, end });
        }
      });
      return dropOverlaps(found);
    },
  };
}

/** Sorted by start, longest first; a match overlapping an earlier kept one is dropped. */
function dropOverlaps(matches: TextMatch[]): TextMatch[] {
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: TextMatch[] = [];
  let reach = -1;
  for (const match of matches) {
    if (match.start < reach) continue;
    kept.push(match);
    reach = match.end;
  }
  return kept;
}

function patternSearch(pattern: string, wholeWord: boolean, caseSensitive: boolean): CompiledSearch {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(wholeWord ? `\\b(?:${pattern})\\b` : pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw invalid(`query is not a valid pattern (RE2 syntax): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) {
    throw invalid(`the pattern compiles to ${compiled.programSize()} instructions, more than ${MAX_PROGRAM_SIZE}; use fewer or smaller counted repetitions ({n,m})`);
  }
  return {
    ftsQuery: null,
    reads: 'text',
    find(text) {
      // test() runs on re2js's DFA, about five times faster than a matcher: most pages stop there.
      if (!compiled.test(text)) return [];
      const found: TextMatch[] = [];
      const matcher = compiled.matcher(text);
      while (matcher.find()) {
        const start = matcher.start();
        const end = matcher.end();
        if (end > start) found.push({ start, end });
      }
      return found;
    },
    findPages(pages) {
      return pages.map((page) => this.find(page.text, page.folded));
    },
  };
}

export function compileSearch(spec: MatchSpec): CompiledSearch {
  if (spec.mode === 'pattern') {
    if (spec.query.length === 0) throw invalid('query must not be empty');
    // A compiled program grows with the pattern; a pasted megabyte is refused, not compiled.
    if (spec.query.length > MAX_PATTERN) throw invalid(`a pattern may be at most ${MAX_PATTERN} characters long`);
    return patternSearch(spec.query, spec.wholeWord, spec.caseSensitive);
  }
  if (spec.mode === 'terms') {
    const terms = [...new Set(spec.query.split(/\r?\n/).map(collapse).filter((term) => term.length > 0))];
    if (terms.length === 0) throw invalid('query must hold at least one term, one per line');
    if (terms.length > MAX_TERMS) throw invalid(`query holds ${terms.length} terms; at most ${MAX_TERMS} are searched at once`);
    const wanted = terms.map(stripMarksSameLength);
    return literalSearch(terms, spec.wholeWord, spec.caseSensitive ? (text, start, end, index) => stripMarksSameLength(text.slice(start, end)) === wanted[index] : null);
  }
  const query = collapse(spec.mode === 'phrase' ? spec.query.replace(/^\s*"([\s\S]*)"\s*$/, '$1') : spec.query);
  if (query.length === 0) throw invalid('query must not be empty');
  if (spec.mode === 'phrase') {
    // Exact: whole words and the same diacritics; case only when case_sensitive.
    const wanted = spec.caseSensitive ? query : query.toLowerCase();
    return literalSearch([query], true, (text, start, end) => (spec.caseSensitive ? text.slice(start, end) : text.slice(start, end).toLowerCase()) === wanted);
  }
  const wanted = stripMarksSameLength(query);
  return literalSearch([query], spec.wholeWord, spec.caseSensitive ? (text, start, end) => stripMarksSameLength(text.slice(start, end)) === wanted : null);
}
