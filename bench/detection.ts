import { BUILTIN_ENTITY_KINDS, type BuiltinEntityKind, type DetectionFinding, type FindingBox } from '../main/common/schemas/detection.js';
import type { PageWord } from '../main/common/schemas/pages.js';
import { detectPages } from '../worker/detection/index.js';
import fs from 'node:fs';
import path from 'node:path';
import { generateCorpus, type CorpusDocument } from './lib/detection-corpus.js';
import { externalAddressTexts, externalPersonTexts, f2Of, layOut, scoreLaidOut, type Disagreement, type LabelledText } from './lib/detection-external.js';
import { formatSections } from './lib/detection-formats.js';
import { fmt, fmtInt } from './lib/format.js';
import { labelledDocuments } from './lib/pii-sources.js';
import type { Benchmark, BenchReport, Check } from './types.js';

// Precision, recall and F2 of detection per entity kind on held-out external text (NER corpora, usaddress,
// and hand-labelled external text for the pattern kinds) and on a generated, labelled corpus, running the
// worker's own detectPages (words in, boxes out). BENCH_DETECTION_MISSES=<kind>|1|external prints misses. A finding counts for a labelled value when it is of the
// same kind and its boxes touch any word of the value; every finding that touches none is a false positive.

const SEED = Number(process.env.BENCH_DETECTION_SEED ?? 20260501);
const DOCUMENTS = Number(process.env.BENCH_DETECTION_DOCUMENTS ?? 280);
const MIN_SCORE = 0.5;

/** Checksum and fixed-format kinds must reach 0.9; names and addresses, which need judgement, 0.75. */
const TARGETS: Readonly<Record<BuiltinEntityKind, number>> = {
  ssn: 0.9,
  email: 0.9,
  phone: 0.9,
  payment_card: 0.9,
  iban: 0.9,
  routing_number: 0.9,
  ip_address: 0.9,
  date_of_birth: 0.9,
  passport_number: 0.9,
  drivers_license: 0.9,
  street_address: 0.75,
  person_name: 0.75,
};

interface Tally {
  gold: number;
  found: number;
  predicted: number;
  correct: number;
}

const touches = (box: FindingBox, word: PageWord) => Math.min(box.x2, word.x2) - Math.max(box.x1, word.x1) > 0 && Math.min(box.y2, word.y2) - Math.max(box.y1, word.y1) > 0;

export interface DetectionScore {
  kind: BuiltinEntityKind;
  gold: number;
  predicted: number;
  precision: number;
  recall: number;
  f2: number;
}

export interface Miss {
  document: string;
  kind: string;
  text: string;
  type: 'missed' | 'false positive';
}

