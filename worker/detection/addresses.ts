import { tailEnd, unitStart } from './addresses-extend.js';
import { findFormatAddresses, withCountry } from './addresses-format.js';
import { findWorldAddresses } from './addresses-world.js';
import { clamp, cuesNear, type Candidate } from './candidate.js';

// US street addresses: number, optional direction, one to four name words, a street suffix, optional
// direction and unit, and optionally the city, state and ZIP on the same or the next line.

const SUFFIXES = [
  'Street', 'St', 'Avenue', 'Ave', 'Av', 'Road', 'Rd', 'Boulevard', 'Blvd', 'Lane', 'Ln', 'Drive', 'Dr', 'Court', 'Ct', 'Place', 'Pl',
  'Way', 'Terrace', 'Ter', 'Parkway', 'Pkwy', 'Circle', 'Cir', 'Highway', 'Hwy', 'Square', 'Sq', 'Trail', 'Trl', 'Alley', 'Aly', 'Plaza',
  'Plz', 'Loop', 'Row', 'Pike', 'Crescent', 'Cres', 'Walk', 'Path', 'Ridge', 'Heights', 'Hts', 'Crossing', 'Xing', 'Expressway', 'Expy',
  'Freeway', 'Fwy', 'Turnpike', 'Tpke', 'Center', 'Ctr', 'Cove', 'Cv', 'Creek', 'Glen', 'Grove', 'Hollow', 'Landing', 'Meadows', 'Mews',
  'Pass', 'Point', 'Pt', 'Run', 'Trace', 'View', 'Vista', 'Bend', 'Close', 'Commons',
  // British, Irish, Australian and New Zealand street types.
  'Gardens', 'Gdns', 'Green', 'Hill', 'Park', 'Rise', 'Vale', 'Parade', 'Pde', 'Quay', 'Wharf', 'Esplanade', 'Esp', 'Embankment', 'Chase',
  'Wynd', 'Tce', 'Gr', 'Cres', 'Grv', 'Hwy', 'Mall',
  // More USPS street suffixes.
  'Junction', 'Manor', 'Estates', 'Harbor', 'Hills', 'Springs', 'Valley', 'Village', 'Knoll', 'Oval', 'Crest', 'Causeway', 'Bypass', 'Spur',
  'Motorway', 'Bridge', 'Brook', 'Canyon', 'Corner', 'Corners', 'Dale', 'Falls', 'Ferry', 'Field', 'Fields', 'Ford', 'Forest', 'Fork', 'Garden',
  'Gateway', 'Haven', 'Inlet', 'Island', 'Junction', 'Knolls', 'Lake', 'Lakes', 'Lodge', 'Meadow', 'Mill', 'Mills', 'Mount', 'Mountain',
  'Orchard', 'Overpass', 'Port', 'Prairie', 'Ranch', 'River', 'Shore', 'Shores', 'Spring', 'Station', 'Summit', 'Tunnel', 'Villa',
  'Ville', 'Ways', 'Cswy', 'Cyn', 'Jct', 'Mnr', 'Mtn', 'Rdg', 'Sta', 'Vly', 'Vlg', 'Vw', 'Brg', 'Frk', 'Hbr', 'Holw', 'Isl', 'Lk',
  'Mdws', 'Spg', 'Sts', 'Aves', 'Rds', 'Drs',
  // USPS standard suffixes that prose seldom puts after a capitalised word and a number (Publication 28);
  // Points, Ports, Union, Lights, Mission and the like cost more false findings than they found.
  'Crossroad', 'Crossroads', 'Stravenue', 'Throughway', 'Trafficway', 'Skyway', 'Underpass', 'Viaduct', 'Passage', 'Radial', 'Parkways',
];
const STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN',
  'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA',
  'WV', 'WI', 'WY', 'PR', 'GU', 'VI', 'D\\.C',
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
// A letter after the number (221B); a small one (12a) cost a false finding in held-out prose.
const NUMBER = '\\d{1,6}(?:-?[A-Z](?![a-z]))?(?:-\\d{1,5})?(?: 1/2)?';
const NAME_WORD = "(?:[A-Z][A-Za-z'’-]*\\.?|\\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH))";
const UNIT = "(?:,? (?:Apt|APT|Apartment|APARTMENT|Suite|SUITE|Ste|STE|Unit|UNIT|Rm|RM|Room|ROOM|Fl|FL|Floor|FLOOR|Bldg|BLDG|Building|Lot|LOT|#)\\.? ?#?[A-Z0-9][A-Z0-9-]{0,5}(?![A-Za-z0-9]))";
const STATE = `(?:${[...STATES, ...STATE_NAMES.flatMap(caseForms)].join('|')})`;
const CITY_LINE = `(?:,? ?(?:\\n[ \\t]*)?(?:[A-Z][A-Za-z.'’-]+ ){0,3}[A-Z][A-Za-z.'’-]+,? ${STATE}\\.?,? \\d{5}(?:-\\d{4})?(?!\\d))`;

