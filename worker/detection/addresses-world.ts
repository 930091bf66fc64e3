import { findAsiaAddresses } from './addresses-asia.js';
import { strictTailEnd } from './addresses-extend.js';
import { clamp, cuesNear, type Candidate } from './candidate.js';

// Address forms that do not open with a house number before a street name: room, floor or block first with
// comma-separated parts (East Asian and offshore registered offices: "Rm. 12, 8 #, Lane 30, Xinhua Road,
// Hangzhou"), and a postcode-town line that ends in a country ("31 200 Saint-Lys, France", postcodes with
// a space). Found with the street rules of addresses.ts, scored the same way.

const WORD = "\\p{Lu}[\\p{L}'’.-]*";
// What a part names: a road, a building or an area.
const PART_TYPE =
  '(?:Road|Rd\\.?|Street|St\\.?|Avenue|Ave\\.?|Lane|Alley|Boulevard|Blvd\\.?|Building|Bldg\\.?|Tower|Mansion|Plaza|Park|Gardens?|Centre|Center|Court|Estate|District|Village|Town|Township|County|Province|Zone|Block|Complex|Compound|House|Hall|Square)';
// The opening part: a room, flat, unit or suite number; a floor (3F, 3/F, 2nd floor, Floor 2); a block-lot number (2-7-15).
const OPENING = `(?:(?:Rm|Room|Flat|Unit|Suite|Ste)\\.? ?\\d{1,5}[A-Z]?|\\d{1,2} ?(?:F|/ ?F)|\\d{1,2}(?:st|nd|rd|th) [Ff]loor|(?:Floor|FLOOR|Fl\\.) \\d{1,2}|\\d{1,4}-\\d{1,4}-\\d{1,4})`;
// The parts after it: a number with a sign (36 #), a No. (No. 8 Building), a type and a number (Lane 100,
// Block 4), or names ending in a type (Tianlin East Road, Software Park), optionally followed by a town.
const PART = `(?:\\d{1,5} ?#|No\\.? ?\\d{1,5}[A-Z]?(?: ${WORD}){0,4}|${PART_TYPE} \\d{1,5}[A-Z]?|(?:${WORD} ){1,4}${PART_TYPE}(?: ${WORD}){0,2})`;
const CITY = `(?:${WORD}(?: ${WORD})?)(?: \\d{4,6})?`;
const BLOCK_ADDRESS = new RegExp(`(?<![\\p{L}\\p{N}/-])${OPENING}((?:, ?${PART}){1,6})(?:, ?(${CITY}))?(?![\\p{L}\\p{N}])`, 'gu');

