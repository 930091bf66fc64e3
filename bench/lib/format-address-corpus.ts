import fs from 'node:fs';
import path from 'node:path';
import { ADDRESS_FORMATS, type AddressFormat } from '../../worker/detection/address-format-data.js';
import { NER_DIR, trainingSentences } from '../../scripts/ner-corpus.js';
import { rng, type Rng } from './detection-corpus.js';
import type { LabelledText } from './detection-external.js';
import { COUNTRY_SPECS, GREEK_STREETS, GREEK_TOWNS, MILITARY, type CountrySpec, type Group } from './format-address-templates.js';

// Held-out addresses generated from libaddressinput's per-country formats (worker/detection/address-format-data.ts):
// the street line from format-address-templates.ts, street names from probablepeople surnames (MIT) and
// towns from place names tagged in the NER training splits (CC BY 4.0 / CC BY-SA), laid in carrier
// sentences with and without cues, as blocks across lines or on one line. Nothing from realdata.

const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;

let lists: { streets: string[]; towns: string[] } | null = null;

/** Street-name words (surnames, probablepeople) and towns (LOC spans of the NER training splits). */
function wordLists(): { streets: string[]; towns: string[] } {
  if (lists) return lists;
  const xml = fs.readFileSync(path.join(NER_DIR, 'probablepeople', 'person_labeled.xml'), 'utf8');
  const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  const streets = [...new Set([...xml.matchAll(/<Surname>([A-Za-z]{4,10})<\/Surname>/g)].map((match) => title(match[1] as string)))].sort();
  const towns = new Set<string>();
  for (const sentence of trainingSentences()) {
    let span: string[] = [];
    sentence.tags.forEach((tag, index) => {
      if (tag === 'B-LOC') span = [sentence.words[index] as string];
      else if (tag === 'I-LOC' && span.length > 0) span.push(sentence.words[index] as string);
      else span = [];
      const next = sentence.tags[index + 1];
      if (span.length > 0 && next !== 'I-LOC') {
        // Demonyms are tagged as places in some corpora ("Korean"); towns are not written so.
        if (span.length <= 2 && span.every((word) => /^\p{Lu}\p{Ll}{2,}$/u.test(word) && !/(?:ic|ish|ese|ian|ean)$/.test(word))) towns.add(span.join(' '));
        span = [];
      }
    });
  }
  lists = { streets, towns: [...towns].sort() };
  return lists;
}

function formatOf(spec: CountrySpec): AddressFormat {
  if (spec.key === 'IE') return { key: 'IE', name: 'IRELAND', fmt: '%N%n%O%n%A%n%D%n%C%n%S%n%Z', zip: '[AC-FHKNPRTV-Y]\\d{2} [0-9AC-FHKNPRTV-Y]{4}', zipex: ['A65 F4E2', 'D04 W2K7', 'T12 X8Y3'], states: ['Co. Cork', 'Co. Galway', 'Co. Kerry', 'Co. Mayo', 'Co. Dublin'] };
  const format = ADDRESS_FORMATS.find((entry) => entry.key === spec.key);
  if (!format) throw new Error(`no libaddressinput format for ${spec.key}`);
  return format;
}

/** A postcode of the country's shape: a published example with its digits redrawn, kept only if it still fits the pattern. */
function postcode(r: Rng, format: AddressFormat): string {
  const example = pick(r, format.zipex ?? ['00000']);
  const drawn = example.replace(/\d/g, () => String(int(r, 0, 9)));
  return new RegExp(`^(?:${format.zip})$`).test(drawn) ? drawn : example;
}

function street(r: Rng, spec: CountrySpec, names: string[]): string {
  const template = pick(r, spec.streets);
  return template
    .replace(/\{N\}/g, () => pick(r, names))
    .replace(/\{G\}/g, () => pick(r, GREEK_STREETS))
    .replace(/\{n\}/g, () => String(int(r, 1, r() < 0.7 ? 99 : 2400)))
    .replace(/\{m\}/g, () => String(int(r, 1, 12)));
}

const title = (upper: string) => upper.toLowerCase().replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());

