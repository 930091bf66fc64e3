import type { TaskPage } from '../../main/common/analysis-tasks.js';
import type { BuiltinEntityKind } from '../../main/common/schemas/detection.js';
import type { PageWord } from '../../main/common/schemas/pages.js';

// A labelled corpus of synthetic records (letters, incident reports, emails, invoices, HR forms, server
// logs, interview memos) with sensitive values embedded in varied formats and positions, next to
// distractors that look alike (invalid checksums, case numbers, versions, other dates, organisation
// names). Its own name lists only partly overlap the detector's, and values come in layouts the
// detector was not tuned on one by one. Deterministic for a seed.

export type Rng = () => number;

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const chance = (r: Rng, p: number) => r() < p;
const digits = (r: Rng, count: number) => Array.from({ length: count }, () => String(int(r, 0, 9))).join('');

// ---- Values ----

const FIRST_COMMON = `James Mary Robert Patricia Michael Jennifer David Linda William Elizabeth Thomas Susan Karen Daniel Nancy Matthew Lisa
Anthony Betty Sandra Steven Ashley Paul Kimberly Andrew Donna Joshua Michelle Kenneth Kevin Amanda Brian Melissa George Deborah
Timothy Stephanie Ronald Rebecca Jason Laura Edward Sharon Jeffrey Cynthia Ryan Kathleen Jacob Amy Gary Angela Nicholas Shirley Eric
Anna Jonathan Brenda Stephen Pamela Larry Emma Justin Nicole Scott Helen Brandon Samantha Benjamin Katherine Samuel Christine Gregory
Debra Alexander Rachel Carolyn Patrick Janet Raymond Catherine Dennis Heather Jerry Diane Tyler Ruth Aaron Julie Jose Olivia Adam Joyce
Nathan Henry Douglas Kelly Zachary Lauren Peter Christina Kyle Joan Ethan Evelyn Walter Judith Noah Megan Jeremy Andrea Cheryl Keith
Hannah Roger Jacqueline Terry Martha Gerald Gloria Harold Teresa Sean Sara Carl Arthur Frances Lawrence Kathryn Dylan Janice Jesse
Abigail Bryan Alice Julia Bruce Sophia Gabriel Logan Denise Albert Doris Alan Marilyn Juan Danielle Wayne Beverly Elijah Isabella Randy
Theresa Diana Vincent Natalie Ralph Brittany Eugene Charlotte Russell Marie Kayla Alexis Philip Lori`.split(/\s+/);
// Not in the detector's list: found only through titles, labels, initials, surnames and recurrence.
const FIRST_RARE = `Oluwaseun Siobhan Priya Dmitri Ingrid Kenji Aleksandra Tariq Nnamdi Xiomara Thanh Yusuf Anneliese Ravi Mei Lakshmi Bjorn
Giorgos Chidi Aroha Saoirse Leilani Kwabena Farah Anjali Marisol Rashida Dariusz Hamid Ngozi Tomasz Sunil Akosua Imani Keanu Yara
Zainab Mateus Svetlana Émilie Joaquín`.split(/\s+/);
const LAST_COMMON = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas
Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott
Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts`.split(/\s+/);
const LAST_RARE = `Adeyemi Raghunathan Volkov Johansson Watanabe Kowalczyk Farouk Eze Okonkwo Szymanski Papadopoulos Haddad Castellanos
Lindqvist Nakamura Mbeki O'Sullivan Fitzgerald-Hayes Delacroix Abernathy Quiñones Brzezinski Oyelaran Tshabalala Kaczmarek Achterberg
Whitcombe Hollingsworth Pemberton`.split(/\s+/).concat(['de la Cruz', 'van der Berg', 'Al-Hassan', 'MacKenzie', 'DeLuca']);

interface Person {
  first: string;
  middle: string | null;
  last: string;
}

function person(r: Rng): Person {
  return {
    first: chance(r, 0.7) ? pick(r, FIRST_COMMON) : pick(r, FIRST_RARE),
    middle: chance(r, 0.25) ? String.fromCharCode(65 + int(r, 0, 25)) : null,
    last: chance(r, 0.6) ? pick(r, LAST_COMMON) : pick(r, LAST_RARE),
  };
}

const TITLES_M = ['Mr.', 'Dr.', 'Det.', 'Officer', 'Sgt.', 'Agent', 'Judge', 'Lt.'];
const TITLES_F = ['Ms.', 'Mrs.', 'Dr.', 'Det.', 'Officer', 'Judge', 'Capt.'];

const STREET_NAMES = ['Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Washington', 'Lincoln', 'Park', 'Lake', 'Hill', 'Sunset', 'Highland', 'Jefferson', 'Madison', 'Franklin', 'Chestnut', 'Walnut', 'Spring', 'Ridge', 'Meadow', 'Willow', 'Riverside', 'Church', 'Mill', 'Forest', 'Martin Luther King Jr.', 'Old Mill', 'Spring Valley'];
const SUFFIXES = ['Street', 'St.', 'Avenue', 'Ave.', 'Road', 'Rd.', 'Boulevard', 'Blvd', 'Lane', 'Ln', 'Drive', 'Dr.', 'Court', 'Ct', 'Place', 'Way', 'Terrace', 'Parkway', 'Circle'];
const CITIES: [string, string, string][] = [
  ['Springfield', 'IL', '627'], ['Columbus', 'OH', '432'], ['Austin', 'TX', '787'], ['Portland', 'OR', '972'], ['Denver', 'CO', '802'],
  ['Raleigh', 'NC', '276'], ['Madison', 'WI', '537'], ['Tucson', 'AZ', '857'], ['Albany', 'NY', '122'], ['Richmond', 'VA', '232'],
  ['Salt Lake City', 'UT', '841'], ['Baton Rouge', 'LA', '708'], ['Des Moines', 'IA', '503'], ['Washington', 'DC', '200'], ['Boise', 'ID', '837'],
];
const AREA_CODES = ['202', '212', '217', '303', '312', '404', '415', '503', '512', '602', '617', '702', '713', '804', '907', '614', '919', '608', '520', '518'];
const ORGS = [
  'Department of Public Works', 'Springfield Police Department', 'Acme Logistics Inc.', 'Lincoln Memorial Hospital', "Jackson County Sheriff's Office",
  'the Washington Post', 'Bank of America', 'Wells Fargo Bank', 'Microsoft Teams', 'Franklin Templeton', 'Grant Street Bridge', 'Harris Teeter',
  'the Marshall Plan', 'Johnson Controls', 'Hamilton Beach', 'Lincoln Park', 'Fort Collins Water Utility', 'Ford Explorer', 'General Services Administration',
  'Office of Inspector General', 'Victoria Station', 'Columbia University', 'Baker Hughes', 'Madison Square Garden',
];

function ssn(r: Rng): { text: string; digits: string } {
  let area = int(r, 1, 899);
  if (area === 666) area = 667;
  const value = `${String(area).padStart(3, '0')}${String(int(r, 1, 99)).padStart(2, '0')}${String(int(r, 1, 9999)).padStart(4, '0')}`;
  return { text: `${value.slice(0, 3)}-${value.slice(3, 5)}-${value.slice(5)}`, digits: value };
}

function phone(r: Rng): string {
  const area = pick(r, AREA_CODES);
  const exchange = `${int(r, 2, 9)}${digits(r, 2)}`;
  const line = digits(r, 4);
  switch (int(r, 0, 11)) {
    case 8:
      return `(${area})${exchange}-${line}`;
    case 9:
      return `${area}/${exchange}-${line}`;
    case 10:
      return `+1-${area}-${exchange}-${line}`;
    case 11:
      return `${area}-${exchange}-${line} x${int(r, 10, 9999)}`;
    case 0:
      return `(${area}) ${exchange}-${line}`;
    case 1:
      return `${area}-${exchange}-${line}`;
    case 2:
      return `${area}.${exchange}.${line}`;
    case 3:
      return `+1 ${area} ${exchange} ${line}`;
    case 4:
      return `1-${area}-${exchange}-${line}`;
    case 5:
      return `(${area}) ${exchange}-${line} ext. ${int(r, 10, 999)}`;
    case 6:
      return pick(r, ['+44 20 7946 0958', '+33 1 42 68 53 00', '+49 30 901820', '+61 2 9374 4000', '+52 55 5080 2000']);
    default:
      return `${area} ${exchange} ${line}`;
  }
}

function luhnDigit(partial: string): string {
  let sum = 0;
  for (let index = 0; index < partial.length; index += 1) {
    let digit = Number(partial[partial.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A Luhn-valid number that is no card (IMEI, some tracking numbers): a distractor. */
function luhnNumber(r: Rng, prefix: string, length: number): string {
  const partial = prefix + digits(r, length - prefix.length - 1);
  return partial + luhnDigit(partial);
}

function imei(r: Rng): string {
  return luhnNumber(r, pick(r, ['35', '49', '86', '01']), 15);
}

function card(r: Rng, valid = true): string {
  const network = int(r, 0, 6);
  const prefix = ['4', `5${int(r, 1, 5)}`, pick(r, ['34', '37']), '6011', String(int(r, 2221, 2720)), String(int(r, 3528, 3589)), pick(r, ['36', '38'])][network] as string;
  const length = network === 2 ? 15 : network === 6 ? 14 : 16;
  let number = prefix + digits(r, length - prefix.length - 1);
  number += luhnDigit(number);
  if (!valid) number = number.slice(0, -1) + String((Number(number.slice(-1)) + int(r, 1, 9)) % 10);
  if (network === 2) return chance(r, 0.5) ? `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}` : number;
  if (network === 6) return chance(r, 0.5) ? `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}` : number;
  const separator = pick(r, [' ', '-', '', ' ']);
  return number.match(/.{4}/g)?.join(separator) ?? number;
}

function mod97(value: string): number {
  let remainder = 0;
  for (const char of value) {
    const code = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    remainder = code >= 10 ? (remainder * 100 + code) % 97 : (remainder * 10 + code) % 97;
  }
  return remainder;
}

function iban(r: Rng, valid = true): string {
  const [country, bban] = pick(r, [
    ['DE', () => digits(r, 18)],
    ['GB', () => `${pick(r, ['NWBK', 'BARC', 'HSBC', 'LOYD'])}${digits(r, 14)}`],
    ['FR', () => `${digits(r, 10)}${pick(r, ['A', 'B', '0'])}${digits(r, 12)}`],
    ['NL', () => `${pick(r, ['ABNA', 'INGB', 'RABO'])}${digits(r, 10)}`],
    ['ES', () => digits(r, 20)],
    ['IT', () => `${String.fromCharCode(65 + int(r, 0, 25))}${digits(r, 10)}${digits(r, 12)}`],
  ] as const);
  const body = bban();
  let check = String(98 - mod97(`${body}${country}00`)).padStart(2, '0');
  if (!valid) check = String((Number(check) + int(r, 1, 50)) % 97).padStart(2, '0');
  const compact = `${country}${check}${body}`;
  return chance(r, 0.7) ? (compact.match(/.{1,4}/g)?.join(' ') ?? compact) : compact;
}

function routing(r: Rng, valid = true): string {
  const prefix = String(pick(r, [int(r, 1, 12), int(r, 21, 32), int(r, 61, 72)])).padStart(2, '0');
  const body = prefix + digits(r, 6);
  const d = [...body].map(Number);
  const partial = 3 * ((d[0] ?? 0) + (d[3] ?? 0) + (d[6] ?? 0)) + 7 * ((d[1] ?? 0) + (d[4] ?? 0) + (d[7] ?? 0)) + ((d[2] ?? 0) + (d[5] ?? 0));
  let check = (10 - (partial % 10)) % 10;
  if (!valid) check = (check + int(r, 1, 9)) % 10;
  return `${body}${check}`;
}

/** Loopback (127/8) is left out: it identifies no one, and the detector skips it by design. */
function ipv4(r: Rng): string {
  return `${pick(r, [int(r, 11, 99), int(r, 128, 223), 192, 172, 10])}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`;
}

function ipv6(r: Rng): string {
  const hex = () => int(r, 0, 0xffff).toString(16);
  return chance(r, 0.5) ? `2001:db8:${hex()}:${hex()}::${hex()}` : `2607:f8b0:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function date(r: Rng, yearFrom: number, yearTo: number): string {
  const year = int(r, yearFrom, yearTo);
  const month = int(r, 1, 12);
  const day = int(r, 1, 28);
  switch (int(r, 0, 8)) {
    case 6:
      return `${month}-${day}-${String(year).slice(2)}`;
    case 7:
      return `${MONTHS[month - 1]} ${day}${day === 1 ? 'st' : day === 2 ? 'nd' : day === 3 ? 'rd' : 'th'}, ${year}`;
    case 8:
      return `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`;
    case 0:
      return `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/${year}`;
    case 1:
      return `${month}/${day}/${year}`;
    case 2:
      return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    case 3:
      return `${MONTHS[month - 1]} ${day}, ${year}`;
    case 4:
      return `${day} ${MONTHS[month - 1]} ${year}`;
    default:
      return `${(MONTHS[month - 1] as string).slice(0, 3)}. ${day}, ${year}`;
  }
}

