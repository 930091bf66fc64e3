// Tokens and features of the name tagger. The same code serves training (scripts/train-ner.ts) and the
// worker, so a model always sees the features it was trained on.

export interface NerToken {
  text: string;
  start: number;
  end: number;
  /** A line break lies between this token and the previous one. */
  newline: boolean;
}

/** Words (letters/digits joined by inner apostrophes or hyphens) and single punctuation marks. */
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;

export function nerTokens(text: string, offset = 0): NerToken[] {
  const tokens: NerToken[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(TOKEN)) {
    tokens.push({ text: match[0], start: offset + match.index, end: offset + match.index + match[0].length, newline: tokens.length > 0 && text.slice(previousEnd, match.index).includes('\n') });
    previousEnd = match.index + match[0].length;
  }
  return tokens;
}

/** Word shape with runs collapsed: "McDonald" → "XxXx", "555-0143" → "d-d", "J" → "X". */
export function shape(word: string): string {
  let out = '';
  for (const char of word) {
    const kind = /\p{Lu}/u.test(char) ? 'X' : /\p{Ll}/u.test(char) ? 'x' : /\p{N}/u.test(char) ? 'd' : char;
    if (!out.endsWith(kind)) out += kind;
  }
  return out;
}

/** Lexicons shipped inside the model (openly licensed name lists; see docs/detection-model.md). */
export interface Lexicons {
  given: ReadonlySet<string>;
  surname: ReadonlySet<string>;
  title: ReadonlySet<string>;
  org: ReadonlySet<string>;
  cue: ReadonlySet<string>;
  /** Words written in lower case most of the time in the training text ("the", "will", "slowly"). */
  common: ReadonlySet<string>;
}

const SENTENCE_END = new Set(['.', '!', '?', ':', ';', '"', '“', '”', '|', '>', '-', '—', '(', ')']);
const isCap = (word: string) => /^\p{Lu}/u.test(word);
const isWordToken = (word: string) => /[\p{L}\p{N}]/u.test(word);

/** The line around token `index` is a heading-like run of capitalised words (no lower-case word). */
function titleCaseLines(tokens: readonly NerToken[]): boolean[] {
  const result: boolean[] = new Array<boolean>(tokens.length).fill(false);
  let from = 0;
  for (let index = 1; index <= tokens.length; index += 1) {
    if (index < tokens.length && !(tokens[index] as NerToken).newline) continue;
    const words = tokens.slice(from, index).filter((token) => /\p{L}/u.test(token.text));
    const capitals = words.filter((token) => isCap(token.text) || token.text.length <= 3).length;
    const heading = words.length >= 2 && words.length <= 12 && capitals === words.length && !tokens.slice(from, index).some((token) => /[.,;]/.test(token.text));
    for (let at = from; at < index; at += 1) result[at] = heading;
    from = index;
  }
  return result;
}

// The features of a word alone repeat across pages: kept per word (and lexicons), bounded.
const OWN_CACHE = new Map<string, string[]>();
let cacheLexicons: Lexicons | null = null;

function ownFeatures(w: string, s: string, lex: Lexicons): readonly string[] {
  if (cacheLexicons !== lex) {
    OWN_CACHE.clear();
    cacheLexicons = lex;
  }
  const key = `${w}\u0000${s}`;
  let features = OWN_CACHE.get(key);
  if (!features) {
    features = ['b', `w=${w}`, `s=${s}`, `p1=${w.slice(0, 1)}`, `p2=${w.slice(0, 2)}`, `p3=${w.slice(0, 3)}`, `x2=${w.slice(-2)}`, `x3=${w.slice(-3)}`, `x4=${w.slice(-4)}`];
    for (const [name, set] of [['G', lex.given], ['S', lex.surname], ['T', lex.title], ['O', lex.org], ['C', lex.cue], ['W', lex.common]] as const) if (set.has(w)) features.push(`lex=${name}`, `lex=${name} s=${s}`);
    if (OWN_CACHE.size > 50_000) OWN_CACHE.clear();
    OWN_CACHE.set(key, features);
  }
  return features;
}

/** Feature strings of every token, without the previous-tag features (those depend on decoding). */
export function tokenFeatures(tokens: readonly NerToken[], lex: Lexicons): string[][] {
  const lower = tokens.map((token) => token.text.toLowerCase());
  const shapes = tokens.map((token) => shape(token.text));
  const heading = titleCaseLines(tokens);
  const word = (index: number) => (index < 0 ? '<s>' : index >= tokens.length ? '</s>' : (lower[index] as string));
  const shapeAt = (index: number) => (index < 0 ? '<s>' : index >= tokens.length ? '</s>' : (shapes[index] as string));
  return tokens.map((token, index) => {
    const w = lower[index] as string;
    const s = shapes[index] as string;
    const previous = tokens[index - 1];
    const start = !previous || SENTENCE_END.has(previous.text) || (token.newline && !/[,\p{L}]/u.test(previous.text.slice(-1)));
    const features = ownFeatures(w, s, lex).slice();
    features.push(`w-1=${word(index - 1)}`, `w+1=${word(index + 1)}`, `w-2=${word(index - 2)}`, `w+2=${word(index + 2)}`);
    features.push(`s-1=${shapeAt(index - 1)}`, `s+1=${shapeAt(index + 1)}`, `s-1s+1=${shapeAt(index - 1)}|${s}|${shapeAt(index + 1)}`);
    features.push(`w-1w=${word(index - 1)}|${w}`, `ww+1=${w}|${word(index + 1)}`);
    if (start) features.push('start', `start s=${s}`);
    if (token.newline) features.push('nl');
    if (heading[index] && isWordToken(token.text)) features.push('heading');
    if (w.length === 1 && isCap(token.text) && tokens[index + 1]?.text === '.') features.push('initial');
    const before = word(index - 1);
    const after = word(index + 1);
    for (const [name, set] of [['G', lex.given], ['S', lex.surname], ['T', lex.title], ['O', lex.org], ['C', lex.cue]] as const) {
      if (set.has(before)) features.push(`lex-1=${name}`);
      if (set.has(after)) features.push(`lex+1=${name}`);
    }
    if (/^[\p{Lu}\p{N}\W]+$/u.test(token.text) && /\p{Lu}{2}/u.test(token.text)) features.push(`allcaps len=${Math.min(token.text.length, 6)}`);
    return features;
  });
}

/** Tags the tagger predicts (BIO over persons, places and organisations). */
export const TAGS = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC', 'B-ORG', 'I-ORG'] as const;
export type Tag = (typeof TAGS)[number];

/** Features that depend on the tags already given to the tokens before. */
export function historyFeatures(previousTag: string, previous2Tag: string, base: readonly string[]): string[] {
  const w = base[1] ?? '';
  const s = base[2] ?? '';
  return [`t-1=${previousTag}`, `t-2t-1=${previous2Tag}|${previousTag}`, `t-1 ${w}`, `t-1 ${s}`];
}