/** Scores findings against the corpus labels; also returns examples of misses for tuning. */
export function scoreCorpus(corpus: readonly CorpusDocument[], findingsOf: (document: CorpusDocument) => DetectionFinding[]): { scores: DetectionScore[]; misses: Miss[] } {
  const tallies = new Map<BuiltinEntityKind, Tally>(BUILTIN_ENTITY_KINDS.map((kind) => [kind, { gold: 0, found: 0, predicted: 0, correct: 0 }]));
  const misses: Miss[] = [];
  for (const document of corpus) {
    const kindOf = new Map(document.entities.map((entity) => [entity.id, entity.kind]));
    const hit = new Set<number>();
    for (const finding of findingsOf(document)) {
      if (finding.entity === 'custom_term' || finding.entity === 'custom_pattern') continue;
      const page = document.pages[finding.page - 1];
      const labels = document.labels[finding.page - 1] ?? [];
      if (!page) continue;
      const covered = page.words.map((word, index) => (finding.boxes.some((box) => touches(box, word)) ? index : -1)).filter((index) => index >= 0);
      const ids = new Set(covered.map((index) => labels[index] ?? -1).filter((id) => id >= 0 && kindOf.get(id) === finding.entity));
      const tally = tallies.get(finding.entity) as Tally;
      tally.predicted += 1;
      if (ids.size > 0) {
        tally.correct += 1;
        for (const id of ids) hit.add(id);
      } else {
        misses.push({ document: document.name, kind: finding.entity, type: 'false positive', text: covered.map((index) => page.words[index]?.text).join(' ') });
      }
    }
    for (const entity of document.entities) {
      const tally = tallies.get(entity.kind) as Tally;
      tally.gold += 1;
      if (hit.has(entity.id)) tally.found += 1;
      else {
        const text = document.pages.flatMap((page, pageIndex) => page.words.filter((_, index) => document.labels[pageIndex]?.[index] === entity.id).map((word) => word.text)).join(' ');
        misses.push({ document: document.name, kind: entity.kind, type: 'missed', text });
      }
    }
  }
  const scores = BUILTIN_ENTITY_KINDS.map((kind) => {
    const tally = tallies.get(kind) as Tally;
    const precision = tally.predicted === 0 ? (tally.gold === 0 ? 1 : 0) : tally.correct / tally.predicted;
    const recall = tally.gold === 0 ? 1 : tally.found / tally.gold;
    const f2 = precision + recall === 0 ? 0 : (5 * precision * recall) / (4 * precision + recall);
    return { kind, gold: tally.gold, predicted: tally.predicted, precision, recall, f2 };
  });
  return { scores, misses };
}

/** Targets on external text (issue 20): names 0.80, addresses 0.75. */
const EXTERNAL_TARGETS: Readonly<Record<string, number>> = { person_name: 0.8, street_address: 0.75 };
const REALDATA = path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpora', 'realdata', 'detection', 'corpus.json');
/**
 * Detection's CPU time per full page, as a ratio to a reference pass over the same pages measured in the same
 * run (speed targets are ratios, so a loaded or slower machine does not fail them): the reference splits the
 * page into words with a Unicode pattern and counts their lower-cased forms, REFERENCE_ROUNDS times over.
 * The target is about 1.5 times the ratio measured when it was set (7.7x: 19.9 ms against 2.56 ms; it was an
 * absolute 20 ms, which a loaded shared machine missed).
 */
const PAGE_RATIO_TARGET = 12;
const REFERENCE_ROUNDS = 10;

function referencePass(text: string): number {
  const counts = new Map<string, number>();
  for (let round = 0; round < REFERENCE_ROUNDS; round += 1) for (const match of text.matchAll(/[\p{L}\p{N}]+|\S/gu)) counts.set(match[0].toLowerCase(), (counts.get(match[0].toLowerCase()) ?? 0) + 1);
  return counts.size;
}

/** CPU ms of the reference pass on each page, measured like detection's (the process's user + system time). */
function referenceMsPerPage(texts: readonly string[]): number[] {
  return texts.map((text) => {
    const started = process.cpuUsage();
    referencePass(text);
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  });
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : ((sorted[Math.floor((sorted.length - 1) / 2)] as number) + (sorted[Math.ceil((sorted.length - 1) / 2)] as number)) / 2;
};

/**
 * Held-out external text (never trained on): NER sentences for names, usaddress strings for addresses, laid
 * out into 400-word pages and run through detectPages. realdata, when present, is measured and shown apart:
 * it is evaluation-only and nothing is tuned on it.
 */
