import { ADDRESS_FORMATS } from './address-format-data.js';
import { COMPOUND_STREET, COUNTRY_NAME, STREET_TYPE, STOP_WORDS, UNIT_PART } from './address-format-words.js';
import { unitStart } from './addresses-extend.js';
import { clamp, cuesNear, type Candidate } from './candidate.js';

// Address blocks read from libaddressinput's per-country formats (address-format-data.ts): a postcode that
// is valid for some country, standing where that country's format puts it (before the town, after the town,
// or on a line of its own), closes a street part of house number and name words on the same line or the
// line above; the country's name may follow. Street words in any script count, so "Odos Ermou 12, 105 63
// Athina" and "Ακαδημίας 47, 106 79 Αθήνα" read like "Storgatan 5, 114 55 Stockholm".

type Order = 'zip-town' | 'town-zip' | 'alone';

interface Country {
  key: string;
  zip: RegExp;
  prefix: string;
  orders: Set<Order>;
}

/** Where each country's format puts the postcode relative to its town, read from its fmt string. */
function ordersOf(fmt: string): Set<Order> {
  const orders = new Set<Order>();
  for (const line of fmt.split('%n')) {
    if (!line.includes('%Z')) continue;
    const zip = line.indexOf('%Z');
    const town = line.indexOf('%C');
    if (town < 0) orders.add('alone');
    else orders.add(zip < town ? 'zip-town' : 'town-zip');
  }
  return orders;
}

// US addresses have their own rules (addresses.ts); their ZIP after a state would only chain lines here.
const COUNTRIES: Country[] = ADDRESS_FORMATS.filter((format) => format.key !== 'US').map((format) => ({
  key: format.key,
  zip: new RegExp(`^(?:${format.zip})$`),
  prefix: format.prefix ?? '',
  orders: new Set([...ordersOf(format.fmt), ...(format.lfmt ? ordersOf(format.lfmt) : [])]),
}));
// Countries sharing a postcode pattern are tested once (many write \d{4} or \d{5}).
const BY_PATTERN = [...new Set(ADDRESS_FORMATS.filter((format) => format.key !== 'US').map((format) => format.zip))].map((zip) => ({ zip: new RegExp(`^(?:${zip})$`), countries: COUNTRIES.filter((country) => ADDRESS_FORMATS.find((format) => format.key === country.key)?.zip === zip) }));
const fits = new Map<string, Fit | null>();

// Any token a postcode could be; which country it fits is checked after (letters and digits, a space or dash inside).
const POSTCODE = /(?<![\p{L}\p{N}\-/.,])(?:([A-Z]{1,3})-)?(\d{2,5}[ -]\d{2,4}|\d{3,7}|\d{4} ?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]\d{4}[A-Z]{3})(?![\p{L}\p{N}]|[-/.,]\d)/gu;

interface Fit {
  orders: Set<Order>;
  /** The postcode alone says "postcode": letters in it, a space or dash inside, five or more characters, or a country prefix. */
  strong: boolean;
  year: boolean;
}

function fitOf(prefix: string | undefined, code: string): Fit | null {
  const key = `${prefix ?? ''}|${code}`;
  const cached = fits.get(key);
  if (cached !== undefined) return cached;
  const orders = new Set<Order>();
  for (const group of BY_PATTERN) {
    if (!group.zip.test(code)) continue;
    for (const country of group.countries) {
      if (prefix && country.prefix && `${prefix}-` !== country.prefix && prefix !== country.key && !(prefix.length === 1 && country.key.startsWith(prefix))) continue;
      for (const order of country.orders) orders.add(order);
    }
  }
  // A year (1900-2099) is a postcode only with a country prefix or the country named (checked by the caller).
  const fit = orders.size === 0 ? null : { orders, strong: Boolean(prefix) || /[A-Z]/.test(code) || /[ -]/.test(code) || code.length >= 5, year: !prefix && /^(?:19|20)\d\d$/.test(code) };
  if (fits.size > 5000) fits.clear();
  fits.set(key, fit);
  return fit;
}

