import fs from 'node:fs';
import path from 'node:path';
import { nerTokens } from '../worker/detection/ner/features.js';

// Readers of the openly licensed NER corpora in ../shared/corpora/ner-train (see its SOURCES.md), mapped to
// one BIO tag set over PER, LOC and ORG, and the fixed split between what the model is trained on and
// what the benchmark measures it on. Nothing here reads ../shared/corpora/realdata.

export const NER_DIR = process.env.OBSCURA_NER_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpora', 'ner-train');

export interface Sentence {
  source: string;
  words: string[];
  tags: string[];
}

type Kind = 'PER' | 'LOC' | 'ORG' | null;

const PERSON = new Set(['per', 'person', 'politician', 'writer', 'scientist', 'researcher', 'musicalartist']);
const PLACE = new Set(['loc', 'location', 'country']);
const ORGANISATION = new Set(['org', 'organisation', 'organization', 'corporation', 'group', 'politicalparty', 'university', 'band']);

function kindOf(label: string): Kind {
  const lower = label.toLowerCase();
  if (PERSON.has(lower)) return 'PER';
  if (PLACE.has(lower)) return 'LOC';
  if (ORGANISATION.has(lower)) return 'ORG';
  return null;
}

/** Raw labels (B-x / I-x / O, IOB1 or IO too) to BIO over our kinds. */
function normalise(raw: string[]): string[] {
  const out: string[] = [];
  let previous = 'O';
  for (const label of raw) {
    const match = /^([BI])-(.+)$/.exec(label);
    const kind = match ? kindOf(match[2] as string) : null;
    if (!match || !kind) {
      out.push('O');
      previous = 'O';
      continue;
    }
    const begins = match[1] === 'B' || previous === 'O' || previous.slice(2) !== kind;
    const tag = `${begins ? 'B' : 'I'}-${kind}`;
    out.push(tag);
    previous = tag;
  }
  return out;
}

/** Blank-line separated CoNLL blocks; `columns` picks the token and tag columns. */
function readConll(file: string, source: string, token: (parts: string[]) => [string, string] | null): Sentence[] {
  const text = fs.readFileSync(path.join(NER_DIR, file), 'utf8').replace(/^\uFEFF/, '');
  const sentences: Sentence[] = [];
  let words: string[] = [];
  let raw: string[] = [];
  const flush = () => {
    if (words.length > 0) sentences.push({ source, words, tags: normalise(raw) });
    words = [];
    raw = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('-DOCSTART-')) {
      flush();
      continue;
    }
    if (line.startsWith('# ')) continue;
    const pair = token(line.split(/\t| /));
    if (!pair) continue;
    words.push(pair[0].replace(/\uFEFF/g, ''));
    raw.push(pair[1]);
  }
  flush();
  return sentences;
}

const lastColumn = (parts: string[]): [string, string] | null => (parts.length >= 2 ? [parts[0] as string, parts.at(-1) as string] : null);
const unerColumns = (parts: string[]): [string, string] | null => (parts.length >= 3 ? [parts[1] as string, parts[2] as string] : null);

/** SEC filings: "Borrower"/"Lender" spans are party roles, not names (SOURCES.md). */
function secFilings(file: string, source: string): Sentence[] {
  return readConll(file, source, lastColumn).map((sentence) => {
    const tags = [...sentence.tags];
    for (let index = 0; index < tags.length; index += 1) {
      if (!(tags[index] as string).endsWith('PER')) continue;
      let end = index + 1;
      while (end < tags.length && tags[end] === 'I-PER') end += 1;
      if (sentence.words.slice(index, end).every((word) => /^(?:borrower|lender)s?$/i.test(word))) for (let at = index; at < end; at += 1) tags[at] = 'O';
      index = end - 1;
    }
    return { ...sentence, tags };
  });
}

interface DocredDocument {
  sents: string[][];
  vertexSet: { type: string; pos: [number, number]; sent_id: number }[][];
}

function reDocred(file: string, source: string): Sentence[] {
  const documents = JSON.parse(fs.readFileSync(path.join(NER_DIR, file), 'utf8')) as DocredDocument[];
  const sentences: Sentence[] = [];
  for (const document of documents) {
    const tags = document.sents.map((words) => words.map(() => 'O'));
    for (const mention of document.vertexSet.flat()) {
      const kind = kindOf(mention.type);
      const row = tags[mention.sent_id];
      if (!kind || !row) continue;
      // Demonyms ("German") are LOC in DocRED; one lower-case-ending adjective is no place for us.
      const [from, to] = mention.pos;
      for (let at = from; at < to; at += 1) row[at] = `${at === from ? 'B' : 'I'}-${kind}`;
    }
    document.sents.forEach((words, index) => sentences.push({ source, words, tags: tags[index] as string[] }));
  }
  return sentences;
}

