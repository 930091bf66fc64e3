import type { EntityKind } from '../../main/common/schemas/detection.js';

/** A match in one page's text, before it is mapped to words. */
export interface Candidate {
  entity: EntityKind;
  start: number;
  end: number;
  score: number;
  cues: string[];
  pattern?: string;
  /** What produced it: `model:<name>`, `rule:<name>` or `pattern:<kind>`. */
  rule?: string;
}

/** Which kind wins when two matches overlap: explicit requests, then checksummed and exact formats, then heuristics. */
export const PRIORITY: Readonly<Record<EntityKind, number>> = {
  custom_term: 12,
  custom_pattern: 11,
  payment_card: 10,
  iban: 10,
  email: 9,
  ssn: 9,
  routing_number: 8,
  ip_address: 8,
  date_of_birth: 7,
  passport_number: 7,
  drivers_license: 7,
  phone: 6,
  street_address: 5,
  person_name: 4,
};

export const clamp = (score: number) => Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;

export interface CueOptions {
  /** Characters looked at before the match (and after it). */
  before?: number;
  after?: number;
  /** Line breaks the window may cross before the match (labels above values in forms). */
  lines?: number;
}

/** The part of `text` before `start` within the window, cut at the allowed number of line breaks. */
export function windowBefore(text: string, start: number, before: number, lines: number): string {
  let window = text.slice(Math.max(0, start - before), start);
  const parts = window.split('\n');
  if (parts.length > lines + 1) window = parts.slice(parts.length - lines - 1).join('\n');
  return window;
}

export function windowAfter(text: string, end: number, after: number): string {
  const window = text.slice(end, end + after);
  const lineEnd = window.indexOf('\n');
  return lineEnd >= 0 ? window.slice(0, lineEnd) : window;
}

/** Context words near a match (normalised to lower case), looked for before it and, more narrowly, after it. */
export function cuesNear(text: string, start: number, end: number, cue: RegExp, options: CueOptions = {}): string[] {
  const before = windowBefore(text, start, options.before ?? 60, options.lines ?? 1);
  const after = windowAfter(text, end, options.after ?? 25);
  const found = new Set<string>();
  const global = new RegExp(cue.source, cue.flags.includes('g') ? cue.flags : `${cue.flags}g`);
  for (const match of `${before}\u0000${after}`.matchAll(global)) found.add(match[0].toLowerCase().replace(/\s+/g, ' ').trim());
  return [...found];
}
