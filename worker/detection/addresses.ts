import { clamp, cuesNear, type Candidate } from './candidate.js';

// US street addresses: number, optional direction, one to four name words, a street suffix, optional
// direction and unit, and optionally the city, state and ZIP on the same or the next line.

const SUFFIXES = [
  'Street', 'St', 'Avenue', 'Ave', 'Av', 'Road', 'Rd', 'Boulevard', 'Blvd', 'Lane', 'Ln', 'Drive', 'Dr', 'Court', 'Ct', 'Place', 'Pl',
  'Way', 'Terrace', 'Ter', 'Parkway', 'Pkwy', 'Circle', 'Cir', 'Highway', 'Hwy', 'Square', 'Sq', 'Trail', 'Trl', 'Alley', 'Aly', 'Plaza',
  'Plz', 'Loop', 'Row', 'Pike', 'Crescent', 'Cres', 'Walk', 'Path', 'Ridge', 'Heights', 'Hts', 'Crossing', 'Xing', 'Expressway', 'Expy',
  'Freeway', 'Fwy', 'Turnpike', 'Tpke', 'Center', 'Ctr', 'Cove', 'Cv', 'Creek', 'Glen', 'Grove', 'Hollow', 'Landing', 'Meadows', 'Mews',
  'Pass', 'Point', 'Pt', 'Run', 'Trace', 'View', 'Vista', 'Bend', 'Close', 'Commons',
];
const STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN',
  'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA',
  'WV', 'WI', 'WY', 'PR', 'GU', 'VI',
];
const STATE_NAMES = [
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware', 'Florida', 'Georgia', 'Hawaii', 'Idaho',
  'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine', 'Maryland', 'Massachusetts', 'Michigan', 'Minnesota',
  'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire', 'New Jersey', 'New Mexico', 'New York', 'North Carolina',
  'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania', 'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas',
  'Utah', 'Vermont', 'Virginia', 'Washington', 'West Virginia', 'Wisconsin', 'Wyoming', 'District of Columbia', 'Puerto Rico',
];

const caseForms = (word: string) => [word, word.toUpperCase()];
const SUFFIX = `(?:${SUFFIXES.flatMap(caseForms).sort((a, b) => b.length - a.length).join('|')})`;
const DIRECTION = '(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West|NORTH|SOUTH|EAST|WEST)\\.?';
const NUMBER = '\\d{1,6}(?:-?[A-Z](?![a-z]))?(?:-\\d{1,5})?(?: 1/2)?';
const NAME_WORD = "(?:[A-Z][A-Za-z'’-]*\\.?|\\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH))";
const UNIT = "(?:,? (?:Apt|APT|Apartment|APARTMENT|Suite|SUITE|Ste|STE|Unit|UNIT|Rm|RM|Room|ROOM|Fl|FL|Floor|FLOOR|Bldg|BLDG|Building|Lot|LOT|#)\\.? ?#?[A-Z0-9][A-Z0-9-]{0,5}(?![A-Za-z0-9]))";
const STATE = `(?:${[...STATES, ...STATE_NAMES.flatMap(caseForms)].join('|')})`;
const CITY_LINE = `(?:,? ?(?:\\n[ \\t]*)?(?:[A-Z][A-Za-z.'’-]+ ){0,3}[A-Z][A-Za-z.'’-]+,? ${STATE}\\.?,? \\d{5}(?:-\\d{4})?(?!\\d))`;

const STREET = new RegExp(`(?<![\\w/-])${NUMBER} (?:${DIRECTION} )?(?:${NAME_WORD} ){1,4}${SUFFIX}\\b\\.?(?: ${DIRECTION}(?![A-Za-z]))?${UNIT}?(${CITY_LINE})?`, 'g');
const PO_BOX = new RegExp(`\\b(?:P\\.? ?O\\.?|Post Office) ?Box \\d{1,6}(${CITY_LINE})?`, 'gi');
const ADDRESS_CUE = /\b(?:address|addr|resid\w*|lives?|living|home|mailing|located at|domicile|street|apartment|moved to|reside)\b/i;
// Numbers before a street word that are counts or measures, not house numbers.
const NOT_HOUSE_NUMBER = /^(\d+) (?:[A-Z]\w* )?(?:miles?|blocks?|feet|yards?|minutes?|hours?|years?|days?|percent)\b/i;

export function findAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(STREET)) {
    const value = match[0];
    if (NOT_HOUSE_NUMBER.test(value)) continue;
    // "In 2019 Main Street …": a year, not a house number.
    if (/^(?:19|20)\d\d /.test(value) && /\b(?:in|since|of|by|from|until|during|year|fy|fiscal|before|after)\s+$/i.test(text.slice(Math.max(0, match.index - 12), match.index))) continue;
    // The street part needs a name word (digits alone before the suffix are a count: "3 St" is no address).
    if (!/\d[^ ]* (?:\S+ )*?[A-Za-z]{2,}/.test(value)) continue;
    const start = match.index;
    const end = start + value.replace(/[,\s]+$/, '').length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    const score = (match[1] ? 0.9 : 0.72) + (cues.length > 0 ? 0.1 : 0);
    found.push({ entity: 'street_address', start, end, score: clamp(score), cues });
  }
  for (const match of text.matchAll(PO_BOX)) {
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    found.push({ entity: 'street_address', start, end, score: clamp((match[1] ? 0.8 : 0.6) + (cues.length > 0 ? 0.15 : 0)), cues });
  }
  return found;
}
