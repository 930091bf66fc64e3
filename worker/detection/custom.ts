import type { RE2JS } from 're2js';
import { compileLinearRegex, linearMatches } from '../../main/common/linear-regex.js';
import type { Candidate } from './candidate.js';

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Template terms, matched whole-word and case-insensitively, with any run of spaces or a line break
 * between their words (text from OCR wraps where it likes).
 */
export function compileTerms(terms: readonly string[]): RegExp | null {
  const parts = [...new Set(terms.map((term) => term.trim()).filter(Boolean))]
    .sort((a, b) => b.length - a.length)
    .map((term) => term.split(/\s+/).map(escape).join('\\s+'));
  if (parts.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

export function findTerms(text: string, pattern: RegExp | null): Candidate[] {
  if (!pattern) return [];
  return [...text.matchAll(pattern)].map((match) => ({ entity: 'custom_term' as const, start: match.index, end: match.index + match[0].length, score: 1, cues: [] }));
}

export interface CompiledPattern {
  name: string;
  regex: RE2JS;
}

/** Template and job patterns run on RE2: linear in the page's text whatever the pattern. */
export function compilePatterns(patterns: readonly { name: string; regex: string; flags?: string | undefined }[]): CompiledPattern[] {
  return patterns.map((pattern) => ({ name: pattern.name, regex: compileLinearRegex(pattern.regex, (pattern.flags ?? '').replace(/g/g, '')) }));
}

export function findPatterns(text: string, patterns: readonly CompiledPattern[]): Candidate[] {
  const found: Candidate[] = [];
  for (const { name, regex } of patterns) {
    for (const [start, end] of linearMatches(regex, text)) {
      found.push({ entity: 'custom_pattern', start, end, score: 1, cues: [], pattern: name });
    }
  }
  return found;
}
