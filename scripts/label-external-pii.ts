// Turns the hand-written labels of bench/labels/external-pii.tsv into character offsets in the external
// documents (bench/labels/external-pii.json), and lists what a labeller should look at again.
//
//   node --import tsx scripts/label-external-pii.ts            write the offsets file
//   node --import tsx scripts/label-external-pii.ts --review    also print every unlabelled candidate
//
// A TSV line is `document id <TAB> kind <TAB> value` ("\n" in a value is a line break): every occurrence of
// the value in that document, standing alone (no letter or digit glued on either side), is one labelled
// instance. The review pass is the labeller's second look (docs/detection-model.md, "Pattern kinds on
// external text"): a deliberately broad highlighter (any '@' token, digit groups of seven or more digits,
// dotted or colon-separated numbers, digits before a capitalised word), not the detector.
import fs from 'node:fs';
import path from 'node:path';
import { loadSourceDocuments, sha256, SOURCES } from '../bench/lib/pii-sources.js';

const LABELS = path.resolve(import.meta.dirname, '..', 'bench', 'labels');
const KINDS = new Set(['ssn', 'email', 'phone', 'payment_card', 'iban', 'routing_number', 'ip_address', 'date_of_birth', 'passport_number', 'drivers_license', 'street_address']);

export interface LabelFile {
  note: string;
  sources: typeof SOURCES;
  documents: { id: string; sha256: string; spans: { start: number; end: number; kind: string; value: string }[] }[];
}

const standsAlone = (text: string, start: number, end: number) => !/[A-Za-z0-9]/.test(text.charAt(start - 1)) && !/[A-Za-z0-9]/.test(text.charAt(end));

const HIGHLIGHT = [
  /\S*@\S*/g,
  /(?<![\w])\+?\(?\d[\d\s().\-]{5,22}\d(?!\w)/g,
  /\b\d{1,4}(?:[.:]\d{1,4}){3,}\b|\b[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}\b/gi,
  /\b\d{1,6}\s+(?:[NSEW]\.?\s+)?[A-Z][a-z]+/g,
  /\b(?:born|birth|dob|ssn|social security|card|iban|account|acct|routing|license|licence|passport|tel|phone|fax)\b/gi,
];

function main() {
  const review = process.argv.includes('--review');
  const documents = loadSourceDocuments();
  const lines = fs.readFileSync(path.join(LABELS, 'external-pii.tsv'), 'utf8').split('\n');
  const labelled = new Map<string, LabelFile['documents'][number]>();
  const problems: string[] = [];
  // Every listed document is part of the set, with or without labels: a '#doc' line names one with none.
  for (const [number, line] of lines.entries()) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [id = '', kind = '', raw = ''] = line.split('\t');
    const document = documents.get(id);
    if (!document) {
      problems.push(`line ${number + 1}: no document ${id} on this machine`);
      continue;
    }
    const entry = labelled.get(id) ?? { id, sha256: sha256(document.text), spans: [] };
    labelled.set(id, entry);
    if (kind === 'none') continue;
    if (!KINDS.has(kind)) {
      problems.push(`line ${number + 1}: unknown kind ${kind}`);
      continue;
    }
    const value = raw.replace(/\\n/g, '\n');
    let found = 0;
    for (let at = document.text.indexOf(value); at >= 0; at = document.text.indexOf(value, at + 1)) {
      if (!standsAlone(document.text, at, at + value.length)) continue;
      if (entry.spans.some((span) => span.start < at + value.length && at < span.end)) continue;
      entry.spans.push({ start: at, end: at + value.length, kind, value });
      found += 1;
    }
    if (found === 0) problems.push(`line ${number + 1}: "${raw}" not found in ${id}`);
  }
  for (const entry of labelled.values()) entry.spans.sort((a, b) => a.start - b.start);
  const file: LabelFile = {
    note: 'Hand labels of pattern kinds in external text (docs/detection-model.md). Offsets into the text that bench/lib/pii-sources.ts reads; the texts themselves are not stored here. Generated from external-pii.tsv by scripts/label-external-pii.ts.',
    sources: SOURCES,
    documents: [...labelled.values()].sort((a, b) => a.id.localeCompare(b.id)),
  };
  fs.writeFileSync(path.join(LABELS, 'external-pii.json'), `${JSON.stringify(file, null, 1)}\n`);
  const counts = new Map<string, number>();
  for (const entry of file.documents) for (const span of entry.spans) counts.set(span.kind, (counts.get(span.kind) ?? 0) + 1);
  console.log(`${file.documents.length} documents, spans by kind: ${[...counts].map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
  for (const problem of problems) console.log(`problem: ${problem}`);
  if (!review) return;
  for (const entry of file.documents) {
    const text = (documents.get(entry.id) as { text: string }).text;
    for (const pattern of HIGHLIGHT) {
      for (const match of text.matchAll(pattern)) {
        const start = match.index;
        const end = start + match[0].length;
        if (entry.spans.some((span) => span.start < end && start < span.end)) continue;
        console.log(`${entry.id}\t${JSON.stringify(text.slice(Math.max(0, start - 30), end + 20))}`);
      }
    }
  }
}

main();