function passport(r: Rng): string {
  return pick(r, [() => digits(r, 9), () => `${String.fromCharCode(65 + int(r, 0, 25))}${digits(r, 8)}`, () => `${pick(r, ['X', 'AB', 'P'])}${digits(r, 7)}`])();
}

function license(r: Rng): string {
  const letter = () => String.fromCharCode(65 + int(r, 0, 25));
  return pick(r, [
    () => `${letter()}${digits(r, 7)}`,
    () => digits(r, 9),
    () => `${letter()}${digits(r, 3)}-${digits(r, 3)}-${digits(r, 2)}-${digits(r, 3)}-${digits(r, 1)}`,
    () => `${letter()}${digits(r, 12)}`,
    () => `${letter()}${letter()}${digits(r, 6)}`,
  ])();
}

// ---- Documents ----

export interface GoldEntity {
  id: number;
  kind: BuiltinEntityKind;
}

type Piece = string | { text: string; kind: BuiltinEntityKind; id?: number };

/** One line of text; `\t` moves to the next form column. */
type Line = Piece[];

export interface CorpusDocument {
  name: string;
  pages: TaskPage[];
  entities: GoldEntity[];
  /** Gold entity id of each word (per page, same order as the page's words), or -1. */
  labels: number[][];
}

const CHAR_WIDTH = 6;
const LINE_HEIGHT = 14;

