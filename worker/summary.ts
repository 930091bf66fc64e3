import type { SummaryTask } from '../main/common/worker-messages.js';
import type { ExtractiveSummary } from '../main/common/schemas/summary.js';

// Extractive summary: split the document into sentences, weight words by TF-IDF over the sentences, rank
// sentences by centrality (TextRank on the similarity graph; similarity to the centroid for long
// documents), add a little for coming early, and keep the best few in their original order.

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how
i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own
same she should so some such than that the their theirs them themselves then there these they this those through to too under until
up very was we were what when where which while who whom why will with would you your yours yourself yourselves may might must shall
per via upon within without whether etc mr mrs ms dr page`.split(/\s+/),
);

const ABBREVIATIONS = new Set(
  'mr mrs ms dr prof st no nos vs etc inc ltd co corp jr sr sgt lt capt det ofc gen col rev hon dept est approx fig jan feb mar apr jun jul aug sep sept oct nov dec u.s e.g i.e a.m p.m'.split(' '),
);

interface Sentence {
  text: string;
  page: number;
  index: number;
  terms: Map<string, number>;
}

/** Lines that repeat on many pages (running headers, footers) and bare page numbers. */
function boilerplate(pages: readonly SummaryTask['pages'][number][]): Set<string> {
  const counts = new Map<string, number>();
  for (const page of pages) {
    for (const line of new Set(page.text.split('\n').map((value) => value.trim()).filter(Boolean))) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  const repeated = new Set<string>();
  if (pages.length >= 3) for (const [line, count] of counts) if (count >= 3 && count >= pages.length * 0.3) repeated.add(line);
  return repeated;
}

/**
 * Paragraph-like segments with their page. Wrapped lines are joined; a short line without end punctuation
 * (a heading, a form label) stands alone, so it does not glue itself to the next sentence.
 */
function segments(pages: readonly SummaryTask['pages'][number][]): { text: string; page: number }[] {
  if (pages.every((page) => page.unit === 'seconds')) {
    const text = pages.map((page) => page.text.replace(/\s+/g, ' ').trim()).join(' ');
    return [{ text, page: pages[0]?.page_number ?? 1 }];
  }
  const skip = boilerplate(pages);
  const lines: { text: string; page: number }[] = [];
  for (const page of pages) {
    for (const raw of page.text.split('\n')) {
      const text = raw.replace(/\s+/g, ' ').trim();
      if (!text || skip.has(raw.trim()) || /^(?:page\s+)?\d+(?:\s+of\s+\d+)?$/i.test(text)) {
        lines.push({ text: '', page: page.page_number });
        continue;
      }
      lines.push({ text, page: page.page_number });
    }
  }
  const lengths = lines.map((line) => line.text.length).filter((length) => length > 0).sort((a, b) => a - b);
  const median = lengths[Math.floor(lengths.length / 2)] ?? 0;
  const result: { text: string; page: number }[] = [];
  let current: { text: string; page: number } | null = null;
  for (const line of lines) {
    if (!line.text) {
      if (current) result.push(current);
      current = null;
      continue;
    }
    if (current) {
      const ended = /[.!?:;]["')\]]?$/.test(current.text);
      const continues = /^[a-z(,]/.test(line.text) || (!ended && current.text.length >= median * 0.6);
      if (!ended && continues) {
        current.text = current.text.endsWith('-') ? current.text.slice(0, -1) + line.text : `${current.text} ${line.text}`;
        continue;
      }
      if (ended && current.text.length >= median * 0.6 && /^[A-Z0-9"'(]/.test(line.text)) {
        current.text = `${current.text} ${line.text}`;
        continue;
      }
      result.push(current);
    }
    current = { text: line.text, page: line.page };
  }
  if (current) result.push(current);
  return result;
}

/** Splits at . ! ? followed by space and a capital or digit, except after abbreviations and initials. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const boundary = /[.!?]["')\]]*(\s+)(?=["'(\[]?[A-Z0-9])/g;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length - (match[1]?.length ?? 0);
    const before = text.slice(start, match.index + 1);
    const lastWord = /([A-Za-z.]+)\.$/.exec(before)?.[1]?.toLowerCase() ?? '';
    if (ABBREVIATIONS.has(lastWord) || /^[a-z]$/.test(lastWord) || /^(?:[a-z]\.)+[a-z]$/.test(lastWord)) continue;
    sentences.push(text.slice(start, end).trim());
    start = match.index + match[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences.filter(Boolean);
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function termsOf(text: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(/[a-z][a-z'-]{1,}/g)) {
    const word = match[0].replace(/'s$/, '');
    if (STOPWORDS.has(word) || word.length < 3) continue;
    const term = stem(word);
    terms.set(term, (terms.get(term) ?? 0) + 1);
  }
  return terms;
}

/** A sentence worth considering: prose of a sensible length, not a table row or a list of numbers. */
function isProse(text: string): boolean {
  const words = text.split(/\s+/).length;
  if (words < 6 || words > 80) return false;
  const letters = (text.match(/[A-Za-z]/g) ?? []).length;
  return letters / text.length > 0.6;
}

type Vector = Map<string, number>;

function weigh(sentences: readonly Sentence[]): Vector[] {
  const documentFrequency = new Map<string, number>();
  for (const sentence of sentences) for (const term of sentence.terms.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const count = sentences.length;
  return sentences.map((sentence) => {
    const vector: Vector = new Map();
    for (const [term, frequency] of sentence.terms) vector.set(term, (1 + Math.log(frequency)) * Math.log(1 + count / (documentFrequency.get(term) ?? 1)));
    return vector;
  });
}

function norm(vector: Vector): number {
  let sum = 0;
  for (const value of vector.values()) sum += value * value;
  return Math.sqrt(sum);
}

function cosine(a: Vector, b: Vector, normA: number, normB: number): number {
  if (normA === 0 || normB === 0) return 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, value] of small) dot += value * (large.get(term) ?? 0);
  return dot / (normA * normB);
}

/** TextRank: PageRank over the sentence similarity graph; for long documents, similarity to the centroid. */
function centrality(vectors: readonly Vector[], norms: readonly number[]): number[] {
  const count = vectors.length;
  if (count > 400) {
    const centroid: Vector = new Map();
    for (const vector of vectors) for (const [term, value] of vector) centroid.set(term, (centroid.get(term) ?? 0) + value);
    const centroidNorm = norm(centroid);
    return vectors.map((vector, index) => cosine(vector, centroid, norms[index] ?? 0, centroidNorm));
  }
  const weights = vectors.map((a, i) => vectors.map((b, j) => (i === j ? 0 : cosine(a, b, norms[i] ?? 0, norms[j] ?? 0))));
  const outgoing = weights.map((row) => row.reduce((sum, value) => sum + value, 0));
  let rank = new Array<number>(count).fill(1 / Math.max(1, count));
  for (let iteration = 0; iteration < 30; iteration += 1) {
    rank = rank.map((_, i) => {
      let sum = 0;
      for (let j = 0; j < count; j += 1) {
        const out = outgoing[j] ?? 0;
        if (out > 0) sum += ((weights[j]?.[i] ?? 0) / out) * (rank[j] ?? 0);
      }
      return 0.15 / count + 0.85 * sum;
    });
  }
  return rank;
}

export function extractiveSummary(pages: SummaryTask['pages'], wanted: number): ExtractiveSummary {
  const sentences: Sentence[] = [];
  let characters = 0;
  for (const segment of segments(pages)) {
    characters += segment.text.length;
    for (const text of splitSentences(segment.text)) {
      if (!isProse(text)) continue;
      const terms = termsOf(text);
      if (terms.size < 3) continue;
      sentences.push({ text, page: segment.page, index: sentences.length, terms });
    }
  }
  if (sentences.length === 0) return { summary: '', sentences: [], candidate_sentences: 0, characters };
  const vectors = weigh(sentences);
  const norms = vectors.map(norm);
  const central = centrality(vectors, norms);
  const maxCentral = Math.max(...central) || 1;
  const scores = sentences.map((sentence, index) => {
    const position = 1 / (1 + sentence.index / 4);
    return 0.8 * ((central[index] ?? 0) / maxCentral) + 0.2 * position;
  });
  const order = sentences.map((_, index) => index).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const chosen: number[] = [];
  for (const index of order) {
    if (chosen.length >= wanted) break;
    // Near-duplicates (the same sentence on a cover letter and a form) add nothing.
    if (chosen.some((other) => cosine(vectors[index] as Vector, vectors[other] as Vector, norms[index] ?? 0, norms[other] ?? 0) > 0.7)) continue;
    chosen.push(index);
  }
  chosen.sort((a, b) => a - b);
  const picked = chosen.map((index) => ({ text: (sentences[index] as Sentence).text, page: (sentences[index] as Sentence).page, score: Math.round((scores[index] ?? 0) * 1000) / 1000 }));
  return { summary: picked.map((sentence) => sentence.text).join(' '), sentences: picked, candidate_sentences: sentences.length, characters };
}

export function summarize(task: SummaryTask): ExtractiveSummary {
  return extractiveSummary(task.pages, task.sentences);
}