// The suffix ends the word: "Ter" in "Teräs" is no Terrace.
const STREET = new RegExp(`(?<![\\w-]|(?<!\\d)/)${NUMBER} (?:${DIRECTION} )?(?:${NAME_WORD} ){1,4}${SUFFIX}(?![A-Za-z0-9\\u00C0-\\u024F])\\.?(?: ${DIRECTION}(?![A-Za-z]))?${UNIT}?(${CITY_LINE})?`, 'g');
// A house number spelled out (One Financial Plaza, Three Center Plaza): only with its city line, as a
// capitalised number word before a street word is otherwise as often a name or a heading.
const SPELLED_NUMBER = '(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Eleven|Twelve|Thirteen|Fourteen|Fifteen|Sixteen|Seventeen|Eighteen|Nineteen|Twenty)';
const SPELLED_STREET = new RegExp(`(?<![\\w/-])${SPELLED_NUMBER} (?:${NAME_WORD} ){0,3}${SUFFIX}(?![A-Za-z0-9\\u00C0-\\u024F])\\.?${UNIT}?(${CITY_LINE})`, 'g');
const PO_BOX = new RegExp(`(?<![\\p{L}\\p{N}/-])(?:P\\.? ?O\\.?|G\\.?P\\.?O\\.?|POB|PMB|Locked Bag|Private Bag|(?:R\\.?R\\.?|Rural Route|HC|Highway Contract) ?\\d{1,3},? Box|Post Office|Postfach|Apartado(?: de Correos)?|Casilla(?: de Correo)?|Caixa Postal|Casella Postale|Bo[iî]te [Pp]ostale|B\\.P\\.|Postbus|Postboks|Box) ?(?:Box|Drawer)? ?(?:No\\.? ?)?#? ?\\d{1,6}(?: \\d\\d){0,2}(${CITY_LINE})?`, 'giu');
// No street type, but a city, state and ZIP after it, or a direction before the name ("6330 S Stony Island").
const NAMED_WITH_CITY = new RegExp(`(?<![\\w/-])${NUMBER} (?:${DIRECTION} )?(?:${NAME_WORD} ){0,3}${NAME_WORD}\\.?(?:${UNIT}|,? \\d{1,5}[A-Z]?|,? \\d{1,2}(?:st|nd|rd|th) (?:Fl(?:oo)?r|FLR?)\\.?)?(${CITY_LINE})`, 'g');
const DIRECTED = new RegExp(`(?<![\\w/-])${NUMBER} ${DIRECTION} (?:[A-Z][A-Za-z'’-]+ ){0,2}[A-Z][A-Za-z'’-]{2,}(?![\\w-])`, 'g');
const ROUTE_WORD = '(?:Route|Rte|Highway|Hwy|SR|State Road|County Road|CR)\\.? ?(?:No\\.? ?|# ?)?';
const ROUTE = new RegExp(`(?<![\\w/-])${NUMBER} (?:(?:Old|US|U\\.S\\.|State|County|Farm to Market) )?${ROUTE_WORD}[0-9A-Z]{1,4}\\b(${CITY_LINE})?`, 'gi');
// The route's own designator, read again from a ROUTE match (its group 1 is the town line).
const ROUTE_DESIGNATOR = new RegExp(`${ROUTE_WORD}([0-9A-Z]{1,4})\\b`, 'i');
// Military mail: PSC/Unit/CMR with a box, then APO/FPO/DPO, AA/AE/AP and the ZIP.
// The parts may stand on separate lines, as on an envelope.
// A ship may carry its hull number (USS Nimitz (CVN 68)).
const MILITARY = /\b(?:(?:PSC|Unit|CMR) \d{1,5},?[ \n](?:Box \d{1,5},?[ \n])?|USNS [A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)?,?[ \n]|USS [A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)?(?: \([A-Z]{2,4}[- ]?\d{1,4}\))?,?[ \n])?(?:APO|FPO|DPO) (?:AA|AE|AP) \d{5}(?:-\d{4})?\b/g;