class DocumentBuilder {
  private readonly pagesOfLines: Line[][] = [[]];
  readonly entities: GoldEntity[] = [];
  private nextId = 1;

  constructor(readonly name: string) {}

  line(...pieces: Piece[]): void {
    (this.pagesOfLines.at(-1) as Line[]).push(pieces);
  }

  blank(): void {
    this.line();
  }

  pageBreak(): void {
    this.pagesOfLines.push([]);
  }

  /** A labelled value; give `id` to continue an entity on another line. */
  value(kind: BuiltinEntityKind, text: string, id?: number): { text: string; kind: BuiltinEntityKind; id: number } {
    const entityId = id ?? this.nextId++;
    if (id === undefined) this.entities.push({ id: entityId, kind });
    return { text, kind, id: entityId };
  }

  build(): CorpusDocument {
    const pages: TaskPage[] = [];
    const labels: number[][] = [];
    this.pagesOfLines.forEach((lines, pageIndex) => {
      const words: PageWord[] = [];
      const pageLabels: number[] = [];
      const texts: string[] = [];
      lines.forEach((line, lineIndex) => {
        let text = '';
        const charLabels: number[] = [];
        for (const piece of line) {
          const value = typeof piece === 'string' ? piece : piece.text;
          const label = typeof piece === 'string' ? -1 : (piece.id ?? -1);
          text += value;
          for (let index = 0; index < value.length; index += 1) charLabels.push(label);
        }
        texts.push(text.replace(/\t/g, ' '));
        const baseline = 740 - lineIndex * LINE_HEIGHT;
        for (const match of text.matchAll(/[^\s]+/g)) {
          const before = text.slice(0, match.index);
          const columns = before.split('\t');
          const column = columns.length - 1;
          const offset = (columns.at(-1) as string).length;
          const x1 = 72 + column * 200 + offset * CHAR_WIDTH;
          words.push({ text: match[0], x1, y1: baseline - 3, x2: x1 + match[0].length * CHAR_WIDTH, y2: baseline + 9, confidence: 100 });
          const ids = charLabels.slice(match.index, match.index + match[0].length).filter((id) => id >= 0);
          pageLabels.push(ids[0] ?? -1);
        }
      });
      pages.push({ page_number: pageIndex + 1, unit: 'pdf_points', rotation: 0, text: texts.join('\n'), words });
      labels.push(pageLabels);
    });
    return { name: this.name, pages, entities: this.entities, labels };
  }
}

