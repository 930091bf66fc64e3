import type { BuiltinEntityKind, DetectionFinding, DetectionPlan } from '../../main/common/schemas/detection.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import type { DetectionTask, WorkerProgress } from '../../main/common/worker-messages.js';
import { findAddresses } from './addresses.js';
import { boxesForRange, timeSpanForRange } from './boxes.js';
import { PRIORITY, type Candidate } from './candidate.js';
import { compilePatterns, compileTerms, findPatterns, findTerms, type CompiledPattern } from './custom.js';
import { findNames, nameWords, recurringNames } from './names.js';
import { documentContext, type DocumentContext } from './name-precision.js';
import {
  findCards,
  findDatesOfBirth,
  findDriversLicenses,
  findEmails,
  findIbans,
  findIpAddresses,
  findPassports,
  findPhones,
  findRoutingNumbers,
  findSsns,
} from './patterns.js';
import { buildPageText, type PageInput, type PageText } from './text.js';
import { mapBack, unwrap } from './unwrap.js';

export type { PageInput } from './text.js';

const DETECTORS: Readonly<Record<BuiltinEntityKind, (text: string, document: DocumentContext | null) => Candidate[]>> = {
  ssn: findSsns,
  email: findEmails,
  phone: findPhones,
  payment_card: findCards,
  iban: findIbans,
  routing_number: findRoutingNumbers,
  ip_address: findIpAddresses,
  date_of_birth: findDatesOfBirth,
  passport_number: findPassports,
  drivers_license: findDriversLicenses,
  street_address: findAddresses,
  person_name: findNames,
};

interface Compiled {
  kinds: readonly BuiltinEntityKind[];
  minScore: number;
  terms: RegExp | null;
  patterns: CompiledPattern[];
}

function compile(plan: DetectionPlan): Compiled {
  return { kinds: plan.entityKinds, minScore: plan.minScore, terms: compileTerms(plan.customTerms), patterns: compilePatterns(plan.patterns) };
}

const overlaps = (a: Candidate, b: Candidate) => a.start < b.end && b.start < a.end;

/** Of overlapping matches, the one of the more specific kind wins, then the higher score, then the longer. */
export function resolveOverlaps(candidates: readonly Candidate[]): Candidate[] {
  const ordered = [...candidates].sort((a, b) => PRIORITY[b.entity] - PRIORITY[a.entity] || b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
  // The kept matches never overlap one another, so in order of start (then end) their ends rise too: one halving
  // finds the only kept match a new one could meet first (comparing with every kept match was quadratic).
  const kept: Candidate[] = [];
  const taken = new Map<Candidate, number>();
  for (const candidate of ordered) {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((kept[middle] as Candidate).end > candidate.start) high = middle;
      else low = middle + 1;
    }
    const next = kept[low];
    if (next && overlaps(next, candidate)) continue;
    let at = low;
    while (at < kept.length && ((kept[at] as Candidate).start < candidate.start || ((kept[at] as Candidate).start === candidate.start && (kept[at] as Candidate).end <= candidate.end))) at += 1;
    kept.splice(at, 0, candidate);
    taken.set(candidate, taken.size);
  }
  return kept.sort((a, b) => a.start - b.start || (taken.get(a) as number) - (taken.get(b) as number));
}

function candidatesIn(text: string, compiled: Compiled, document: DocumentContext | null = null): Candidate[] {
  let found: Candidate[] = [];
  for (const kind of compiled.kinds) found.push(...DETECTORS[kind](text, document));
  found.push(...findTerms(text, compiled.terms), ...findPatterns(text, compiled.patterns));
  // Values broken across lines: the detectors again over the text with its line breaks joined; only the
  // matches that cross a break are new. The name tagger reads across plain breaks by itself.
  if (text.includes('\n')) {
    const joined = unwrap(text);
    const again: Candidate[] = [];
    // Names only where a word was hyphenated at a line end ("Ivano-\nvich"): the tagger is the costly part.
    for (const kind of compiled.kinds) if (kind !== 'person_name' || joined.hyphenBreaks.size > 0) again.push(...DETECTORS[kind](joined.text, document));
    again.push(...findPatterns(joined.text, compiled.patterns));
    for (const candidate of again) {
      const wrapped = mapBack(joined, candidate);
      if (wrapped) found.push(wrapped);
    }
  }
  for (const candidate of found) if (candidate.entity !== 'custom_term' && candidate.entity !== 'custom_pattern') trimToValue(text, candidate);
  // A postcode inside an address (Japan's 468-6327, Chile's 8690142) is no phone unless a phone word says so
  // ("office" or "home" nearby do not).
  // (US street rules read ZIPs, not such postcodes, and a US line may run on into a card or phone on the next one.)
  const addresses = found.filter((candidate) => candidate.entity === 'street_address' && /address-(?:format|international|asia)/.test(candidate.rule ?? ''));
  if (addresses.length > 0) {
    const inAddress = (candidate: Candidate) =>
      candidate.entity === 'phone' &&
      !candidate.cues.some((cue) => STRONG_PHONE_CUE.test(cue)) &&
      addresses.some((address) => address.start <= candidate.start && candidate.end <= address.end && address.score >= candidate.score);
    found = found.filter((candidate) => !inAddress(candidate));
  }
  for (const candidate of found) candidate.rule ??= candidate.entity === 'custom_term' ? 'template:term' : candidate.entity === 'custom_pattern' ? 'template:pattern' : `pattern:${candidate.entity}`;
  return found.filter((candidate) => candidate.end > candidate.start && candidate.score >= compiled.minScore);
}

