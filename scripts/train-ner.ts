// `npm run train`: trains the person/place/organisation tagger the worker ships (averaged perceptron over
// the features in worker/detection/ner/features.ts) on the training part of ../shared/corpora/ner-train
// and writes resources/ner/ner-model.json.gz. Deterministic: same corpora, same seed, same file.
// Environment: NER_EPOCHS (default 8), NER_MIN_COUNT (features seen fewer times are dropped, default 2).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { historyFeatures, TAGS, tokenFeatures, type Lexicons, type NerToken } from '../worker/detection/ner/features.js';
import type { ModelFile } from '../worker/detection/ner/tagger.js';
import { FIRST_NAMES, ORGANISATION_WORDS, ROLE_WORDS, SURNAMES, TITLES } from '../worker/detection/name-lists.js';
import { NER_DIR, trainingSentences, type Sentence } from './ner-corpus.js';

const EPOCHS = Number(process.env.NER_EPOCHS ?? 8);
const MIN_COUNT = Number(process.env.NER_MIN_COUNT ?? 2);
const SCALE = 1000;
const OUT = path.resolve(import.meta.dirname, '..', 'resources', 'ner', 'ner-model.json.gz');

/**
 * Given names and surnames from probablepeople (MIT) plus the project's own lists; cue words written here;
 * common words: those the training text writes in lower case at least half the time (3+ times).
 */