function fullName(p: Person): string {
  return `${p.first}${p.middle ? ` ${p.middle}.` : ''} ${p.last}`;
}

function streetLine(r: Rng): string {
  const number = chance(r, 0.1) ? `${int(r, 1, 99)}-${int(r, 1, 99)}` : String(int(r, 1, 9999));
  const direction = chance(r, 0.2) ? `${pick(r, ['N.', 'S.', 'E.', 'W.', 'North', 'West'])} ` : '';
  const street = `${number} ${direction}${pick(r, STREET_NAMES)} ${pick(r, SUFFIXES)}${chance(r, 0.1) ? ` ${pick(r, ['NW', 'SE', 'N.E.'])}` : ''}`;
  const unit = chance(r, 0.25) ? `, ${pick(r, ['Apt.', 'Apt', 'Suite', 'Unit', '#'])} ${pick(r, [String(int(r, 1, 40)), `${int(r, 1, 9)}${pick(r, ['A', 'B', 'C'])}`])}` : '';
  const value = `${street}${unit}`;
  return chance(r, 0.15) ? value.toUpperCase() : value;
}

function cityLine(r: Rng): string {
  const [city, state, zip] = pick(r, CITIES);
  return `${city}, ${state} ${zip}${digits(r, 2)}${chance(r, 0.2) ? `-${digits(r, 4)}` : ''}`;
}

/** An address on one line, or the street on one line and the city below (same entity). */
function address(b: DocumentBuilder, r: Rng, label: string): void {
  const street = streetLine(r);
  if (chance(r, 0.1)) {
    const first = b.value('street_address', street.replace(/,.*$/, ''));
    b.line(label, first);
    b.line(b.value('street_address', `${pick(r, ['Apt.', 'Unit', 'Suite'])} ${int(r, 1, 300)}`, first.id));
    b.line(b.value('street_address', cityLine(r), first.id));
    return;
  }
  if (chance(r, 0.5)) {
    b.line(label, b.value('street_address', `${street}, ${cityLine(r)}`));
  } else {
    const value = b.value('street_address', street);
    b.line(label, value);
    b.line(b.value('street_address', cityLine(r), value.id));
  }
}

function poBox(b: DocumentBuilder, r: Rng): void {
  b.line(b.value('street_address', `P.O. Box ${int(r, 10, 99999)}, ${cityLine(r)}`));
}

function name(b: DocumentBuilder, p: Person, r: Rng, form: 'full' | 'last' | 'first' | 'upper-inverted' | 'full-upper' = 'full') {
  if (form === 'full-upper') return b.value('person_name', fullName(p).toUpperCase());
  if (form === 'last') return b.value('person_name', p.last);
  if (form === 'first') return b.value('person_name', p.first);
  if (form === 'upper-inverted') return b.value('person_name', `${p.last.toUpperCase()}, ${p.first.toUpperCase()}${p.middle ? ` ${p.middle}` : ''}`);
  return b.value('person_name', fullName(p));
}

// Distractors: text that resembles the values but is not one.
function caseNumber(r: Rng): string {
  return pick(r, [`${int(r, 2015, 2025)}-${digits(r, 6)}`, `FOIA-${int(r, 2018, 2025)}-${digits(r, 5)}`, `CR${digits(r, 8)}`, `No. ${digits(r, 7)}`]);
}

function money(r: Rng): string {
  return `$${int(r, 1, 999)},${digits(r, 3)}.${digits(r, 2)}`;
}

function letter(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`letter-${index}`);
  const org = pick(r, ORGS.slice(0, 8));
  b.line(org.replace(/^the /, ''));
  b.line(b.value('street_address', `${int(r, 100, 999)} ${pick(r, STREET_NAMES)} ${pick(r, ['Street', 'Avenue', 'Boulevard'])}, ${cityLine(r)}`));
  b.line('Tel. ', b.value('phone', phone(r)), '   Fax ', b.value('phone', phone(r)));
  b.blank();
  b.line(date(r, 2019, 2025));
  b.blank();
  const requester = person(r);
  const female = chance(r, 0.5);
  const title = pick(r, female ? TITLES_F : TITLES_M);
  b.line(name(b, requester, r));
  address(b, r, '');
  b.blank();
  b.line(`RE: Freedom of Information Act Request ${caseNumber(r)}`);
  b.blank();
  b.line(`Dear ${title} `, name(b, requester, r, 'last'), ':');
  b.line(`This letter responds to your request received on ${date(r, 2019, 2025)} for records concerning the ${pick(r, ORGS)} contract.`);
  const subject = person(r);
  b.line('We located records about ', name(b, subject, r), `, including correspondence from ${pick(r, ORGS)}.`);
  if (chance(r, 0.6)) b.line('The file lists a date of birth of ', b.value('date_of_birth', date(r, 1940, 2005)), ` and a hire date of ${date(r, 1995, 2024)}.`);
  if (chance(r, 0.5)) b.line(name(b, subject, r, 'last'), ` can be reached at `, b.value('phone', phone(r)), ' or ', b.value('email', `${subject.first.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}.${subject.last.toLowerCase().replace(/[^a-z]/g, '')}@${pick(r, ['example.com', 'mail.example.org', 'agency.gov'])}`), '.');
  if (chance(r, 0.4)) b.line('Social Security number ', b.value('ssn', ssn(r).text), ' appears on page 4.');
  if (chance(r, 0.2)) b.line('A second number, ', b.value('ssn', ssn(r).text), `, was found on a ${pick(r, ['ledger', 'form W-2', 'card'])} in the file.`);
  if (chance(r, 0.3)) b.line(`Masked identifiers such as XXX-XX-${digits(r, 4)} and employer ID ${digits(r, 2)}-${digits(r, 7)} were released.`);
  if (chance(r, 0.2)) b.line('Replies may also go to ', b.value('email', `foia+${int(r, 1, 999)}@${pick(r, ['records.agency-name.gov', 'city.example.co.uk'])}`), ` (mailto links are disabled).`);
  if (chance(r, 0.3)) b.line(`Pages ${int(r, 1, 9)} through ${int(r, 10, 40)} are withheld under Exemption ${pick(r, ['4', '6', '7(C)'])}.`);
  b.line(`Your fee total is ${money(r)}. Questions may be directed to our FOIA Public Liaison.`);
  b.blank();
  b.line(pick(r, ['Sincerely,', 'Respectfully,', 'Regards,']));
  const officer = person(r);
  b.line(name(b, officer, r));
  b.line(pick(r, ['FOIA Officer', 'Records Manager', 'Government Information Specialist']));
  return b.build();
}

