import { clamp, cuesNear, type Candidate } from './candidate.js';

// Comma-separated address chains as written in India (house or flat number, road, area, town, six-digit
// PIN: "Flat No. 12, Shanti Apartments, Andheri West, Mumbai - 400058") and in romanised Japanese and
// Korean (block numbers and wards: "1-1 Chiyoda, Chiyoda-ku, Tokyo 100-8111", "〒150-0002",
// "17 Sejong-daero, Jongno-gu, Seoul 03172"). Each part is a number, a house-number label or one to four
// capitalised words; what closes the chain decides whether it is an address.

const WORD = "(?:\\p{Lu}[\\p{L}'’.]*(?:-\\p{L}[\\p{L}'’.]*)*|\\d{1,3}(?:st|nd|rd|th))";
const LABEL = '(?:(?:Flat|House|H\\.|Plot|Door|Shop|Office|Block|Room|Khasra|Survey) ?No\\.?|No\\.|#)';
const PART = `(?:〒 ?\\d{3}-\\d{4}|${LABEL} ?\\d{1,5}(?:[-/]\\d{1,5}){0,3}[A-Z]?|\\d{1,5}(?:[-/]\\d{1,5}){0,3}[A-Z]?(?: ${WORD}){0,3}|${WORD}(?: ${WORD}){0,3}(?: \\d{1,4}(?:-\\d{1,4}){0,3})?)`;
const SEP = '(?:, ?(?:\\n[ \\t]*)?|,?\\n[ \\t]*)';
// The chain, then what may close it: a PIN (after the town, a state, or a dash), a Japanese or Korean postcode.
const CHAIN = new RegExp(
  `(?<![\\p{L}\\p{N}/.-])(?:〒 ?\\d{3}-\\d{4},? )?${PART}(?:${SEP}${PART}){1,7}(?:(?: ?[-–] ?| )([1-8]\\d{2} ?\\d{3})|( \\d{3}-\\d{4}| \\d{5}))?(?![\\p{L}\\p{N}-])`,
  'gu',
);
// Words that name an Indian road or area part.
const IN_PART = /\b(?:Road|Rd|Street|St|Marg|Nagar|Cross|Main|Layout|Sector|Colony|Apartments?|Lane|Phase|Enclave|Vihar|Puram|Bagh|Chowk|Bazaar|Bazar|Gali|Society|Complex|Tower|Floor|Extension|Halli|Palya|Pet|Ganj|Mohalla|Village|Taluk|District|Dist|Block|West|East)\b\.?/;
// Japanese and Korean ward, city and road endings.
const EA_PART = /\p{L}-(?:ku|shi|cho|chō|machi|gun|ken|gu|dong|ro|gil|daero|eup|myeon)(?![\p{L}-])/u;
const LABELLED = new RegExp(`^${LABEL}`);
const HOUSE_NUMBER = /^(?:〒|\d|(?:Flat|House|H\.|Plot|Door|Shop|Office|Block|Room|Khasra|Survey) ?No|No\.|#)/;

const ADDRESS_CUE = /\b(?:address|addr|resid\w*|lives?|office|located at|registered|mailing|correspondence|permanent|domicile)\b/i;

export function findAsiaAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(CHAIN)) {
    const value = match[0];
    // A chain opens with its house number (or postcode), else a year or a count could lead it.
    if (!HOUSE_NUMBER.test(value) && !/\d{1,4}-\d{1,4}/.test(value)) continue;
    if (/^(?:19|20)\d\d\b(?![-/])/.test(value)) continue;
    const pin = match[1] !== undefined && (IN_PART.test(value) || LABELLED.test(value));
    const eastAsian = EA_PART.test(value) && (/\d{1,4}-\d{1,4}/.test(value) || /〒/.test(value) || match[2] !== undefined);
    if (!pin && !eastAsian) continue;
    const start = match.index;
    const end = start + value.length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    found.push({ entity: 'street_address', start, end, score: clamp(0.75 + (cues.length > 0 ? 0.15 : 0)), cues, rule: 'pattern:address-asia' });
  }
  return found;
}