/** probablepeople name strings as short sequences: persons PER, companies ORG. */
function probablePeople(file: string, source: string, kind: 'PER' | 'ORG'): Sentence[] {
  const xml = fs.readFileSync(path.join(NER_DIR, file), 'utf8');
  const sentences: Sentence[] = [];
  for (const entry of xml.matchAll(/<Name>([\s\S]*?)<\/Name>/g)) {
    const words: string[] = [];
    const tags: string[] = [];
    for (const part of (entry[1] as string).matchAll(/<(\w+)>([^<]*)<\/\1>/g)) {
      const label = part[1] as string;
      const inside = kind === 'ORG' || !/^(?:And|PrefixMarital|PrefixOther|SuffixOther|CareOf|AKA)$/.test(label);
      for (const word of (part[2] as string).split(/\s+/).filter(Boolean)) {
        words.push(word.replace(/&amp;/g, '&').replace(/&apos;/g, "'"));
        tags.push(inside ? `${tags.length === 0 || !tags.at(-1)?.endsWith(kind) ? 'B' : 'I'}-${kind}` : 'O');
      }
    }
    if (words.length > 0) sentences.push({ source, words, tags });
  }
  return sentences;
}

/**
 * Social-media handles and hashtags ("@ matt_levinson", "#RUOK") are tagged as persons in the tweet corpora;
 * they are not names in records, so they become O (in training and in the held-out gold alike).
 */
export function withoutHandles(sentence: Sentence): Sentence {
  const tags = sentence.words.map((word, index) => {
    const previous = sentence.words[index - 1] ?? '';
    const handle = /^[@#]/.test(word) || previous === '@' || previous === '#';
    return handle ? 'O' : (sentence.tags[index] ?? 'O');
  });
  const fixed = tags.map((tag, index) => (tag.startsWith('I-') && tags[index - 1]?.slice(2) !== tag.slice(2) ? `B-${tag.slice(2)}` : tag));
  return { ...sentence, tags: fixed };
}

/** Re-tokenised the way the worker tokenises, each piece keeping its word's tag (B only on the first). */
export function retokenise(sentence: Sentence): Sentence {
  const words: string[] = [];
  const tags: string[] = [];
  sentence.words.forEach((word, index) => {
    const tag = sentence.tags[index] ?? 'O';
    nerTokens(word).forEach((piece, at) => {
      words.push(piece.text);
      tags.push(at > 0 && tag.startsWith('B-') ? `I-${tag.slice(2)}` : tag);
    });
  });
  return { source: sentence.source, words, tags };
}

/** What the model is trained on. */
export function trainingSentences(): Sentence[] {
  const crossner = ['politics', 'literature', 'music', 'science', 'ai'].flatMap((domain) => ['train', 'dev'].flatMap((split) => readConll(`crossner/${domain}/${split}.txt`, `crossner-${domain}`, lastColumn)));
  const wikigold = readConll('wikigold/wikigold.conll.txt', 'wikigold', lastColumn);
  return [
    ...wikigold.slice(0, Math.floor(wikigold.length * 0.75)),
    ...readConll('wnut17/wnut17train.conll', 'wnut17', lastColumn),
    ...readConll('wnut17/emerging.dev.conll', 'wnut17', lastColumn),
    ...['a', 'b', 'e', 'g', 'h'].flatMap((section) => readConll(`btc/${section}.conll`, 'btc', lastColumn)),
    ...readConll('uner-en-ewt/en_ewt-ud-dev.iob2', 'uner-ewt', unerColumns),
    ...crossner,
    ...secFilings('sec-filings/FIN5.txt', 'sec'),
    ...reDocred('re-docred/dev_revised.json', 're-docred'),
    ...probablePeople('probablepeople/person_labeled.xml', 'probablepeople', 'PER'),
    ...probablePeople('probablepeople/company_labeled.xml', 'probablepeople', 'ORG'),
  ]
    .map(withoutHandles)
    .map(retokenise);
}

/** Held out: never trained on, only measured (bench/detection.ts), by source. */
export function heldOutSentences(): Sentence[] {
  const wikigold = readConll('wikigold/wikigold.conll.txt', 'wikigold', lastColumn);
  return [
    ...readConll('uner-en-ewt/en_ewt-ud-test.iob2', 'uner-ewt-test', unerColumns),
    ...readConll('uner-en-pud/en_pud-ud-test.iob2', 'uner-pud', unerColumns),
    ...wikigold.slice(Math.floor(wikigold.length * 0.75)).map((sentence) => ({ ...sentence, source: 'wikigold-last-quarter' })),
    ...['politics', 'literature', 'music', 'science', 'ai'].flatMap((domain) => readConll(`crossner/${domain}/test.txt`, 'crossner-test', lastColumn)),
    ...secFilings('sec-filings/FIN3.txt', 'sec-fin3'),
    ...reDocred('re-docred/test_revised.json', 're-docred-test'),
    ...readConll('wnut17/emerging.test.annotated', 'wnut17-test', lastColumn),
    ...readConll('btc/f.conll', 'btc-f', lastColumn),
  ].map(withoutHandles);
}

/** Labelled US address strings: training part (lexicon checks only) and the held-out test part. */
export function addressStrings(split: 'training' | 'measure_performance'): { text: string; isAddress: boolean }[] {
  const dir = path.join(NER_DIR, 'usaddress', split);
  const out: { text: string; isAddress: boolean }[] = [];
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.xml'))) {
    const xml = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const entry of xml.matchAll(/<AddressString>([\s\S]*?)<\/AddressString>/g)) {
      const inner = entry[1] as string;
      const text = inner.replace(/<Recipient>[^<]*<\/Recipient>\s*/g, '').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&apos;/g, "'").replace(/&quot;/g, '"').trim();
      out.push({ text, isAddress: !/<NotAddress>/.test(inner) && /<(?:AddressNumber|USPSBoxID)>/.test(inner) });
    }
  }
  return out;
}