function incidentReport(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`incident-${index}`);
  b.line(`${pick(r, ['SPRINGFIELD POLICE DEPARTMENT', 'JACKSON COUNTY SHERIFF', 'STATE PATROL'])} - INCIDENT REPORT`);
  b.line(`Case No.: ${caseNumber(r)}\tReport Date: ${date(r, 2018, 2025)}`);
  b.line(`Incident: ${pick(r, ['Burglary', 'Traffic collision', 'Theft', 'Disturbance', 'Fraud'])}\tBeat: ${int(r, 1, 40)}`);
  b.blank();
  const subject = person(r);
  b.line('SUBJECT');
  b.line('Name: ', name(b, subject, r, chance(r, 0.5) ? 'upper-inverted' : 'full'));
  b.line(pick(r, ['DOB: ', 'Date of Birth: ', 'D.O.B. ', 'DOB/Age: ', 'Born ', 'Birthdate: ']), b.value('date_of_birth', date(r, 1940, 2006)), `\tSex: ${pick(r, ['M', 'F'])}\tHeight: 5'${int(r, 0, 11)}"`);
  b.line(pick(r, ['SSN: ', 'Social Security No.: ', 'SS#: ']), b.value('ssn', chance(r, 0.8) ? ssn(r).text : chance(r, 0.5) ? ssn(r).digits : ssn(r).text.replace(/-/g, ' ')));
  address(b, r, 'Address: ');
  b.line(pick(r, ['Phone: ', 'Tel: ', 'Cell: ']), b.value('phone', phone(r)));
  const dlLabel = pick(r, ["Driver's License No.: ", 'DL#: ', 'Driver License: ', 'OLN: ', "Driver's Lic. # ", 'Operator license number ', 'CDL No. ', "Driver's license (state issued): "]);
  b.line(dlLabel, b.value('drivers_license', license(r)), `\tState: ${pick(r, ['IL', 'OH', 'TX', 'CA'])}`);
  b.line(`Vehicle: ${int(r, 2005, 2024)} ${pick(r, ['Ford Explorer', 'Honda Civic', 'Toyota Camry', 'Chevrolet Malibu'])}\tPlate: ${String.fromCharCode(65 + int(r, 0, 25))}${String.fromCharCode(65 + int(r, 0, 25))}${String.fromCharCode(65 + int(r, 0, 25))} ${digits(r, 4)}`);
  b.blank();
  b.line('NARRATIVE');
  const officer = person(r);
  const officerTitle = pick(r, ['Officer', 'Deputy', 'Sgt.', 'Det.', 'Trooper']);
  b.line(`On ${date(r, 2018, 2025)} at ${int(r, 1, 12)}:${digits(r, 1)}${int(r, 0, 9)} hours, ${officerTitle} `, name(b, officer, r), ` responded to ${pick(r, ORGS)}.`);
  const witness = person(r);
  b.line('The witness, ', name(b, witness, r), `, stated that the vehicle left northbound about ${int(r, 2, 9)} blocks down Main Street.`);
  b.line(name(b, witness, r, 'last'), ` was interviewed at ${pick(r, ['the scene', 'headquarters', 'her residence', 'his residence'])}; `, name(b, subject, r, 'last'), ' declined to comment.');
  if (chance(r, 0.3)) b.line(`Traffic was diverted at Exit ${int(r, 2, 99)} ${pick(r, STREET_NAMES)} Parkway for ${int(r, 2, 9)} hours.`);
  if (chance(r, 0.5)) b.line('Evidence tag ', `${digits(r, 9)}`, ` and property receipt ${digits(r, 6)} were logged. Total loss ${money(r)}.`);
  if (chance(r, 0.4)) b.line(`Follow-up is assigned to Unit ${int(r, 10, 99)} under ordinance ${int(r, 1, 20)}.${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}.`);
  b.line(`Reporting officer badge ${digits(r, 4)}. Approved by `, name(b, person(r), r), '.');
  return b.build();
}