const STRONG_PHONE_CUE = /^(?:phone|ph|tel|telephone|fax|mobile|cell|cellular|call|dial|sms|whatsapp|[ohcmwf][:.]|ph[:.]|tel[:.])/;

const PAIRS: Readonly<Record<string, string>> = { '<': '>', '[': ']', '{': '}', '(': ')', '“': '”', '‘': '’', '«': '»' };
const CLOSING = new Map(Object.entries(PAIRS).map(([open, close]) => [close, open]));

/**
 * Trims a match to its value: no angle brackets, quotes or brackets around it and no trailing punctuation.
 * A bracket stays when its partner is inside ("(555) 010-4477", "{ann,bo}@host").
 */
export function trimToValue(text: string, candidate: Candidate): void {
  let { start, end } = candidate;
  while (end - start > 1) {
    const first = text.charAt(start);
    const last = text.charAt(end - 1);
    const inside = text.slice(start, end);
    const partner = PAIRS[first];
    const opener = CLOSING.get(last);
    if (first === '"' || first === "'" || (partner !== undefined && !inside.includes(partner))) start += 1;
    else if ('"\'.,;!?'.includes(last) || (opener !== undefined && !inside.includes(opener))) end -= 1;
    else break;
  }
  if (/[\p{L}\p{N}]/u.test(text.slice(start, end))) {
    candidate.start = start;
    candidate.end = end;
  }
}

/** All matches in one text, overlaps resolved; names are not propagated (that needs the whole document). */
export function detectInText(text: string, plan: DetectionPlan): Candidate[] {
  return resolveOverlaps(candidatesIn(text, compile(plan)));
}

/**
 * Transcript pages (one per timed segment) are joined into one text, so context and names carry across
 * segments; each word remembers its page.
 */
function joinTranscript(pages: readonly PageInput[]): { input: PageInput; pageOfWord: number[] } {
  const words: PageWord[] = [];
  const pageOfWord: number[] = [];
  for (const page of pages) {
    for (const word of page.words) {
      words.push(word);
      pageOfWord.push(page.page_number);
    }
  }
  const text = pages.map((page) => page.text).join('\n');
  return { input: { page_number: pages[0]?.page_number ?? 1, unit: 'seconds', rotation: 0, text, words }, pageOfWord };
}

/** Finds sensitive data in a document's pages and maps every match to boxes (or, for transcripts, times). */
export function detectPages(pages: readonly PageInput[], plan: DetectionPlan, onPage: (done: number, total: number) => void = () => undefined): DetectionFinding[] {
  const compiled = compile(plan);
  const transcript = pages.length > 0 && pages.every((page) => page.unit === 'seconds');
  const joined = transcript ? joinTranscript(pages) : null;
  const texts: PageText[] = joined ? [buildPageText(joined.input)] : pages.map(buildPageText);
  // The worker gets a document's pages together: how the whole document writes a word (in lower case, as a
  // heading, alone again and again, among code) tells a term from a name on any of its pages.
  const document = compiled.kinds.includes('person_name') && texts.length > 1 ? documentContext(texts.map((page) => page.text)) : null;
  const perPage = texts.map((page, index) => {
    const resolved = resolveOverlaps(candidatesIn(page.text, compiled, document));
    onPage(index + 1, texts.length * 2);
    return resolved;
  });
  // Second pass: names found with good evidence anywhere, where they recur alone.
  const words = new Set<string>();
  if (compiled.kinds.includes('person_name')) {
    texts.forEach((page, index) => {
      for (const word of nameWords(page.text, perPage[index] ?? [])) words.add(word);
    });
  }
  const findings: DetectionFinding[] = [];
  texts.forEach((page, index) => {
    const first = perPage[index] ?? [];
    const recurring = recurringNames(page.text, words, document).filter((candidate) => candidate.score >= compiled.minScore);
    const final = recurring.length > 0 ? resolveOverlaps([...first, ...recurring]) : first;
    for (const candidate of final) {
      const finding: DetectionFinding = { entity: candidate.entity, page: page.page, score: candidate.score, cues: candidate.cues, boxes: [] };
      if (candidate.pattern) finding.pattern = candidate.pattern;
      if (candidate.rule) finding.rule = candidate.rule;
      if (joined) {
        const span = timeSpanForRange(page, candidate.start, candidate.end);
        const firstWord = page.spans.findIndex((wordSpan) => wordSpan.start >= 0 && wordSpan.end > candidate.start);
        finding.page = joined.pageOfWord[firstWord] ?? page.page;
        if (span) {
          finding.start = span.start;
          finding.end = span.end;
        }
      } else {
        finding.boxes = boxesForRange(page, candidate.start, candidate.end);
        if (finding.boxes.length === 0) continue;
      }
      findings.push(finding);
    }
    onPage(texts.length + index + 1, texts.length * 2);
  });
  return findings;
}

/** The worker's entry for a detection task. */
export function runDetection(task: DetectionTask, report: (progress: WorkerProgress) => void): DetectionFinding[] {
  let lastReported = 0;
  return detectPages(task.pages, task.plan, (done, total) => {
    const now = Date.now();
    if (now - lastReported < 100 && done < total) return;
    lastReported = now;
    report({ type: 'progress', jobId: task.jobId, progress: done / total });
  });
}