const NAME = "(?:\\p{Lu}[\\p{L}'’.-]*|(?:de|del|de la|des|du|la|le|di|da|do|dos|das|van|von|der|den|ul\\.|al\\.|str\\.|pl\\.|os\\.|av\\.|bis|rue|avenue|boulevard|place|chemin|gate|gata|vej|väg|utca|út|tér|u\\.)(?= ))";
const NUMBER = '\\d{1,5}[A-Za-z]?(?:[/-]\\d{1,4}[A-Za-z]?){0,2}';
// A box, door or staircase after the number (Penalaan 54 bus 6, Mariahilfer Straße 12 Top 5).
const NUMBER_TAIL = "(?:,? (?:bus|Bus|bte|boîte|Top|Stg\\.?|Tür|Whg\\.?|Int\\.|lgh|Lgh|[A-Z](?= \\d)) ?[\\p{L}\\p{N}]{1,4})?";
// A street part: name words then the number ("Perryvegen 22B", "Odos Ermou 12", "Str. Lipscani nr. 5",
// "Puškinova 73/7"), or the number then name words ("11/46 Haley Road", "5-2-12 Jingumae").
const NAME_FIRST = new RegExp(`(?<![\\p{L}\\p{N}'’.-])(?:${NAME} ){0,4}${NAME},? (?:(?:nr\\.|No\\.?|n[º°o]\\.?|Nr\\.) ?)?${NUMBER}\\.?(?: [A-Z])?${NUMBER_TAIL}(?: - (?:${NAME} ?){1,3})?$`, 'u');
const NUMBER_FIRST = new RegExp(`(?<![\\p{L}\\p{N}'’.-])${NUMBER},? (?:${NAME} ?){1,4}$`, 'u');
const BUILDING = new RegExp(`(?:${NAME} ){1,3}(?:House|Building|Court|Lodge|Cottage|Farm|Hall|Tower|Centre|Center|Mansions|Villa|Chambers|Plaza)$`, 'u');
const TOWN = new RegExp(`^${NAME}(?:[ -]${NAME}){0,3}(?: \\d{1,2})?$`, 'u');

/** Segments of the text around a position: comma parts on one line, lines above. */
interface Segment {
  start: number;
  end: number;
  text: string;
  /** Separated from the next segment by a line break (else by a comma). */
  lineBreak: boolean;
}

/** The segment ending at `end` (exclusive), going back to the previous comma or line start. */
function segmentBefore(text: string, end: number): Segment | null {
  let cut = end;
  while (cut > 0 && /[ \t,]/.test(text.charAt(cut - 1))) cut -= 1;
  const gap = text.slice(cut, end);
  const lineBreak = cut > 0 && text.charAt(cut - 1) === '\n';
  if (lineBreak) cut -= 1;
  while (cut > 0 && /[ \t,]/.test(text.charAt(cut - 1))) cut -= 1;
  if (cut === 0 || (!lineBreak && !gap.includes(',') && gap.length > 0)) return null;
  let start = cut;
  while (start > 0 && !/[\n,\t;:()]/.test(text.charAt(start - 1))) start -= 1;
  while (start < cut && text.charAt(start) === ' ') start += 1;
  if (cut - start > 80 || cut === start) return null;
  return { start, end: cut, text: text.slice(start, cut), lineBreak };
}

const stopWord = (segment: string) => segment.split(/[\s,]+/).some((word) => STOP_WORDS.has(word.toLowerCase().replace(/[.:]$/, '')));