function email(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`email-${index}`);
  const from = person(r);
  const to = person(r);
  const mail = (p: Person, domain: string) => `${p.first.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')[0]}${p.last.toLowerCase().replace(/[^a-z]/g, '')}@${domain}`;
  b.line('From: ', name(b, from, r), ' <', b.value('email', mail(from, pick(r, ['agency.gov', 'example.org', 'city.example.us']))), '>');
  b.line('To: ', name(b, to, r), ' <', b.value('email', mail(to, pick(r, ['example.com', 'contractor.example.net']))), '>');
  b.line(`Sent: ${pick(r, ['Monday', 'Tuesday', 'Friday'])}, ${date(r, 2020, 2025)} ${int(r, 1, 12)}:${int(r, 10, 59)} ${pick(r, ['AM', 'PM'])}`);
  b.line(`Subject: RE: ${pick(r, ['Budget follow-up', 'Site visit', 'Contract amendment', 'Records request'])} (${caseNumber(r)})`);
  b.line('X-Originating-IP: [', b.value('ip_address', ipv4(r)), ']');
  b.blank();
  b.line(`Hi `, name(b, to, r, 'first'), ',');
  b.line(`Thanks for the update on the ${pick(r, ORGS)} project. Version ${int(r, 1, 12)}.${int(r, 0, 9)}.${int(r, 0, 99)}.${int(r, 100, 9999)} of the portal is live.`);
  const third = person(r);
  b.line('I spoke with ', name(b, third, r), ` yesterday; `, chance(r, 0.5) ? name(b, third, r, 'last') : `the vendor`, ` said the invoice ${caseNumber(r)} is approved for ${money(r)}.`);
  if (chance(r, 0.6)) b.line('Please call me at ', b.value('phone', phone(r)), ` or my cell, ${pick(r, ['not', 'no longer'])} the main line.`);
  if (chance(r, 0.4)) b.line('The login came from ', b.value('ip_address', chance(r, 0.3) ? ipv6(r) : ipv4(r)), ` at ${int(r, 10, 23)}:${int(r, 10, 59)}:${int(r, 10, 59)}.`);
  b.line(`See section ${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)} of the manual and ${pick(r, ORGS)} guidance.`);
  b.blank();
  b.line(pick(r, ['Best,', 'Thanks,', 'Regards,']));
  b.line(name(b, from, r, chance(r, 0.5) ? 'first' : 'full'));
  return b.build();
}

function invoice(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`invoice-${index}`);
  b.line(`${pick(r, ['ACME LOGISTICS INC.', 'Harbor Supply Co.', 'Northwind Traders LLC'])}\tINVOICE ${caseNumber(r)}`);
  address(b, r, '');
  b.line(`Invoice date: ${date(r, 2020, 2025)}\tPO: ${digits(r, 9)}`);
  b.blank();
  b.line('Bill to: ', pick(r, ORGS));
  b.line(`Item\tQty\tAmount`);
  for (let index = 0; index < int(r, 2, 5); index += 1) b.line(`${pick(r, ['Consulting hours', 'Pallets', 'License renewal', 'Freight'])}\t${int(r, 1, 40)}\t${money(r)}`);
  b.line(`Total due\t\t${money(r)}`);
  b.blank();
  b.line('REMITTANCE');
  const routingLabel = pick(r, ['Routing No.: ', 'ABA: ', 'Bank routing number ', 'RTN: ', 'Routing/Transit: ']);
  b.line(routingLabel, b.value('routing_number', routing(r)), `\tAccount: ${digits(r, int(r, 8, 12))}`);
  if (chance(r, 0.5)) b.line('International wires: IBAN ', b.value('iban', iban(r)), `\tBIC ${pick(r, ['DEUTDEFF', 'NWBKGB2L', 'BNPAFRPP'])}`);
  if (chance(r, 0.3)) b.line(`Tracking: ${digits(r, 12)}\tClaim ${routing(r)}`);
  if (chance(r, 0.4)) b.line(`Routing: ${routing(r, false)} (superseded; do not use)`);
  if (chance(r, 0.4)) b.line(`Old IBAN ${iban(r, false)} is closed.`);
  if (chance(r, 0.5)) b.line('Card on file: ', b.value('payment_card', card(r)), ` exp ${int(r, 1, 12)}/${int(r, 26, 31)}`);
  if (chance(r, 0.4)) b.line(`Order reference ${card(r, false)} (not a card number)`);
  if (chance(r, 0.3)) b.line(`Visa ending in ${digits(r, 4)} was declined on ${date(r, 2021, 2025)}.`);
  if (chance(r, 0.4)) b.line(`Member ID ${pick(r, ['4', '5', '6'])}${digits(r, 15)} (loyalty program)`);
  b.line(`Questions: accounts receivable, `, b.value('phone', phone(r)), '.');
  return b.build();
}

function hrForm(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`hr-${index}`);
  const employee = person(r);
  b.line(`EMPLOYEE TRAVEL AUTHORIZATION\tForm ${pick(r, ['SF-1012', 'TA-7', 'HR-22'])}`);
  b.line('Employee: ', name(b, employee, r, chance(r, 0.5) ? 'full' : 'upper-inverted'), `\tEmployee ID: ${digits(r, 6)}`);
  b.line(pick(r, ['Date of Birth: ', 'Birth date: ', 'DOB ']), b.value('date_of_birth', date(r, 1950, 2003)), `\tStart date: ${date(r, 2000, 2024)}`);
  b.line(pick(r, ['Passport Number: ', 'Passport No. ', 'Passport #: ', 'U.S. passport number ', 'PP#: ', 'Passport (book) no. ']), b.value('passport_number', passport(r)), `\tExpires: ${date(r, 2026, 2034)}`);
  if (chance(r, 0.5)) b.line(`Passport photo taken ${date(r, 2019, 2024)}; reference ${digits(r, 9)}.`);
  b.line('Home address: ');
  address(b, r, '');
  b.line('Emergency contact: ', name(b, person(r), r), ', ', b.value('phone', phone(r)));
  if (chance(r, 0.6)) b.line('Direct deposit: routing ', b.value('routing_number', routing(r)), `, account ${digits(r, 10)}`);
  if (chance(r, 0.4)) b.line('Travel card: ', b.value('payment_card', card(r)));
  if (chance(r, 0.4)) b.line('Per diem abroad to account ', b.value('iban', iban(r)), ` (${pick(r, ['EUR', 'GBP'])}).`);
  b.line(`Destination: ${pick(r, ['Denver, CO', 'Austin, TX', 'Geneva', 'Ottawa'])}\tCost estimate: ${money(r)}`);
  b.line(`Approved ${date(r, 2020, 2025)} by `, pick(r, ['Supervisor', 'Director']), ' ', name(b, person(r), r), '.');
  return b.build();
}