// International: number after the street (Hauptstraße 12, Via Roma 5, Calle Mayor 3), number before a
// type word in Romance languages (10 rue de Rivoli), each optionally followed by a postcode and town.
const COMPOUND_TYPES = 'straße|strasse|str\\.|weg|gasse|platz|allee|ring|damm|ufer|laan|straat|gracht|plein|kade|dijk|vej|gade|gatan|vägen|gränd|veien|gata|katu|tie|tanya|utca|ulica|singel|steeg|dreef|chaussee|stieg|stræde|torv|plads|torget|stigen|backen';
// German type words also stand as their own word after a name, hyphenated or not: Konrad-Adenauer-Straße 1,
// Berliner Straße 12.
const CAPITAL_TYPES = 'Straße|Strasse|Str\\.|Weg|Gasse|Platz|Allee|Damm|Ufer';
const TYPE_WORDS = ['Rue', 'Avenue', 'Av.', 'Boulevard', 'Bd', 'Chemin', 'Place', 'Allée', 'Impasse', 'Quai', 'Route', 'Calle', 'C/', 'Avenida', 'Avda.', 'Paseo', 'Plaza', 'Camino', 'Carrer', 'Via', 'Viale', 'Piazza', 'Corso', 'Largo', 'Rua', 'Travessa', 'Praça', 'Ulica', 'ul.', 'Aleja', 'al.',
  'Ronda', 'Travesía', 'Carretera', 'Pasaje', 'Calzada', 'Glorieta', 'Vicolo', 'Strada', 'Lungomare', 'Borgo', 'Cours', 'Passage', 'Promenade',
  'Faubourg', 'Sentier', 'Alameda', 'Estrada', 'Rodovia', 'Beco', 'Bulevardul', 'Calea', 'Str.'];
const TYPE_FIRST = `(?:${[...new Set(TYPE_WORDS.flatMap((word) => [word, word.toLowerCase()]))].map((word) => word.replace('.', '\\.')).join('|')})`;
// Up to four words, each apart from the next: with the space optional, a long run of capitalised pieces
// ("Via Ab-Ab-Ab…") could be split every way, and a 600-character line took seconds.
const NAME_TAIL = "(?:(?:de|del|de la|des|du|la|le|l'|d'|da|do|dos|das|della|di|dei) ?)?\\p{Lu}[\\p{L}'’.-]+(?: \\p{Lu}[\\p{L}'’.-]+){0,3} ?";
// Portuguese 0000-000, Brazilian 00000-000 and six digits (Romania, Russia) too; a country letter may stand before the digits (D-10115, CH-8001).
const POSTCODE =
  '(?:(?:[A-Z]{1,2}-)?(?:\\d{6}|\\d{5}(?:-\\d{3})?|\\d{2} \\d{3}|\\d{4}(?:-\\d{3}| ?[A-Z]{2})?|\\d{2}-\\d{3}|\\d{3} ?\\d{2})|[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}|[A-Z]\\d[A-Z] ?\\d[A-Z]\\d)';