/** The street part ending right before `end`, with the unit or flat parts after or before it; null when none. */
function streetBefore(text: string, end: number): { start: number; typed: boolean; block: boolean } | null {
  let at = end;
  let block = false;
  for (let parts = 0; parts < 4; parts += 1) {
    const segment = segmentBefore(text, at);
    if (!segment) return null;
    block ||= segment.lineBreak;
    const value = segment.text.trim();
    if (UNIT_PART.test(value) || /^\d{1,5}[A-Za-z]?$/.test(value)) {
      // A unit after the street ("Avenida Haley 300, 7º"), or the number alone after a comma ("Calle de Haley, 300").
      if (/^\d/.test(value) && !UNIT_PART.test(value)) {
        const name = segmentBefore(text, segment.start);
        if (name && !name.lineBreak && new RegExp(`^(?:${NAME} ?){1,5}$`, 'u').test(name.text.trim()) && !stopWord(name.text)) return { start: unitStart(text, name.start).start, typed: STREET_TYPE.test(name.text), block };
        return null;
      }
      at = segment.start;
      continue;
    }
    // The street may end a longer part ("She lives at Odos Ermou 12"): only its own words count.
    const street = NAME_FIRST.exec(value) ?? NUMBER_FIRST.exec(value);
    // "2019 Canonical Ltd": a year before names is a copyright or dated line unless a street word follows.
    const dated = street !== null && /^(?:19|20)\d\d(?:-\d{2,4})? /.test(street[0]) && !STREET_TYPE.test(street[0]);
    if (street && !dated && !stopWord(street[0]) && street[0].split(/\s+/).length <= 7) {
      // A street written as one compound word (Lindenstraße, Storgatan) starts there, not at capitalised words before it.
      const words = street[0].split(' ');
      const compound = words.findLastIndex((word, index) => index > 0 && COMPOUND_STREET.test(word));
      const offset = compound > 0 ? words.slice(0, compound).join(' ').length + 1 : 0;
      let start = unitStart(text, segment.start + segment.text.indexOf(value) + street.index + offset).start;
      // A flat or unit, or a house or building name, as its own part before the street ("Flat 3, 12 Mill Lane",
      // "Rose House, 4 Mill Lane").
      const before = segmentBefore(text, start);
      if (before && (UNIT_PART.test(before.text.trim()) || BUILDING.test(before.text.trim())) && !before.lineBreak) start = before.start + before.text.search(BUILDING) * (BUILDING.test(before.text.trim()) ? 1 : 0);
      return { start, typed: STREET_TYPE.test(street[0]), block };
    }
    return null;
  }
  return null;
}

/** The country's name after `end`, on the same line after a comma or on the next line. */
function countryAfter(text: string, end: number): number | null {
  const match = COUNTRY_NAME.exec(text.slice(end, end + 40));
  return match ? end + match[0].length : null;
}

const ADDRESS_CUE = /\b(?:address|addr|adresse|anschrift|dirección|indirizzo|resid\w*|lives?|living|mailing|located at|moved to|write to|send\b[^.\n]{0,30}\bto)\b/i;