function serverLog(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`log-${index}`);
  b.line(`Access log export for ${pick(r, ['portal.example.gov', 'records.example.org'])} (build ${int(r, 1, 9)}.${int(r, 0, 9)}.${int(r, 0, 9)}.${int(r, 100, 999)})`);
  for (let index = 0; index < int(r, 6, 14); index += 1) {
    const stamp = `${int(r, 2021, 2025)}-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')} ${int(r, 10, 23)}:${int(r, 10, 59)}:${int(r, 10, 59)}`;
    const who = chance(r, 0.3) ? person(r) : null;
    const address = chance(r, 0.15) ? `[${ipv6(r)}]:${int(r, 1024, 65535)}` : chance(r, 0.1) ? ipv4(r).split('.').map((part) => part.padStart(3, '0')).join('.') : chance(r, 0.2) ? ipv6(r) : ipv4(r);
    b.line(`${stamp} `, b.value('ip_address', address), ` GET /records/${digits(r, 6)} 200 ${int(r, 100, 99999)}`, ...(who ? [' user=', b.value('email', `${who.last.toLowerCase().replace(/[^a-z]/g, '')}${int(r, 1, 99)}@example.com`)] : []));
  }
  b.line(`OID ${int(r, 1, 2)}.${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)} and schema ${int(r, 1, 9)}.${int(r, 0, 9)}.${int(r, 0, 9)} were loaded.`);
  return b.build();
}

function memo(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`memo-${index}`);
  const author = person(r);
  const interviewee = person(r);
  const other = person(r);
  b.line('MEMORANDUM FOR THE RECORD');
  b.line('FROM: ', name(b, author, r));
  b.line(`SUBJECT: Interview regarding ${pick(r, ORGS)}`);
  b.line(`DATE: ${date(r, 2019, 2025)}`);
  b.blank();
  b.line(name(b, interviewee, r), ` was interviewed at the ${pick(r, ORGS)} office on ${date(r, 2019, 2025)}.`);
  b.line(`${pick(r, ['Also present was', 'Present as counsel was', 'Joining by phone was'])} ${pick(r, [...TITLES_F, ...TITLES_M])} `, name(b, other, r), '.');
  b.line(name(b, interviewee, r, 'last'), ` explained that the ${pick(r, ORGS)} grant was reviewed in ${pick(r, MONTHS)}.`);
  b.line(`According to `, name(b, interviewee, r, 'last'), ', ', name(b, other, r, 'last'), `'s office approved the ${pick(r, ['transfer', 'payment', 'extension'])}.`);
  if (chance(r, 0.5)) b.line(`The interviewee was born on `, b.value('date_of_birth', date(r, 1945, 2000)), ` and has worked for the agency since ${int(r, 1990, 2020)}.`);
  if (chance(r, 0.5)) b.line('The interviewee lives at ', b.value('street_address', `${streetLine(r)}, ${cityLine(r)}`), '.');
  if (chance(r, 0.4)) b.line(`In ${int(r, 2001, 2020)} Main Street Festival planning moved to Route ${int(r, 1, 99)} and Building ${int(r, 1, 30)}.`);
  if (chance(r, 0.4)) b.line(`The ${pick(r, ['Washington Post', 'Morgan Stanley report', 'Grant Program review', 'Lincoln Memorial visit'])} was discussed briefly.`);
  if (chance(r, 0.3)) poBox(b, r);
  if (chance(r, 0.3)) b.line(`The ${pick(r, ['initiative', 'program', 'task force'])} was born on ${date(r, 2005, 2020)} after a ${pick(r, MONTHS)} audit.`);
  if (chance(r, 0.2)) b.line(`A passport application number ${digits(r, 9)} was cited in the complaint.`);
  b.pageBreak();
  b.line(`Page 2 - Interview of `, name(b, interviewee, r, 'last'));
  b.line(`${pick(r, ['Later,', 'Afterwards,', 'Finally,'])} `, name(b, other, r), ` provided a phone number, `, b.value('phone', phone(r)), ', and an email address, ', b.value('email', `${other.first.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}@example.net`), '.');
  if (chance(r, 0.4)) b.line('Passport ', b.value('passport_number', passport(r)), ` was shown; the OLN was not recorded.`);
  b.line(`Prepared by `, name(b, author, r, 'last'), `, ${pick(r, ['Investigator', 'Special Agent', 'Auditor'])}.`);
  return b.build();
}


