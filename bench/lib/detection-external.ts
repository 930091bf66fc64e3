import type { TaskPage } from '../../main/common/analysis-tasks.js';
import type { BuiltinEntityKind, DetectionFinding, FindingBox } from '../../main/common/schemas/detection.js';
import type { PageWord } from '../../main/common/schemas/pages.js';
import { addressStrings, heldOutSentences, type Sentence } from '../../scripts/ner-corpus.js';

// External, held-out evaluation text for detection: sentences of the openly licensed NER corpora that the
// model never trains on (scripts/ner-corpus.ts), joined back into plain text with character offsets of
// their person spans, and the held-out usaddress strings. Nothing comes from ../shared/corpora/realdata.

export interface LabelledText {
  source: string;
  text: string;
  spans: { start: number; end: number; kind: BuiltinEntityKind }[];
}

const NO_SPACE_BEFORE = /^(?:[.,;:!?)\]}%]|'s|n't|'re|'ve|'ll|'d|'m)$/i;

/** Detokenised text of a sentence and where its person spans fall. */
export function sentenceText(sentence: Sentence): LabelledText {
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  sentence.words.forEach((word, index) => {
    const previous = sentence.words[index - 1];
    if (index > 0 && !NO_SPACE_BEFORE.test(word) && !(previous && /^[([{$#@]$/.test(previous))) text += ' ';
    starts.push(text.length);
    text += word;
    ends.push(text.length);
  });
  const spans: LabelledText['spans'] = [];
  sentence.tags.forEach((tag, index) => {
    if (tag === 'B-PER') spans.push({ start: starts[index] as number, end: ends[index] as number, kind: 'person_name' });
    else if (tag === 'I-PER' && spans.length > 0) (spans.at(-1) as LabelledText['spans'][number]).end = ends[index] as number;
  });
  return { source: sentence.source, text, spans };
}

/** Held-out NER sentences, by source. */
export function externalPersonTexts(): LabelledText[] {
  return heldOutSentences().map(sentenceText);
}

/** Held-out usaddress strings, each on its own as a labelled street address (NotAddress strings left out). */
export function externalAddressTexts(): LabelledText[] {
  return addressStrings('measure_performance')
    .filter((entry) => entry.isAddress)
    .map((entry) => ({ source: 'usaddress-test', text: entry.text, spans: [{ start: 0, end: entry.text.length, kind: 'street_address' as const }] }));
}

/** A page of laid-out words (6 pt per character, 14 pt lines, wrapped at `width` characters) and each word's text offsets. */
export interface LaidOutPage {
  page: TaskPage;
  /** Per word: [document index, start, end) in that labelled text. */
  origin: { doc: number; start: number; end: number }[];
}

/**
 * Lays labelled texts out into pages of about `wordsPerPage` words, wrapping lines like a printed page, so
 * detection runs the worker's whole path (words in, boxes out, values wrapped across lines included).
 */
export function layOut(texts: readonly LabelledText[], wordsPerPage = 400, width = 90): LaidOutPage[] {
  const pages: LaidOutPage[] = [];
  let words: PageWord[] = [];
  let origin: LaidOutPage['origin'] = [];
  let lines: string[] = [''];
  const flush = () => {
    if (words.length > 0) pages.push({ page: { page_number: pages.length + 1, unit: 'pdf_points', rotation: 0, text: lines.join('\n'), words }, origin });
    words = [];
    origin = [];
    lines = [''];
  };
  texts.forEach((labelled, doc) => {
    // Each text starts on a new line, as paragraphs do.
    if ((lines.at(-1) as string).length > 0) lines.push('');
    let partStart = 0;
    for (const part of labelled.text.split('\n')) {
      for (const match of part.matchAll(/\S+/g)) {
        let line = lines.at(-1) as string;
        if (line.length > 0 && line.length + 1 + match[0].length > width) {
          lines.push('');
          line = '';
        }
        const column = line.length === 0 ? 0 : line.length + 1;
        const row = lines.length - 1;
        words.push({ text: match[0], x1: 36 + column * 6, y1: 36 + row * 14, x2: 36 + (column + match[0].length) * 6, y2: 46 + row * 14, confidence: 100 } as PageWord);
        origin.push({ doc, start: partStart + match.index, end: partStart + match.index + match[0].length });
        lines[row] = `${line}${line.length === 0 ? '' : ' '}${match[0]}`;
      }
      if ((lines.at(-1) as string).length > 0) lines.push('');
      partStart += part.length + 1;
    }
    if (words.length >= wordsPerPage) flush();
  });
  flush();
  return pages;
}

export interface KindTally {
  gold: number;
  found: number;
  predicted: number;
  correct: number;
}

const touches = (box: FindingBox, word: PageWord) => Math.min(box.x2, word.x2) - Math.max(box.x1, word.x1) > 0 && Math.min(box.y2, word.y2) - Math.max(box.y1, word.y1) > 0;

/**
 * Scores findings on laid-out pages: a finding is right when it touches a word inside a labelled span of
 * its kind; a span is found when a finding of its kind touches one of its words. Kinds outside `kinds` are
 * not counted (the corpora label only some kinds).
 */
/** A labelled value no finding touched, or a finding that touches no labelled value (`doc` indexes the texts). */
export interface Disagreement {
  kind: string;
  doc: number;
  type: 'missed' | 'false positive';
  text: string;
}

export function scoreLaidOut(
  texts: readonly LabelledText[],
  pages: readonly LaidOutPage[],
  findingsOf: (page: TaskPage) => DetectionFinding[],
  kinds: ReadonlySet<string>,
): { tallies: Map<string, KindTally>; /** CPU ms per page. */ msPerPage: number[]; /** Missed values and false positives, for reading. */ disagreements: Disagreement[] } {
  const tallies = new Map<string, KindTally>([...kinds].map((kind) => [kind, { gold: 0, found: 0, predicted: 0, correct: 0 }]));
  const disagreements: Disagreement[] = [];
  const hit = new Set<string>();
  const msPerPage: number[] = [];
  for (const laid of pages) {
    // CPU time of this thread (user + system), so other processes on a shared machine do not count.
    const started = process.cpuUsage();
    const findings = findingsOf(laid.page);
    const used = process.cpuUsage(started);
    msPerPage.push((used.user + used.system) / 1000);
    for (const finding of findings) {
      const tally = tallies.get(finding.entity);
      if (!tally) continue;
      tally.predicted += 1;
      let right = false;
      const covered: { doc: number; word: string }[] = [];
      laid.page.words.forEach((word, index) => {
        if (!finding.boxes.some((box) => touches(box, word))) return;
        const where = laid.origin[index] as LaidOutPage['origin'][number];
        covered.push({ doc: where.doc, word: word.text });
        (texts[where.doc] as LabelledText).spans.forEach((span, spanIndex) => {
          if (span.kind === finding.entity && span.start < where.end && where.start < span.end) {
            right = true;
            hit.add(`${where.doc}:${spanIndex}`);
          }
        });
      });
      if (right) tally.correct += 1;
      else disagreements.push({ kind: finding.entity, doc: covered[0]?.doc ?? -1, type: 'false positive', text: covered.map((entry) => entry.word).join(' ') });
    }
  }
  texts.forEach((labelled, doc) =>
    labelled.spans.forEach((span, spanIndex) => {
      const tally = tallies.get(span.kind);
      if (!tally) return;
      tally.gold += 1;
      if (hit.has(`${doc}:${spanIndex}`)) tally.found += 1;
      else disagreements.push({ kind: span.kind, doc, type: 'missed', text: labelled.text.slice(span.start, span.end) });
    }),
  );
  return { tallies, msPerPage, disagreements };
}

export function f2Of(tally: KindTally): { precision: number; recall: number; f2: number } {
  const precision = tally.predicted === 0 ? (tally.gold === 0 ? 1 : 0) : tally.correct / tally.predicted;
  const recall = tally.gold === 0 ? 1 : tally.found / tally.gold;
  return { precision, recall, f2: precision + recall === 0 ? 0 : (5 * precision * recall) / (4 * precision + recall) };
}