export function findFormatAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(POSTCODE)) {
    const code = match[2] as string;
    const fit = fitOf(match[1], code);
    if (!fit) continue;
    const zipStart = match.index;
    const zipEnd = zipStart + match[0].length;
    const lineStart = text.lastIndexOf('\n', zipStart - 1) + 1;
    const lineEndAt = text.indexOf('\n', zipEnd);
    const lineEnd = lineEndAt < 0 ? text.length : lineEndAt;
    let localityStart = -1;
    let localityEnd = -1;
    // The town after the postcode, to the end of its comma part ("114 55 Stockholm", "CH-8001 Zürich ZH").
    // Small words only inside a town's name (Frankfurt am Main, Rio de Janeiro); the town ends before prose.
    const after = /^ (\p{Lu}[\p{L}'’.-]*(?:[ -](?:\p{Lu}[\p{L}'’.-]*|(?:am|an|de|do|da|del|la|le|les|sur|upon|on|im|in|bei|ob|di|of)(?=[ -]\p{Lu})|\d{1,2}(?![\p{N}]))){0,3})(?![\p{L}\p{N}])/u.exec(text.slice(zipEnd, lineEnd));
    const beforeLine = text.slice(lineStart, zipStart);
    const townBefore = /(?:^|, ?)((?:\p{Lu}[\p{L}'’.-]*)(?:[ -]\p{L}[\p{L}'’.-]*){0,3}),? (?:(\p{Lu}{2,3}|\p{Lu}\p{L}+(?: \p{Lu}\p{L}+){0,2}),? )?$/u.exec(beforeLine);
    if (fit.orders.has('zip-town') && after && TOWN.test(after[1] as string) && !streetLike(after[1] as string) && !stopWord(after[1] as string) && segmentStartsAt(text, zipStart)) {
      localityStart = zipStart;
      localityEnd = zipEnd + after[0].length;
    } else if (fit.orders.has('town-zip') && townBefore && !stopWord(townBefore[0])) {
      localityStart = lineStart + (townBefore.index ?? 0) + (townBefore[0].startsWith(',') ? townBefore[0].search(/\p{L}/u) : 0);
      localityEnd = zipEnd;
    } else if (fit.orders.has('alone') && segmentStartsAt(text, zipStart) && /^(?:\s*(?:$|[,.;)\n])| \p{Ll})/u.test(text.slice(zipEnd, zipEnd + 3))) {
      // The postcode on its own line or comma part, the town in the part before ("Perkinsville, PO1 5AX").
      const town = segmentBefore(text, zipStart);
      if (!town) continue;
      const townText = town.text.trim();
      if (TOWN.test(townText) && !streetLike(townText) && !stopWord(townText)) localityStart = town.start;
      else if ((fit.strong || countryAfter(text, zipEnd) !== null) && (NAME_FIRST.test(townText) || NUMBER_FIRST.test(townText))) localityStart = zipStart;
      else continue;
      localityEnd = zipEnd;
    } else continue;
    const street = streetBefore(text, localityStart);
    if (!street) continue;
    const country = countryAfter(text, localityEnd);
    // A short all-digit postcode inline ("Main 5, 2010 Vancouver") could be a year or a count: it needs the
    // block layout, the country, or a street type word.
    // "Auckland 1010 runners": a town then four digits inline needs the country or the block layout.
    // Three or four digits alone are as often a house number, a count or a year: such a postcode needs the
    // country named after it ("Hafnarstræti 9\n101 Reykjavík\nÍsland").
    if ((!fit.strong || fit.year) && country === null) continue;
    const end = country ?? countryAfter(text, stateAfter(text, localityEnd)) ?? stateAfter(text, localityEnd);
    const cues = cuesNear(text, street.start, end, ADDRESS_CUE, { before: 40, after: 10 });
    const score = 0.75 + (country !== null ? 0.1 : 0) + (street.typed ? 0.05 : 0) + (cues.length > 0 ? 0.1 : 0);
    found.push({ entity: 'street_address', start: street.start, end, score: clamp(score), cues, rule: 'pattern:address-format' });
  }
  return found;
}

// A town never holds a street word: "1234 West U.S. Hwy 50" on a line is a street, not a postcode and town.
const STREET_WORD = /(?<![\p{L}])(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Lane|Ln|Boulevard|Blvd|Highway|Hwy|Court|Ct|Place|Pl|Way|Box|Suite|Ste|Route|Rte|Parkway|Pkwy|Floor|Fl)(?![\p{L}])/iu;
const streetLike = (value: string) => STREET_WORD.test(value) || STREET_TYPE.test(value);

/** The postcode opens its part: at a line start or right after a comma. */
function segmentStartsAt(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 3), at);
  return at === 0 || /(?:^|\n|,)[ \t]*$/.test(before) || text.lastIndexOf('\n', at - 1) + 1 === at;
}

// States, provinces and prefectures the formats write after the town or postcode (", Oaxaca", "\nKerala", " MI").
const STATES = [...new Set(ADDRESS_FORMATS.flatMap((format) => (/%S/.test(format.fmt) ? [...(format.states ?? []), ...(format.stateNames ?? [])] : [])).filter((state) => state.length >= 2))]
  .sort((a, b) => b.length - a.length)
  .map((state) => state.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const STATE_AFTER = new RegExp(`^(?:,? ?\\n[ \\t]*|, ?| )(?:${STATES.join('|')})(?![\\p{L}\\p{N}])`, 'u');

function stateAfter(text: string, end: number): number {
  const match = STATE_AFTER.exec(text.slice(end, end + 60));
  return match ? end + match[0].length : end;
}

/** Extends an address found by any rule over the country name right after it, and over a state after its postcode. */
export function withCountry(text: string, candidate: Candidate): Candidate {
  const state = /\d/.test(text.slice(Math.max(candidate.start, candidate.end - 12), candidate.end)) ? stateAfter(text, candidate.end) : candidate.end;
  const end = countryAfter(text, state) ?? state;
  return end === candidate.end ? candidate : { ...candidate, end };
}