function courtCaption(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`court-${index}`);
  const plaintiff = person(r);
  const defendant = person(r);
  b.line(`IN THE ${pick(r, ['CIRCUIT COURT OF COOK COUNTY', 'DISTRICT COURT FOR THE DISTRICT OF COLUMBIA', 'SUPERIOR COURT OF ARIZONA'])}`);
  b.blank();
  b.line(name(b, plaintiff, r, 'full-upper'), ',');
  b.line('\tPlaintiff,');
  b.line('v.\tCase No. ', `${int(r, 1, 9)}:${int(r, 18, 25)}-cv-${digits(r, 5)}`);
  b.line(name(b, defendant, r, 'full-upper'), chance(r, 0.4) ? ', JR.' : '', ',');
  b.line('\tDefendant.');
  b.blank();
  b.line(`DECLARATION OF ${pick(r, ['RECORDS CUSTODIAN', 'SPECIAL AGENT', 'CUSTODIAN OF RECORDS'])}`);
  const declarant = person(r);
  b.line('I, ', name(b, declarant, r), ', declare as follows:');
  b.line(`1. I am employed by the ${pick(r, ORGS)} and have personal knowledge of the facts stated here.`);
  b.line(`2. On ${date(r, 2018, 2025)}, Plaintiff ${pick(r, ['submitted', 'mailed'])} a request to our office at `, b.value('street_address', `${streetLine(r)}, ${cityLine(r)}`), '.');
  b.line(`3. The search covered ${int(r, 2, 40)} custodians, including `, name(b, person(r), r), ' and ', name(b, person(r), r), '.');
  b.line(`4. Exhibit ${pick(r, ['A', 'B', 'C'])} lists ${int(r, 10, 900)} pages; Exhibit ${pick(r, ['D', 'E'])} is the Vaughn index.`);
  if (chance(r, 0.5)) b.line('5. Records of ', name(b, defendant, r, 'last'), ` include an account at ${pick(r, ['Bank of America', 'Wells Fargo Bank'])}, routing `, b.value('routing_number', routing(r)), '.');
  b.line('I declare under penalty of perjury that the foregoing is true and correct.');
  b.line(`Executed on ${date(r, 2019, 2025)} in ${pick(r, CITIES)[0]}.`);
  b.blank();
  b.line('/s/ ', name(b, declarant, r));
  return b.build();
}

function caseNotes(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`notes-${index}`);
  const client = person(r);
  b.line(`CASE NOTES - ${caseNumber(r)}`);
  b.line(`${date(r, 2021, 2025)}: Phone call with `, name(b, client, r), '. Callback number ', b.value('phone', phone(r)), '.');
  b.line(`${date(r, 2021, 2025)}: Client reports new address `, b.value('street_address', streetLine(r)), '.');
  b.line(`${date(r, 2021, 2025)}: Verified identity (SSN ending ${digits(r, 4)}; full SSN `, b.value('ssn', ssn(r).text), ' on file).');
  if (chance(r, 0.5)) b.line(`${date(r, 2021, 2025)}: Client's son, `, name(b, person(r), r), ', was also present. Their DOB: ', b.value('date_of_birth', date(r, 1990, 2015)), '.');
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: Payment attempted with card `, b.value('payment_card', card(r)), `; declined.`);
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: Device IMEI ${imei(r)} recorded for the lost phone report.`);
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: Tax ID ${digits(r, 2)}-${digits(r, 7)} (employer) and ITIN 9${digits(r, 2)}-7${digits(r, 1)}-${digits(r, 4)} noted.`);
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: Mailed packet via tracking ${luhnNumber(r, '9', 16)}.`);
  if (chance(r, 0.5)) b.line(`${date(r, 2021, 2025)}: Library card no. ${pick(r, ['4', '5'])}${digits(r, 15)} renewed; firmware ${int(r, 1, 9)}.${int(r, 0, 9)}.${int(r, 0, 9)}.${int(r, 1, 9)} installed on the kiosk.`);
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: `, name(b, client, r, 'last'), ` emailed from `, b.value('email', `${client.first.toUpperCase().normalize('NFD').replace(/[^A-Z]/g, '')}.${client.last.toUpperCase().replace(/[^A-Z]/g, '')}@EXAMPLE.ORG`), '.');
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: ISBN ${978}-${int(r, 0, 1)}-${digits(r, 3)}-${digits(r, 5)}-${int(r, 0, 9)} requested from library; fax to ${int(r, 20500, 20599)}-${digits(r, 4)} zone.`);
  if (chance(r, 0.4)) b.line(`${date(r, 2021, 2025)}: Login from `, b.value('ip_address', `${ipv4(r)}:${pick(r, ['443', '8080', '22'])}`), '.');
  if (chance(r, 0.5)) {
    const passportId = chance(r, 0.3);
    const label = passportId ? 'passport' : pick(r, ["driver's license", 'DL', 'CDL']);
    b.line(`${date(r, 2021, 2025)}: ID checked: ${label} `, passportId ? b.value('passport_number', passport(r)) : b.value('drivers_license', license(r)), '.');
  }
  b.line(`Case worker: `, name(b, person(r), r), `, ext. ${int(r, 100, 999)}`);
  return b.build();
}

function check(r: Rng, index: number): CorpusDocument {
  const b = new DocumentBuilder(`check-${index}`);
  const payer = person(r);
  b.line(name(b, payer, r, 'full-upper'));
  const payerAddress = b.value('street_address', streetLine(r).toUpperCase());
  b.line(payerAddress);
  b.line(b.value('street_address', cityLine(r).toUpperCase(), payerAddress.id));
  b.line(`\t\tDate ${date(r, 2022, 2025)}`);
  b.line('PAY TO THE ORDER OF ', pick(r, ORGS).toUpperCase(), `\t${money(r)}`);
  b.line(`${pick(r, ['Memo', 'For'])}: ${pick(r, ['permit fee', 'records copies', 'fine'])} ${caseNumber(r)}`);
  b.line(`Check No. ${int(r, 1000, 9999)}`);
  // MICR line: transit symbol, routing number, account, check number.
  b.line('⑆', b.value('routing_number', routing(r)), `⑆ ${digits(r, 10)}⑈ ${int(r, 1000, 9999)}`);
  return b.build();
}

const KINDS = [letter, incidentReport, email, invoice, hrForm, serverLog, memo, courtCaption, caseNotes, check] as const;

/** `count` documents from `seed`, cycling through the document types. */
export function generateCorpus(seed: number, count: number): CorpusDocument[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, index) => (KINDS[index % KINDS.length] as (r: Rng, index: number) => CorpusDocument)(r, index));
}
