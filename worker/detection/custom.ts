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
  regex: RegExp;
}

export function compilePatterns(patterns: readonly { name: string; regex: string; flags?: string | undefined }[]): CompiledPattern[] {
  return patterns.map((pattern) => ({ name: pattern.name, regex: new RegExp(pattern.regex, `${(pattern.flags ?? '').replace(/g/g, '')}g`) }));
}

export function findPatterns(text: string, patterns: readonly CompiledPattern[]): Candidate[] {
  const found: Candidate[] = [];
  for (const { name, regex } of patterns) {
    for (const match of text.matchAll(regex)) {
      if (match[0].length === 0) continue;
      found.push({ entity: 'custom_pattern', start: match.index, end: match.index + match[0].length, score: 1, cues: [], pattern: name });
    }
  }
  return found;
}