/** The address's lines, by the country's format; the recipient and organisation lines are left out. */
function addressLines(r: Rng, spec: CountrySpec): string[] {
  const { streets, towns } = wordLists();
  if (spec.group === 'military') {
    const template = pick(r, MILITARY);
    return template
      .replace('{N}', pick(r, streets))
      .replace('{m}', String(int(r, 100, 9999)))
      .replace('{n}', String(int(r, 1, 9999)))
      .replace('{z2}', String(int(r, 0, 99)).padStart(2, '0'))
      .replace('{z}', String(int(r, 0, 999)).padStart(3, '0'))
      .split('\n');
  }
  const format = formatOf(spec);
  const fmt = spec.key === 'JP' ? (format.lfmt ?? format.fmt) : format.fmt;
  const greek = (spec.key === 'GR' || spec.key === 'CY') && r() < 0.4;
  const town = greek ? pick(r, GREEK_TOWNS) : pick(r, towns);
  const stateIndex = format.states && spec.key !== 'JP' ? int(r, 0, format.states.length - 1) : -1;
  const state = stateIndex < 0 ? '' : r() < 0.3 && format.stateNames?.[stateIndex] ? (format.stateNames[stateIndex] as string) : (format.states?.[stateIndex] as string);
  const fields: Record<string, string> = { A: street(r, spec, streets), C: town, S: state, Z: postcode(r, format), N: '', O: '', D: '', X: '' };
  const lines = fmt
    .split('%n')
    .map((line) => line.replace(/%([A-Z])/g, (_, field: string) => fields[field] ?? '').replace(/\s+/g, ' ').replace(/^[ ,]+|[ ,]+$/g, ''))
    .filter((line) => line.length > 0);
  if (r() < 0.4) lines.push(spec.names && r() < 0.5 ? pick(r, spec.names) : r() < 0.5 ? format.name : title(format.name));
  return lines;
}

const BLOCK_CARRIERS = ['Please send the signed form to:\n{A}\nThank you.', 'Mailing address\n{A}', 'The records were delivered to\n{A}\nlast March.', '{A}\nRe: your request of 4 May'];
const LINE_CARRIERS = ['She now lives at {A}.', 'Write to {A} for a copy.', 'The office moved to {A} in 2019.', 'Address: {A}', 'The parcel came back from {A} unopened.'];

export interface GeneratedAddress extends LabelledText {
  group: Group;
  country: string;
}

/** `count` addresses per country, each in a carrier text labelled from its first to its last address character. */
export function generateFormatAddresses(seed: number, count: number): GeneratedAddress[] {
  const r = rng(seed);
  const out: GeneratedAddress[] = [];
  const specs: CountrySpec[] = [...COUNTRY_SPECS, { key: 'MIL', group: 'military', streets: [] }];
  for (const spec of specs) {
    for (let index = 0; index < count; index += 1) {
      const lines = addressLines(r, spec);
      const block = r() < 0.6;
      const address = lines.join(block ? '\n' : ', ');
      const carrier = pick(r, block ? BLOCK_CARRIERS : LINE_CARRIERS);
      const start = carrier.indexOf('{A}');
      const text = carrier.replace('{A}', address);
      out.push({ source: `formats-${spec.group}`, group: spec.group, country: spec.key, text, spans: [{ start, end: start + address.length, kind: 'street_address' }] });
    }
  }
  return out;
}

/** Number-and-name look-alikes with no address in them: years, dates, amounts, counts, sections, part numbers. */
export function addressLookAlikes(seed: number, count: number): LabelledText[] {
  const r = rng(seed);
  const { towns, streets } = wordLists();
  const make = () =>
    pick(r, [
      `In ${int(r, 1950, 2024)} ${pick(r, towns)} hosted the games, and ${int(r, 2, 90)} ${pick(r, streets)} delegates came.`,
      `On ${int(r, 1, 28)} May ${int(r, 1990, 2024)} ${pick(r, towns)} council voted ${int(r, 5, 40)} to ${int(r, 1, 9)}.`,
      `The grant of EUR ${int(r, 1000, 99999)} went to ${pick(r, towns)} University, see Section ${int(r, 1, 40)} ${pick(r, streets)} Act.`,
      `Order ${int(r, 10000, 99999)} ${pick(r, towns)} shipped ${int(r, 2, 400)} units on pallet ${int(r, 1, 99)}.`,
      `Table ${int(r, 1, 12)}: ${int(r, 1000, 9999)} ${pick(r, towns)} residents, ${int(r, 10, 99)}% of the ${int(r, 1990, 2020)} census.`,
      `Chapter ${int(r, 1, 30)}, ${int(r, 1900, 2020)} ${pick(r, towns)} Treaty, art. ${int(r, 1, 60)} ${pick(r, streets)} clause.`,
      `Flight ${pick(r, ['LH', 'BA', 'AF'])} ${int(r, 100, 9999)} ${pick(r, towns)} departs at ${int(r, 10, 23)}:${int(r, 10, 59)} from gate ${int(r, 1, 60)}.`,
    ]);
  return Array.from({ length: count }, () => ({ source: 'address-look-alikes', text: make(), spans: [] }));
}