export function lexicons(sentences: readonly Sentence[]): Record<keyof Lexicons, Set<string>> {
  const given = new Set(FIRST_NAMES);
  const surname = new Set(SURNAMES);
  const xml = fs.readFileSync(path.join(NER_DIR, 'probablepeople', 'person_labeled.xml'), 'utf8');
  for (const match of xml.matchAll(/<(GivenName|Surname)>([^<]+)<\/\1>/g)) {
    const word = (match[2] as string).toLowerCase().replace(/[.,]/g, '').trim();
    if (word.length < 2 || /\s/.test(word)) continue;
    (match[1] === 'GivenName' ? given : surname).add(word);
  }
  const cue = new Set([
    ...ROLE_WORDS,
    ...'dear signed sincerely regards from to cc attn attention name names by said told wrote asked contact contacted interviewed spoke met married son daughter wife husband mother father brother sister'.split(' '),
  ]);
  const lower = new Map<string, number>();
  const other = new Map<string, number>();
  for (const sentence of sentences) {
    for (const word of sentence.words) {
      if (!/^\p{L}+$/u.test(word)) continue;
      const key = word.toLowerCase();
      const counts = word === key ? lower : other;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const common = new Set([...lower].filter(([word, count]) => count >= 3 && count >= (other.get(word) ?? 0)).map(([word]) => word));
  return { given, surname, title: new Set(TITLES), org: new Set(ORGANISATION_WORDS), cue, common };
}

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const toTokens = (sentence: Sentence): NerToken[] => sentence.words.map((text, index) => ({ text, start: index, end: index + 1, newline: false }));

export interface TrainOptions {
  epochs: number;
  minCount: number;
  seed: number;
  log?: (message: string) => void;
}

/** Trains on `sentences` (BIO tags over TAGS); the model file the worker reads. Deterministic. */
export function trainModel(sentences: readonly Sentence[], lex: Record<keyof Lexicons, Set<string>>, options: TrainOptions): ModelFile {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const EPOCHS = options.epochs;
  const MIN_COUNT = options.minCount;
  const tagIndex = new Map<string, number>(TAGS.map((tag, index) => [tag, index]));
  const base = sentences.map((sentence) => tokenFeatures(toTokens(sentence), lex));
  const gold = sentences.map((sentence) => sentence.tags.map((tag) => tagIndex.get(tag) ?? 0));
  const tokens = gold.reduce((sum, tags) => sum + tags.length, 0);
  log(`${sentences.length} sentences, ${tokens} tokens`);

  // Features seen at least MIN_COUNT times (history features counted with the gold history).
  const counts = new Map<string, number>();
  const count = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  base.forEach((sentence, s) => {
    sentence.forEach((features, t) => {
      for (const feature of features) count(feature);
      const tags = gold[s] as number[];
      for (const feature of historyFeatures(TAGS[tags[t - 1] ?? -1] ?? '<s>', TAGS[tags[t - 2] ?? -1] ?? '<s>', features)) count(feature);
    });
  });
  const index = new Map<string, number>();
  for (const [feature, seen] of counts) if (seen >= MIN_COUNT) index.set(feature, index.size);
  counts.clear();
  const n = TAGS.length;
  const weights = new Float64Array(index.size * n);
  const totals = new Float64Array(index.size * n);
  const stamps = new Float64Array(index.size * n);
  log(`${index.size} features`);

  let clock = 0;
  const ids = (features: readonly string[]) => features.map((feature) => index.get(feature) ?? -1).filter((id) => id >= 0);
  const update = (features: readonly number[], tag: number, delta: number) => {
    for (const id of features) {
      const at = id * n + tag;
      totals[at] = (totals[at] as number) + (clock - (stamps[at] as number)) * (weights[at] as number);
      stamps[at] = clock;
      weights[at] = (weights[at] as number) + delta;
    }
  };
  const random = rng(options.seed);
  const order = sentences.map((_, at) => at);
  const scores = new Float64Array(n);
  for (let epoch = 1; epoch <= EPOCHS; epoch += 1) {
    for (let at = order.length - 1; at > 0; at -= 1) {
      const other = Math.floor(random() * (at + 1));
      [order[at], order[other]] = [order[other] as number, order[at] as number];
    }
    let correct = 0;
    for (const s of order) {
      const sentence = base[s] as string[][];
      const tags = gold[s] as number[];
      let previous = '<s>';
      let previous2 = '<s>';
      sentence.forEach((features, t) => {
        clock += 1;
        const active = ids([...features, ...historyFeatures(previous, previous2, features)]);
        scores.fill(0);
        for (const id of active) for (let tag = 0; tag < n; tag += 1) scores[tag] = (scores[tag] as number) + (weights[id * n + tag] as number);
        let guess = 0;
        for (let tag = 1; tag < n; tag += 1) if ((scores[tag] as number) > (scores[guess] as number)) guess = tag;
        const truth = tags[t] as number;
        if (guess === truth) correct += 1;
        else {
          update(active, truth, 1);
          update(active, guess, -1);
        }
        previous2 = previous;
        previous = TAGS[guess] as string;
      });
    }
    log(`epoch ${epoch}: ${((correct / tokens) * 100).toFixed(2)}% tokens right (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }

  // Averaged weights, rounded; features whose weights all round to zero are left out.
  const file: ModelFile = {
    version: 1,
    name: `averaged perceptron, ${EPOCHS} epochs, ${tokens} training tokens, sources: ${[...new Set(sentences.map((sentence) => sentence.source))].join(', ')}`,
    tags: [...TAGS],
    scale: SCALE,
    lexicons: { given: [...lex.given].sort(), surname: [...lex.surname].sort(), title: [...lex.title].sort(), org: [...lex.org].sort(), cue: [...lex.cue].sort(), common: [...lex.common].sort() },
    weights: {},
  };
  for (const [feature, id] of index) {
    const values: number[] = [];
    let any = false;
    for (let tag = 0; tag < n; tag += 1) {
      const at = id * n + tag;
      const total = (totals[at] as number) + (clock - (stamps[at] as number)) * (weights[at] as number);
      const value = Math.round(((total / clock) * SCALE) / 10) * 10;
      if (value !== 0) any = true;
      values.push(value);
    }
    if (any) file.weights[feature] = values;
  }
  return file;
}

function main(): void {
  const started = Date.now();
  const sentences = trainingSentences();
  const file = trainModel(sentences, lexicons(sentences), { epochs: EPOCHS, minCount: MIN_COUNT, seed: 20, log: (message) => console.error(message) });
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  const bytes = gzipSync(JSON.stringify(file), { level: 9 });
  fs.writeFileSync(OUT, bytes);
  console.error(`wrote ${OUT} from ${NER_DIR}: ${Object.keys(file.weights).length} features, ${(bytes.length / 1e6).toFixed(2)} MB, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
