import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { historyFeatures, nerTokens, TAGS, tokenFeatures, type Lexicons, type NerToken } from './features.js';

// The averaged-perceptron tagger: greedy left-to-right decoding over the features in features.ts, with the
// weights written by `npm run train` to resources/ner/ner-model.json.gz.

export interface NerModel {
  version: number;
  /** How the model was made (sources, iterations, date): shown in job results and docs. */
  name: string;
  tags: readonly string[];
  lexicons: Lexicons;
  /** Weights per feature, one per tag (scaled integers in the file). */
  weights: Map<string, Float32Array>;
}

export interface ModelFile {
  version: number;
  name: string;
  tags: string[];
  scale: number;
  lexicons: Record<keyof Lexicons, string[]>;
  weights: Record<string, number[]>;
}

export function modelFromFile(file: ModelFile): NerModel {
  const weights = new Map<string, Float32Array>();
  for (const [feature, values] of Object.entries(file.weights)) weights.set(feature, Float32Array.from(values, (value) => value / file.scale));
  const set = (key: keyof Lexicons) => new Set(file.lexicons[key]);
  return { version: file.version, name: file.name, tags: file.tags, lexicons: { given: set('given'), surname: set('surname'), title: set('title'), org: set('org'), cue: set('cue'), common: set('common') }, weights };
}

/** resources/ner/ found upwards from this module: in sources, in dist/ and in a packaged app (unpacked). */
export function modelPath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'resources', 'ner', 'ner-model.json.gz');
    if (fs.existsSync(candidate)) return candidate.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('the name model resources/ner/ner-model.json.gz is missing; run `npm run train`');
    dir = parent;
  }
}

let loaded: NerModel | null = null;

/** The shipped model, read once per thread. */
export function shippedModel(): NerModel {
  loaded ??= modelFromFile(JSON.parse(gunzipSync(fs.readFileSync(modelPath())).toString('utf8')) as ModelFile);
  return loaded;
}

export function scoreFeatures(model: NerModel, features: readonly string[], into: Float64Array, reset = true): void {
  if (reset) into.fill(0);
  for (const feature of features) {
    const weights = model.weights.get(feature);
    if (!weights) continue;
    for (let tag = 0; tag < into.length; tag += 1) into[tag] = (into[tag] as number) + (weights[tag] as number);
  }
}

export interface TaggedToken {
  tag: string;
  /** Probability of the chosen tag, softmax of the scores. */
  confidence: number;
  /** Summed probability of the person tags. */
  person: number;
}

/**
 * A token is taken as part of a person's name when the person tags together hold this share of the
 * probability, even if another tag is likelier alone: F2 weighs recall four times precision, and the
 * F-beta-optimal cut for a calibrated probability is 1 / (1 + beta^2) = 0.2.
 */
export const PERSON_THRESHOLD = 0.2;

/** Tags each token; `I-X` after a tag of another kind is read as `B-X`. */
export function tagTokens(model: NerModel, tokens: readonly NerToken[], personThreshold = PERSON_THRESHOLD): TaggedToken[] {
  const base = tokenFeatures(tokens, model.lexicons);
  const scores = new Float64Array(model.tags.length);
  const result: TaggedToken[] = [];
  let previous = '<s>';
  let previous2 = '<s>';
  base.forEach((features) => {
    scoreFeatures(model, features, scores);
    scoreFeatures(model, historyFeatures(previous, previous2, features), scores, false);
    let best = 0;
    for (let tag = 1; tag < scores.length; tag += 1) if ((scores[tag] as number) > (scores[best] as number)) best = tag;
    const top = scores[best] as number;
    let total = 0;
    let person = 0;
    const probabilities = Array.from(scores, (score) => Math.exp(score - top));
    probabilities.forEach((value, tag) => {
      total += value;
      if ((model.tags[tag] ?? '').endsWith('PER')) person += value;
    });
    let tag = model.tags[best] ?? 'O';
    if (!tag.endsWith('PER') && person / total >= personThreshold) tag = previous.endsWith('PER') && /^[\p{Ll}\p{Lu}]/u.test(tokens[result.length]?.text ?? '') ? 'I-PER' : 'B-PER';
    result.push({ tag, confidence: 1 / total, person: person / total });
    previous2 = previous;
    previous = tag;
  });
  return result;
}

export interface NerSpan {
  kind: 'PER' | 'LOC' | 'ORG';
  /** Token indexes [from, to). */
  from: number;
  to: number;
  start: number;
  end: number;
  /** Mean probability of the kind over the span's tokens. */
  confidence: number;
}

export function spansOf(tokens: readonly NerToken[], tagged: readonly TaggedToken[]): NerSpan[] {
  const spans: NerSpan[] = [];
  let open: NerSpan | null = null;
  let sum = 0;
  const close = () => {
    if (open) spans.push({ ...open, confidence: sum / (open.to - open.from) });
    open = null;
  };
  tagged.forEach((token, index) => {
    const [position, kind] = token.tag.split('-') as [string, NerSpan['kind'] | undefined];
    const value = kind === 'PER' ? token.person : token.confidence;
    if (!kind) return close();
    const word = tokens[index] as NerToken;
    if (open && position === 'I' && open.kind === kind) {
      open.to = index + 1;
      open.end = word.end;
      sum += value;
      return;
    }
    close();
    open = { kind, from: index, to: index + 1, start: word.start, end: word.end, confidence: 0 };
    sum = value;
  });
  close();
  return spans;
}

/** Person, place and organisation spans of a text, offsets in the text. */
export function recognise(text: string, model: NerModel = shippedModel(), personThreshold = PERSON_THRESHOLD): { tokens: NerToken[]; spans: NerSpan[] } {
  const tokens = nerTokens(text);
  return { tokens, spans: spansOf(tokens, tagTokens(model, tokens, personThreshold)) };
}
