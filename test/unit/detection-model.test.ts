import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nerTokens, shape, TAGS } from '../../worker/detection/ner/features.js';
import { modelFromFile, modelPath, recognise, shippedModel } from '../../worker/detection/ner/tagger.js';
import { trainModel, type lexicons } from '../../scripts/train-ner.js';
import type { Sentence } from '../../scripts/ner-corpus.js';

// The name tagger: its tokens and features, the training procedure (deterministic, learns what it is
// shown) on a tiny corpus written here, and the shipped model file (present, small, named).

const empty = (): ReturnType<typeof lexicons> => ({ given: new Set(), surname: new Set(), title: new Set(['mr']), org: new Set(['inc']), cue: new Set(['said']), common: new Set(['the', 'said']) });

function sentence(text: string): Sentence {
  // "[Name]" marks a person span.
  const words: string[] = [];
  const tags: string[] = [];
  for (const part of text.match(/\[[^\]]+\]|\S+/g) ?? []) {
    if (part.startsWith('[')) {
      part.slice(1, -1).split(' ').forEach((word, index) => {
        words.push(word);
        tags.push(index === 0 ? 'B-PER' : 'I-PER');
      });
    } else {
      words.push(part);
      tags.push('O');
    }
  }
  return { source: 'test', words, tags };
}

const TINY = [
  'Mr. [Halvorsen] said the plan was late .',
  'The clerk [Ines Barragan] said no .',
  '[Tomasz Wielki] said the file was sent .',
  'The report was filed by [Odile Marchetti] .',
  'Acme Inc. said the plan was late .',
  'The plan was late , the clerk said .',
].map(sentence);

describe('name tagger', () => {
  it('tokenises words with inner apostrophes and hyphens, punctuation apart, and marks line breaks', () => {
    expect(nerTokens("O'Neil-Smith, Jr.\nsaid").map((token) => [token.text, token.newline])).toEqual([
      ["O'Neil-Smith", false],
      [',', false],
      ['Jr', false],
      ['.', false],
      ['said', true],
    ]);
    expect([shape('McDonald'), shape('555-0143'), shape('J')]).toEqual(['XxXx', 'd-d', 'X']);
  });

  it('training is deterministic and learns the names it is shown', () => {
    const options = { epochs: 6, minCount: 1, seed: 7 };
    const first = trainModel(TINY, empty(), options);
    const second = trainModel(TINY, empty(), options);
    expect(JSON.stringify(first)).toBe(JSON.stringify(second));
    expect(first.tags).toEqual([...TAGS]);
    const model = modelFromFile(first);
    const text = 'The clerk Ines Barragan said the plan was late.';
    const spans = recognise(text, model).spans.filter((span) => span.kind === 'PER');
    expect(spans.map((span) => text.slice(span.start, span.end))).toEqual(['Ines Barragan']);
    // A different seed shuffles differently: the weights are not copied from anywhere.
    expect(JSON.stringify(trainModel(TINY, empty(), { ...options, seed: 8 }).weights)).not.toBe(JSON.stringify(first.weights));
  });

  it('the shipped model is under resources/ner, a few MB at most, names its training, and finds names', () => {
    const file = modelPath();
    expect(file).toMatch(/resources[\\/]ner[\\/]ner-model\.json\.gz$/);
    expect(fs.statSync(file).size).toBeLessThan(4_000_000);
    const model = shippedModel();
    expect(model.name).toMatch(/^averaged perceptron, \d+ epochs, \d+ training tokens, sources: /);
    expect(model.name).not.toMatch(/realdata|presidio/i);
    expect(model.weights.size).toBeGreaterThan(10_000);
    const text = 'On Tuesday the witness, Margarethe Oyelaran-Fisk, told Det. Ruiz what happened at the Denver office of Halcyon Corp.';
    const people = recognise(text, model).spans.filter((span) => span.kind === 'PER').map((span) => text.slice(span.start, span.end));
    expect(people).toEqual(['Margarethe Oyelaran-Fisk', 'Ruiz']);
  });
});