const COUNTRIES = [
  'France', 'Germany', 'Deutschland', 'Italy', 'Italia', 'Spain', 'España', 'Portugal', 'Belgium', 'Belgique', 'België', 'Netherlands',
  'Nederland', 'Switzerland', 'Schweiz', 'Suisse', 'Austria', 'Österreich', 'Sweden', 'Sverige', 'Norway', 'Norge', 'Denmark', 'Danmark',
  'Finland', 'Suomi', 'Poland', 'Polska', 'Czech Republic', 'Czechia', 'Slovakia', 'Hungary', 'Luxembourg', 'Ireland', 'Greece', 'Israel',
  'China', 'Japan', 'Korea', 'Taiwan', 'Singapore', 'India', 'Brazil', 'Brasil', 'Mexico', 'México', 'Canada', 'Australia',
];
// Postcodes before the town: five digits, or two and three with a space (older French style), four
// digits (not a year), Polish 00-000, Swedish and Czech 000 00, Dutch 0000 AA.
const POSTCODE = '(?:\\d{5}|\\d{2} \\d{3}|(?!19\\d\\d|20\\d\\d)\\d{4}(?: [A-Z]{2})?|\\d{2}-\\d{3}|\\d{3} \\d{2})';
const POSTCODE_TOWN_COUNTRY = new RegExp(
  `(?<![\\p{L}\\p{N}/.,-])${POSTCODE} ${WORD}(?:[ -]${WORD}){0,2},? (?:${COUNTRIES.join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

// A street with no type word the rules know, told apart by what follows it: a house number then a town and a
// UK, Canadian, Irish or Australian postcode (42 Kingsway, Manchester M19 2LL), or a name then the number then
// a European postcode and town (Rosenthaler 40, 10178 Berlin; without the comma only a five-digit, lettered or
// country-prefixed postcode, as "Python 3 1000 Times" is none). Words that number a document's parts are no street.
const NOT_STREET = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Chapter|Section|Sections|Item|Items|Page|Pages|Order|Invoice|Article|Art|Table|Figure|Fig|Line|Lines|Vol|Volume|No|Number|Part|Rule|Clause|Schedule|Annex|Exhibit|Appendix|Step|Level|Room|Floor|Unit|Case|Ref|Account|Version|Release|Model|Type|Class|Grade|Year|Week|Day|Total|Box|Lot|Batch|Serial|Ticket|Flight|Gate|Platform|Seat|Row|Bus|Route|Channel|Episode|Season|Round|Game|Match|Team|Group|Phase|Stage|Term|Period|Form|Question|Answer|Paragraph|Note|Notes|Top|Stiege|Whg|Wohnung|Tür|Apt|Apto|Dpto|Depto|Int)\b/;
const NUMBER_NAME = new RegExp(`(?<![\\p{L}\\p{N}/.,-])\\d{1,5}[A-Z]? (?:The )?${WORD}(?: ${WORD}){0,2}(?=,? ?\\n|, | )`, 'gu');
// Street and town words in mixed case or, as on envelopes, in capitals of three letters or more.
const NAMED = "(?:\\p{Lu}\\p{Ll}[\\p{L}'’.-]*|\\p{Lu}{3,}(?!\\p{Ll}))";
const NAME_NUMBER_POSTCODE = new RegExp(
  `(?<![\\p{L}\\p{N}])(${NAMED}(?: ${NAMED}){0,2}) \\d{1,4}[a-z]?(?:/\\d{1,4}){0,2}(?:(?:, ?|,? ?\\n[ \\t]*)(?:[A-Z]{1,2}-)?(?:\\d{5}|(?!19\\d\\d|20\\d\\d)\\d{4}(?: [A-Z]{2})?)| (?:[A-Z]{1,2}-\\d{4,5}|\\d{5}|\\d{4} [A-Z]{2})) ${NAMED}(?:[ -]${NAMED})?(?![\\p{L}\\p{N}])`,
  'gu',
);

// British and Irish addresses often have no house number: a house name, a street and the town, closed by a
// postcode only a postcode looks like (Rose Cottage, Mill Lane, Little Snoring, Norfolk NR21 0AA).
const UK_TYPES = 'Road|Street|Lane|Avenue|Close|Drive|Way|Gardens|Crescent|Terrace|Place|Court|Grove|Row|Square|Mews|Walk|Green|Rise|Vale|Parade|Hill';
const UNNUMBERED_STREET = new RegExp(`(?<![\\p{L}\\p{N}])(?:${WORD}(?: ${WORD}){0,3}, ?)?(?:${WORD} ){1,3}(?:${UK_TYPES})(?![\\p{L}\\p{N}])`, 'gu');

const ADDRESS_CUE = /\b(?:address|addr|office|offices|located at|registered|mailing|domicile|premises)\b/i;

export function findWorldAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(BLOCK_ADDRESS)) {
    const parts = match[1] ?? '';
    // A block-lot opening (2-7-15) is also a date or a score: it needs a No. part after it.
    if (/^\d+-\d+-\d+/.test(match[0]) && !/No\.?\s?\d/.test(parts)) continue;
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    const named = /\p{Lu}/u.test(parts.replace(/No\.?/g, ''));
    const score = (match[2] && named ? 0.8 : named ? 0.65 : 0.45) + (cues.length > 0 ? 0.15 : 0);
    found.push({ entity: 'street_address', start, end, score: clamp(score), cues, rule: 'pattern:address-block' });
  }
  for (const match of text.matchAll(POSTCODE_TOWN_COUNTRY)) {
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    found.push({ entity: 'street_address', start, end, score: clamp(0.6 + (cues.length > 0 ? 0.15 : 0)), cues, rule: 'pattern:address-postcode-country' });
  }
  for (const match of text.matchAll(NUMBER_NAME)) {
    if (/^(?:19|20)\d\d /.test(match[0])) continue;
    const end = strictTailEnd(text, match.index + match[0].length);
    if (end === null) continue;
    const cues = cuesNear(text, match.index, end, ADDRESS_CUE, { before: 40, after: 10 });
    found.push({ entity: 'street_address', start: match.index, end, score: clamp(0.7 + (cues.length > 0 ? 0.15 : 0)), cues, rule: 'pattern:address-postcode-street' });
  }
  for (const match of text.matchAll(UNNUMBERED_STREET)) {
    const end = strictTailEnd(text, match.index + match[0].length);
    if (end === null) continue;
    const cues = cuesNear(text, match.index, end, ADDRESS_CUE, { before: 40, after: 10 });
    found.push({ entity: 'street_address', start: match.index, end, score: clamp(0.65 + (cues.length > 0 ? 0.15 : 0)), cues, rule: 'pattern:address-postcode-street' });
  }
  for (const match of text.matchAll(NAME_NUMBER_POSTCODE)) {
    if (NOT_STREET.test(match[1] ?? '')) continue;
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    found.push({ entity: 'street_address', start, end, score: clamp(0.65 + (cues.length > 0 ? 0.15 : 0)), cues, rule: 'pattern:address-postcode-street' });
  }
  found.push(...findAsiaAddresses(text));
  return found;
}