function externalSection(plan: Parameters<typeof detectPages>[1], log: (message: string) => void) {
  const rows: string[][] = [];
  const checks: Check[] = [];
  const notes: string[] = [];
  const data: Record<string, unknown> = {};
  // minGold: a kind with fewer labelled values is shown but sets no check (too few to measure).
  const measure = (label: string, texts: LabelledText[], kinds: string[], targets: Readonly<Record<string, number>>, minGold = 0, skipEmpty = false) => {
    const pages = layOut(texts);
    const { tallies, msPerPage, disagreements } = scoreLaidOut(texts, pages, (page) => detectPages([page], plan), new Set(kinds));
    for (const [kind, tally] of tallies) {
      if (skipEmpty && tally.gold === 0 && tally.predicted === 0) continue;
      const { precision, recall, f2 } = f2Of(tally);
      const target = targets[kind];
      const unmeasured = tally.gold === 0;
      rows.push([`${label}: ${kind}`, fmtInt(tally.gold), fmtInt(tally.predicted), unmeasured && tally.predicted === 0 ? '-' : fmt(precision, 3), unmeasured ? '-' : fmt(recall, 3), unmeasured ? '-' : fmt(f2, 3), target === undefined ? '-' : fmt(target, 2)]);
      if (target !== undefined && tally.gold >= Math.max(1, minGold)) checks.push({ name: `${label} F2 ${kind} >= ${target}`, pass: f2 >= target, detail: `F2 ${fmt(f2, 3)} (P ${fmt(precision, 3)}, R ${fmt(recall, 3)}, ${tally.gold} labelled)` });
      data[`${label}:${kind}`] = { ...tally, precision, recall, f2 };
    }
    return { pages, msPerPage, tallies, disagreements };
  };
  const persons = externalPersonTexts();
  log(`external: ${persons.length} held-out NER sentences, laid out in pages`);
  const bySource = new Map<string, LabelledText[]>();
  for (const text of persons) bySource.set(text.source, [...(bySource.get(text.source) ?? []), text]);
  const { pages, msPerPage } = measure('external', persons, ['person_name'], EXTERNAL_TARGETS);
  for (const [source, texts] of bySource) measure(`  ${source}`, texts, ['person_name'], {});
  // Addresses: the held-out usaddress strings, among the held-out NER sentences as text that holds none
  // (so precision counts); SEC loan agreements are left out there, their addresses are not labelled as such.
  const prose = persons.filter((text) => text.source !== 'sec-fin3').map((text) => ({ ...text, spans: [] }));
  measure('external', [...externalAddressTexts(), ...prose], ['street_address'], EXTERNAL_TARGETS);
  notes.push(...externalPatternKinds(measure, log));
  const full = pages.filter((laid) => laid.page.words.length >= 380);
  const ms = median(msPerPage.filter((_, index) => (pages[index] as (typeof pages)[number]).page.words.length >= 380));
  const reference = median(referenceMsPerPage(full.map((laid) => laid.page.text)));
  const ratio = ms / Math.max(reference, 0.001);
  checks.push({
    name: `detection median CPU per 400-word page <= ${PAGE_RATIO_TARGET}x the reference pass`,
    pass: ratio <= PAGE_RATIO_TARGET,
    detail: `${fmt(ratio, 1)}x: ${fmt(ms, 1)} ms against ${fmt(reference, 2)} ms over ${full.length} pages, all kinds, one thread`,
  });
  data.msPerPage = ms;
  data.referenceMsPerPage = reference;
  data.pageRatio = ratio;
  notes.push(`External text: held-out splits of ../shared/corpora/ner-train never trained on (scripts/ner-corpus.ts heldOutSentences; handles/hashtags not counted as names) and usaddress measure_performance strings (among the held-out sentences as address-free text); median ${fmt(ms, 1)} ms of CPU time per 400-word page (the process's own time, as the machine may be shared), ${fmt(ratio, 1)}x the reference pass (words split and counted ${REFERENCE_ROUNDS} times, ${fmt(reference, 2)} ms) measured on the same pages in the same run.`);
  if (fs.existsSync(REALDATA)) {
    const real = (JSON.parse(fs.readFileSync(REALDATA, 'utf8')) as { text: string; spans: { start: number; end: number; kind: string }[] }[]).map((entry) => ({ source: 'realdata', text: entry.text, spans: entry.spans as LabelledText['spans'] }));
    const kinds = [...new Set(real.flatMap((entry) => entry.spans.map((span) => span.kind)))].filter((kind) => (BUILTIN_ENTITY_KINDS as readonly string[]).includes(kind)).sort();
    measure('realdata (eval only)', real, kinds, {});
    notes.push('realdata: evaluation-only Presidio-derived texts, measured for reference; nothing is trained or tuned on them, and they set no target here.');
  }
  return { rows, checks, notes, data };
}