// A Spanish floor and door after the number (3º B, 2.º izq.), an Italian staircase or inner number (scala B, int. 5).
const FLOOR = "(?:,? (?:\\d{1,2}\\.?[º°ª](?: ?(?:[A-Z0-9]ª?|izq(?:da)?\\.?|dcha\\.?|dcha|centro))?|(?:scala|Scala|int\\.|Int\\.|interno) [A-Z0-9]{1,3}|(?:apto|Apto|andar|Andar)\\.? \\d{1,4}|(?:Whg|Wohnung|Top|Stiege|Tür|Apt|Apto|Dpto|Depto|Int)\\.? \\d{1,4}[A-Za-z]?)){0,2}";
// A Mexican colonia or Brazilian bairro may stand before the postcode (Col. Roma Norte, 06700 Ciudad de México).
const DISTRICT = "(?:,? (?:Col\\.|Colonia|Bairro|Barrio|Fracc\\.) \\p{Lu}[\\p{L}'’.-]+(?: (?:de |del )?\\p{Lu}[\\p{L}'’.-]+){0,2})";
// The town after the postcode, or before it, with a Brazilian state after a dash (São Paulo - SP, 01310-200).
const TOWN_TAIL = `(?:,? ?(?:\\n[ \\t]*)?(?:${POSTCODE} \\p{Lu}[\\p{L}'’.-]+(?: (?:de |del |do |da |di |la |le |am |an der )?\\p{Lu}[\\p{L}'’.-]+){0,2}|\\p{Lu}[\\p{L}'’.-]+(?: \\p{Lu}[\\p{L}'’.-]+)?(?: ?[-–] ?[A-Z]{2})?,? ${POSTCODE}(?![\\p{L}\\p{N}])))`;
// Nordic type words also stand apart after the name (Karl Johans gate 22, Gamla vägen 4).
// Hungarian, Czech, Turkish and Russian type words after the name too (Andrássy út 22, Atatürk Caddesi No: 12).
const APART_TYPES = 'gate|gata|gatan|vei|veien|vej|gade|väg|vägen|allé|út|utca|körút|tér|náměstí|třída|Caddesi|Cad\\.|Sokak|Sok\\.|Sokağı|Bulvarı|ulitsa|prospekt';
// A street's name word is at most this long: unbounded, each capital of a long hyphenated run started a scan
// to its end (quadratic in the run).
const WORD = 60;
const NUMBER_LAST = new RegExp(`(?<![\\p{L}\\p{N}])(?:\\p{Lu}[\\p{L}-]{0,${WORD}}(?:${COMPOUND_TYPES})|\\p{Lu}[\\p{L}-]{0,${WORD}}[- ](?:${CAPITAL_TYPES})|(?:\\p{Lu}[\\p{L}-]{0,${WORD}} ){1,2}(?:${APART_TYPES})|${TYPE_FIRST} ${NAME_TAIL}),? (?:No:? ?|n[º°] ?|n\\.º ?|núm\\. ?|Nr\\. ?)?\\d{1,5}(?: ?[a-zA-Z](?![\\p{L}]))?(?:[/-]\\d{1,4}){0,2}${FLOOR}${DISTRICT}?(${TOWN_TAIL})?(?![\\p{L}\\p{N}])`, 'gu');
// Latin American grid addresses, numbered streets with the crossing street and distance (Calle 26 # 13-19,
// Carrera 7 No. 71-21): the sign or No. and the hyphenated pair make them.
const GRID = new RegExp(`(?<![\\p{L}\\p{N}])(?:Calle|Carrera|Cra\\.?|Cl\\.|Avenida|Av\\.|Diagonal|Transversal|Tv\\.|Dg\\.|Cll\\.?|Kr\\.?) \\d{1,3}[A-Z]?(?: [Bb]is)?(?: [A-Z])? ?(?:#|No\\.?|N[°º]) ?\\d{1,3}[A-Z]?-\\d{1,3}(?![\\p{N}])(${TOWN_TAIL})?`, 'gu');
// German streets named with a preposition (An der Alster 40, Unter den Linden 77, Am Markt 1): only with
// postcode and town, as "Am Montag 3" or "Im Jahr 2" is prose.
const PREPOSITION_STREET = new RegExp(`(?<![\\p{L}\\p{N}])(?:Am|An der|An den|Auf der|Auf dem|Im|In der|In den|Zum|Zur|Unter den|Hinter der|Vor dem) \\p{Lu}[\\p{L}-]+ \\d{1,4}(?: ?[a-z](?![\\p{L}]))?(${TOWN_TAIL})(?![\\p{L}\\p{N}])`, 'gu');
const NUMBER_FIRST_TYPE = new RegExp(`(?<![\\p{L}\\p{N}/-])\\d{1,5}(?: ?(?:bis|ter|[a-zA-Z]))?,? ${TYPE_FIRST} ${NAME_TAIL}(${TOWN_TAIL})?`, 'gu');
// Written all in lower case, as in chat or e-mail ("i live at 42 maple street"): only after an address cue.
const LOWER_STREET = /(?<![\w/-])\d{1,6} (?:[a-z][a-z'-]+ ){1,3}(?:street|st|avenue|ave|road|rd|drive|dr|lane|ln|boulevard|blvd|court|ct|place|terrace|way|parkway|circle|highway)(?![\w-])\.?/g;
const ADDRESS_CUE = /\b(?:address|addr|resid\w*|lives?|living|home|mailing|located at|domicile|street|apartment|moved to|reside)\b/i;
// Numbers before a street word that are counts or measures, not house numbers.
const NOT_HOUSE_NUMBER = /^(\d+) (?:[A-Z]\w* )?(?:miles?|blocks?|feet|yards?|minutes?|hours?|years?|days?|percent)\b/i;

const DOCUMENT_PART_BEFORE = /(?:\b(?:section|sections|chapter|article|rule|part|item|clause|page|figure|table|exhibit|schedule|appendix)|§)\s*$/i;
const FORM_BOX_BEFORE = /(?:\b(?:check|tick|mark|from|enter|see|in|on|of)|\bForms?\b[^\n]*,)\s*$/i;

/** A year after a copyright mark on its line ("(C) 2012 W. Trevor King"), not a house number. */
const copyrightYear = (text: string, start: number, value: string) =>
  /^(?:19|20)\d\d\b/.test(value) && /(?:©|\(c\)|\bcopyright\b)[^\n]*$/i.test(text.slice(Math.max(0, start - 60), start));

export function findAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(STREET)) {
    const value = match[0];
    if (NOT_HOUSE_NUMBER.test(value) || copyrightYear(text, match.index, value)) continue;
    // "In 2019 Main Street …": a year, not a house number.
    if (/^(?:19|20)\d\d /.test(value) && /\b(?:in|since|of|by|from|until|during|year|fy|fiscal|before|after|the|its|his|her|their)\s+$/i.test(text.slice(Math.max(0, match.index - 12), match.index))) continue;
    // "Section 4a Main Street": a clause's number, not a house number.
    if (DOCUMENT_PART_BEFORE.test(text.slice(Math.max(0, match.index - 12), match.index))) continue;
    // The street part needs a name word (digits alone before the suffix are a count: "3 St" is no address).
    if (!/\d[^ ]* (?:\S+ )*?[A-Za-z]{2,}/.test(value)) continue;
    const unit = unitStart(text, match.index);
    const start = unit.start;
    let end = match.index + value.replace(/[,\s]+$/, '').length;
    const tail = match[1] ? null : tailEnd(text, end);
    if (tail) end = tail;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    // "3/15 Main Street" is as often a date before a street name: the unit/house form needs its town or a cue.
    if (unit.slash && !match[1] && !tail && cues.length === 0) continue;
    const score = (match[1] || tail ? 0.9 : 0.72) + (cues.length > 0 ? 0.1 : 0);
    found.push({ entity: 'street_address', start, end, score: clamp(score), cues, rule: 'pattern:address-us' });
  }
  const more: [RegExp, number, number, string][] = [
    [NAMED_WITH_CITY, 0.8, 0.8, 'pattern:address-city-line'],
    [DIRECTED, 0.6, 0.6, 'pattern:address-directional'],
    [ROUTE, 0.6, 0.85, 'pattern:address-route'],
    [MILITARY, 0.85, 0.85, 'pattern:address-military'],
    [SPELLED_STREET, 0.85, 0.85, 'pattern:address-spelled-number'],
    [NUMBER_LAST, 0.6, 0.85, 'pattern:address-international'],
    [NUMBER_FIRST_TYPE, 0.6, 0.85, 'pattern:address-international'],
    [PREPOSITION_STREET, 0.85, 0.85, 'pattern:address-international'],
    [GRID, 0.8, 0.85, 'pattern:address-international'],
  ];
  for (const [pattern, bare, withTown, rule] of more) {
    for (const match of text.matchAll(pattern)) {
      const value = match[0].replace(/[,\s]+$/, '');
      if (NOT_HOUSE_NUMBER.test(value) || !/\d/.test(value) || copyrightYear(text, match.index, value)) continue;
      // A lettered route is in capitals and apart from its route word (Route AA, CR K): "69 Credit" and
      // "1 CREDIT" hold no County Road.
      const route = pattern === ROUTE ? ROUTE_DESIGNATOR.exec(value) : null;
      const designator = route ? (route[1] ?? '') : '1';
      const apart = !route || /[\s.#]$/.test(route[0].slice(0, route[0].length - designator.length));
      if (!/\d/.test(designator) && (designator !== designator.toUpperCase() || !apart)) continue;
      const start = pattern === MILITARY ? match.index : unitStart(text, match.index).start;
      const tail = match[1] || pattern === MILITARY ? null : tailEnd(text, match.index + value.length);
      const end = tail ?? match.index + value.length;
      const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
      found.push({ entity: 'street_address', start, end, score: clamp((match[1] || tail ? withTown : bare) + (cues.length > 0 ? 0.15 : 0)), cues, rule });
    }
  }
  for (const match of text.matchAll(LOWER_STREET)) {
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    if (cues.length === 0 || NOT_HOUSE_NUMBER.test(match[0])) continue;
    found.push({ entity: 'street_address', start, end: tailEnd(text, end) ?? end, score: 0.7, cues, rule: 'pattern:address-lower-case' });
  }
  for (const match of text.matchAll(PO_BOX)) {
    const start = match.index;
    const tail = match[1] ? null : tailEnd(text, start + match[0].length);
    const end = tail ?? start + match[0].length;
    const cues = cuesNear(text, start, end, ADDRESS_CUE, { before: 40, after: 10 });
    // A form's box ("do not check box 6a", "Form(s) W-2, box 9") is no post box.
    const formBox = !match[1] && !tail && /^box/i.test(match[0]) && FORM_BOX_BEFORE.test(text.slice(Math.max(0, start - 40), start));
    found.push({ entity: 'street_address', start, end, score: clamp((match[1] || tail ? 0.8 : formBox ? 0.3 : 0.6) + (cues.length > 0 ? 0.15 : 0)), cues, rule: 'pattern:address-po-box' });
  }
  found.push(...findWorldAddresses(text));
  // Blocks read from the postal formats outrank the shorter matches inside them; every address takes the
  // country written after it.
  const blocks = findFormatAddresses(text);
  for (const block of blocks) {
    for (const other of found) {
      // Matches inside the block lend it their score; one holding the whole block is left to compete.
      if (block.start <= other.start && other.end <= block.end) block.score = Math.max(block.score, other.score);
    }
  }
  return [...found, ...blocks].map((candidate) => withCountry(text, candidate));
}
