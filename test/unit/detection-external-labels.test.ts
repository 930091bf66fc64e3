import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABELS_FILE, labelledDocuments, secText } from '../../bench/lib/pii-sources.js';

// The hand labels of the external pattern-kind set (bench/labels): the offsets file says what the TSV the
// labeller wrote says, and on this machine the labelled texts are the ones that were labelled (the Enron
// mailbox ships with the pst-extractor dependency, so it is always there).

const TSV = path.join(path.dirname(LABELS_FILE), 'external-pii.tsv');

interface Entry {
  id: string;
  spans: { start: number; end: number; kind: string; value: string }[];
}

const entries = (JSON.parse(fs.readFileSync(LABELS_FILE, 'utf8')) as { documents: Entry[] }).documents;
const lines = fs
  .readFileSync(TSV, 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => line.split('\t') as [string, string, string]);

describe('external pattern-kind labels', () => {
  it('the offsets file holds exactly the documents and values of the hand-written TSV', () => {
    expect(new Set(entries.map((entry) => entry.id))).toEqual(new Set(lines.map(([id]) => id)));
    const written = new Set(lines.filter(([, kind]) => kind !== 'none').map(([id, kind, value]) => `${id}\t${kind}\t${value.replace(/\\n/g, '\n')}`));
    const stored = new Set(entries.flatMap((entry) => entry.spans.map((span) => `${entry.id}\t${span.kind}\t${span.value}`)));
    expect(stored).toEqual(written);
    for (const entry of entries) {
      const sorted = [...entry.spans].sort((a, b) => a.start - b.start);
      sorted.forEach((span, index) => {
        expect(span.end - span.start).toBe(span.value.length);
        if (index > 0) expect(span.start).toBeGreaterThanOrEqual((sorted[index - 1] as { end: number }).end);
      });
    }
  });

  it('every labelled Enron message is present here with the text that was labelled', () => {
    const { documents, missing, changed } = labelledDocuments();
    const enron = entries.filter((entry) => entry.id.startsWith('enron:'));
    expect(enron.length).toBe(71);
    expect(missing.filter((id) => id.startsWith('enron:'))).toEqual([]);
    expect(changed).toEqual([]);
    const byId = new Map(documents.map((document) => [document.id, document]));
    for (const entry of enron) {
      const document = byId.get(entry.id);
      expect(document).toBeDefined();
      for (const span of entry.spans) expect(document?.text.slice(span.start, span.end)).toBe(span.value);
    }
  });
});

describe('SEC token text back to running text', () => {
  it('joins punctuation, brackets, digit-dash-digit and e-mail tokens, one sentence per line', () => {
    const tokens = [
      ['Fax', ':', '(', '617', ')', '880', '-', '3456'],
      ['Email', ':', 'j', '.', 'doe', '@', 'example', '.', 'com', 'or', '+', '972', '2', '991', '3382', '.'],
      ['a', 'California', '-', 'chartered', 'bank', 'at', '$', '5', ',', 'not', '1992', '-', '1993', '.'],
    ];
    expect(secText(tokens)).toBe('Fax: (617) 880-3456\nEmail: j.doe@example.com or +972 2 991 3382.\na California - chartered bank at $5, not 1992-1993.');
  });
});