/** Targets on external text (issue 20): phones 0.90, every other pattern kind 0.95; a check needs 20 labelled values. */
const PATTERN_TARGETS: Readonly<Record<string, number>> = Object.fromEntries(BUILTIN_ENTITY_KINDS.filter((kind) => kind !== 'person_name').map((kind) => [kind, kind === 'phone' ? 0.9 : kind === 'street_address' ? 0.75 : 0.95]));
const MIN_MEASURABLE = 20;
/** Later held-out rounds of more than one source, labelled before the detector ever ran on them. */
const JOINT_ROUNDS: readonly (readonly string[])[] = [['debian-copyright-b', 'texlive-readme']];

type Measure = (
  label: string,
  texts: LabelledText[],
  kinds: string[],
  targets: Readonly<Record<string, number>>,
  minGold?: number,
  skipEmpty?: boolean,
) => { tallies: Map<string, { gold: number }>; disagreements: Disagreement[] };

/**
 * Pattern kinds on external text labelled by hand (bench/labels/external-pii.json, docs/detection-model.md):
 * all sources together with the targets, then each source alone. Kinds nobody labelled still count their
 * findings there (all false positives).
 */
function externalPatternKinds(measure: Measure, log: (message: string) => void): string[] {
  const { documents, missing, changed } = labelledDocuments();
  const notes: string[] = [];
  if (documents.length === 0) return ['External pattern kinds: no labelled document is present on this machine (see bench/lib/pii-sources.ts).'];
  log(`external pattern kinds: ${documents.length} hand-labelled documents`);
  const texts = (list: typeof documents): LabelledText[] => list.map((document) => ({ source: document.source, text: document.text, spans: document.spans as LabelledText['spans'] }));
  const kinds = Object.keys(PATTERN_TARGETS);
  const { tallies, disagreements } = measure('external, labelled by hand', texts(documents), kinds, PATTERN_TARGETS, MIN_MEASURABLE);
  for (const source of [...new Set(documents.map((document) => document.source))]) measure(`  ${source}`, texts(documents.filter((document) => document.source === source)), kinds, {}, 0, true);
  // Sources labelled together in one later round, measured together too (docs/detection-model.md).
  for (const round of JOINT_ROUNDS) {
    const fresh = documents.filter((document) => round.includes(document.source));
    if (fresh.length > 0) measure(`  ${round.join(' + ')}`, texts(fresh), kinds, {}, 0, true);
  }
  const few = kinds.filter((kind) => (tallies.get(kind)?.gold ?? 0) < MIN_MEASURABLE).map((kind) => `${kind} ${tallies.get(kind)?.gold ?? 0}`);
  const words = documents.reduce((sum, document) => sum + (document.text.match(/\S+/g)?.length ?? 0), 0);
  notes.push(`External pattern kinds: ${documents.length} documents (${fmtInt(words)} words) from ${[...new Set(documents.map((document) => document.source))].join(', ')}, labelled by hand before the detector ran on them (bench/labels/external-pii.tsv; docs/detection-model.md). Too few labelled values to measure (< ${MIN_MEASURABLE}, no check): ${few.join(', ')}.`);
  // BENCH_DETECTION_MISSES=external lists every disagreement of this set (what the labels say against the detector).
  if (process.env.BENCH_DETECTION_MISSES === 'external') for (const entry of disagreements) notes.push(`  ${entry.type.padEnd(14)} ${entry.kind.padEnd(16)} ${(documents[entry.doc]?.id ?? '?').padEnd(40)} ${JSON.stringify(entry.text)}`);
  if (missing.length > 0 || changed.length > 0) notes.push(`  not measured: ${missing.length} labelled documents absent here, ${changed.length} whose text differs from the labelled one (${[...missing, ...changed].slice(0, 5).join(', ')}${missing.length + changed.length > 5 ? ' …' : ''}).`);
  return notes;
}

export const detectionBench: Benchmark = {
  name: 'detection',
  description: `detection precision, recall and F2 per entity kind on ${DOCUMENTS} generated, labelled documents`,
  async run(settings): Promise<BenchReport> {
    const plan0 = { entityKinds: [...BUILTIN_ENTITY_KINDS], minScore: MIN_SCORE, customTerms: [], patterns: [] };
    // BENCH_DETECTION_ONLY=formats: only the issue-28 sets (generated formats, phone shapes, technical prose);
    // =technical: only technical prose (BENCH_TECHNICAL_SPLIT=dev for the working split alone).
    if (process.env.BENCH_DETECTION_ONLY === 'formats' || process.env.BENCH_DETECTION_ONLY === 'technical') {
      const formats = formatSections(plan0, settings.log);
      return { title: 'Detection: formats, phone shapes, technical prose', table: [['set', 'labelled', 'found', 'precision', 'recall', 'F2', 'target'], ...formats.rows], notes: formats.notes, checks: formats.checks, data: formats.data };
    }
    const corpus = generateCorpus(SEED, DOCUMENTS);
    const plan = { entityKinds: [...BUILTIN_ENTITY_KINDS], minScore: MIN_SCORE, customTerms: [], patterns: [] };
    settings.log(`generated ${corpus.length} documents (seed ${SEED}), ${corpus.reduce((sum, document) => sum + document.entities.length, 0)} labelled values`);
    const started = performance.now();
    const { scores, misses } = scoreCorpus(corpus, (document) => detectPages(document.pages, plan));
    const seconds = (performance.now() - started) / 1000;
    const words = corpus.reduce((sum, document) => sum + document.pages.reduce((pages, page) => pages + page.words.length, 0), 0);
    const table = [['kind', 'labelled', 'found', 'precision', 'recall', 'F2', 'target']];
    for (const score of scores) table.push([score.kind, fmtInt(score.gold), fmtInt(score.predicted), fmt(score.precision, 3), fmt(score.recall, 3), fmt(score.f2, 3), fmt(TARGETS[score.kind], 2)]);
    const external = externalSection(plan, settings.log);
    table.push(...external.rows);
    const formats = formatSections(plan, settings.log);
    table.push(...formats.rows);
    const checks: Check[] = scores.map((score) => ({
      name: `detection F2 ${score.kind} >= ${TARGETS[score.kind]}`,
      pass: score.f2 >= TARGETS[score.kind],
      detail: `F2 ${fmt(score.f2, 3)} (P ${fmt(score.precision, 3)}, R ${fmt(score.recall, 3)}, ${score.gold} labelled)`,
    }));
    checks.push(...external.checks, ...formats.checks);
    const notes = [
      ...external.notes,
      ...formats.notes,
      `${corpus.length} documents, ${fmtInt(words)} words, detection (including scoring) in ${fmt(seconds, 2)} s (${fmtInt(words / seconds)} words/s); min_score ${MIN_SCORE}; seed ${SEED} (BENCH_DETECTION_SEED).`,
      'A finding counts when it has the labelled kind and touches a word of the labelled value; F2 weighs recall four times precision.',
    ];
    if (process.env.BENCH_DETECTION_MISSES) {
      const wanted = process.env.BENCH_DETECTION_MISSES;
      for (const miss of misses.filter((entry) => wanted === '1' || entry.kind === wanted).slice(0, 60)) notes.push(`  ${miss.type.padEnd(14)} ${miss.kind.padEnd(16)} ${miss.document.padEnd(12)} ${miss.text}`);
    }
    return { title: 'Detection quality (external held-out text, then the generated labelled corpus)', table, notes, checks, data: { seed: SEED, documents: corpus.length, words, seconds, scores, external: external.data, formats: formats.data } };
  },
};
