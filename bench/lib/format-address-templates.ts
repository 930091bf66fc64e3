// How the street line (%A) is written in each country of the generated address set, and its country
// groups. Written for this project from general knowledge of each language's street words; the street
// names and towns filled in come from openly licensed lists (format-address-corpus.ts), never from
// ../shared/corpora/realdata.

export type Group = 'north-america' | 'uk-ireland' | 'western-europe' | 'nordic' | 'greece-cyprus' | 'central-eastern-europe' | 'oceania' | 'latin-america' | 'asia' | 'military';

/** {n} house number, {N} street name (a surname or place word), {m} a second number (flat, door). */
export interface CountrySpec {
  key: string;
  group: Group;
  streets: readonly string[];
  /** Native names of the country, written after the address at times (the English name comes from the data). */
  names?: readonly string[];
}

export const COUNTRY_SPECS: readonly CountrySpec[] = [
  { key: 'US', group: 'north-america', streets: ['{n} {N} Street', '{n} {N} Ave', '{n} N {N} Blvd', '{n} {N} Road, Apt {m}', '{n} {N} Drive', '{n} {N} Lane', '{n} {N} Ct'] },
  { key: 'CA', group: 'north-america', streets: ['{n} {N} Street', '{n} {N} Avenue', '{m}-{n} {N} Road', '{n} rue {N}', '{n} {N} Crescent'] },
  { key: 'GB', group: 'uk-ireland', streets: ['{n} {N} Road', '{n} {N} Street', 'Flat {m}, {n} {N} Lane', '{n} {N} Close', '{n} {N} Crescent', '{N} House, {n} {N} Street', '{n} {N} Gardens'] },
  { key: 'IE', group: 'uk-ireland', streets: ['{n} {N} Road', '{n} {N} Street', 'Apartment {m}, {N} Court', '{n} {N} Avenue', '{n} {N} Park'] },
  { key: 'DE', group: 'western-europe', streets: ['{N}straße {n}', '{N}str. {n}', '{N}weg {n}', '{N}er Straße {n}', '{N}platz {n}', '{N}allee {n}a'], names: ['Deutschland'] },
  { key: 'AT', group: 'western-europe', streets: ['{N}gasse {n}', '{N}straße {n}/{m}', '{N}weg {n}', '{N}platz {n}'], names: ['Österreich'] },
  { key: 'CH', group: 'western-europe', streets: ['{N}strasse {n}', '{N}weg {n}', 'Rue {N} {n}', 'Via {N} {n}'], names: ['Schweiz', 'Suisse', 'Svizzera'] },
  { key: 'FR', group: 'western-europe', streets: ['{n} rue {N}', '{n}, avenue {N}', '{n} boulevard {N}', '{n} bis rue de la {N}', '{n} place {N}', '{n} chemin des {N}'] },
  { key: 'BE', group: 'western-europe', streets: ['{N}straat {n}', 'Rue {N} {n}', 'Avenue {N} {n}', '{N}laan {n} bus {m}'], names: ['België', 'Belgique'] },
  { key: 'NL', group: 'western-europe', streets: ['{N}straat {n}', '{N}laan {n}', '{N}weg {n}-{m}', '{N}gracht {n}', '{N}plein {n}'], names: ['Nederland'] },
  { key: 'LU', group: 'western-europe', streets: ['{n}, rue {N}', '{n} avenue {N}', '{n} boulevard {N}'] },
  { key: 'IT', group: 'western-europe', streets: ['Via {N} {n}', 'Via {N}, {n}', 'Viale {N} {n}', 'Piazza {N} {n}', 'Corso {N} {n}'], names: ['Italia'] },
  { key: 'ES', group: 'western-europe', streets: ['Calle {N} {n}', 'Calle de {N}, {n}', 'Avenida {N} {n}, {m}º', 'Paseo de {N} {n}', 'Plaza {N} {n}', 'C/ {N}, {n}'], names: ['España'] },
  { key: 'PT', group: 'western-europe', streets: ['Rua {N}, {n}', 'Avenida {N} {n}', 'Rua de {N} {n}, {m}º', 'Travessa {N} {n}'] },
  { key: 'SE', group: 'nordic', streets: ['{N}gatan {n}', '{N}vägen {n}', '{N}s väg {n}', '{N}gränd {n}'], names: ['Sverige'] },
  { key: 'NO', group: 'nordic', streets: ['{N}veien {n}', '{N} gate {n}', '{N}gata {n}', '{N}vegen {n}B'], names: ['Norge'] },
  { key: 'DK', group: 'nordic', streets: ['{N}vej {n}', '{N}gade {n}, {m}. th.', '{N}s Allé {n}', '{N}vej {n}, st.'], names: ['Danmark'] },
  { key: 'FI', group: 'nordic', streets: ['{N}katu {n}', '{N}tie {n} A {m}', '{N}nkatu {n}', '{N}kuja {n}'], names: ['Suomi'] },
  { key: 'IS', group: 'nordic', streets: ['{N}gata {n}', '{N}vegur {n}', '{N}stræti {n}'], names: ['Ísland'] },
  { key: 'GR', group: 'greece-cyprus', streets: ['{G} {n}', 'Odos {N} {n}', 'Leoforos {N} {n}', '{N} Street {n}', 'Οδός {G} {n}'], names: ['Ελλάδα', 'Hellas'] },
  { key: 'CY', group: 'greece-cyprus', streets: ['{n} {N} Avenue', '{N} Street {n}', '{G} {n}', 'Λεωφόρος {G} {n}', '{n} {N} Street, Flat {m}'], names: ['Κύπρος'] },
  { key: 'PL', group: 'central-eastern-europe', streets: ['ul. {N} {n}', 'ul. {N} {n}/{m}', 'al. {N} {n}', 'Plac {N} {n}'], names: ['Polska'] },
  { key: 'CZ', group: 'central-eastern-europe', streets: ['{N}ova {n}/{m}', '{N}ská {n}', 'Náměstí {N} {n}'], names: ['Česko', 'Czech Republic'] },
  { key: 'SK', group: 'central-eastern-europe', streets: ['{N}ova {n}', '{N}ská {n}/{m}'], names: ['Slovensko'] },
  { key: 'HU', group: 'central-eastern-europe', streets: ['{N} utca {n}.', '{N} út {n}', '{N} tér {n}'], names: ['Magyarország'] },
  { key: 'RO', group: 'central-eastern-europe', streets: ['Strada {N} {n}', 'Str. {N} nr. {n}', 'Bulevardul {N} {n}'], names: ['România'] },
  { key: 'AU', group: 'oceania', streets: ['{n} {N} Street', '{m}/{n} {N} Road', 'Unit {m}, {n} {N} Parade', '{n} {N} Avenue', 'Level {m}, {n} {N} St'] },
  { key: 'NZ', group: 'oceania', streets: ['{n} {N} Street', '{m}/{n} {N} Road', '{n} {N} Terrace', 'Flat {m}, {n} {N} Avenue'] },
  { key: 'MX', group: 'latin-america', streets: ['Calle {N} {n}', 'Av. {N} {n}, Col. {N}', 'Avenida {N} {n} Int. {m}', 'Calle {N} No. {n}'], names: ['México'] },
  { key: 'BR', group: 'latin-america', streets: ['Rua {N}, {n}', 'Avenida {N}, {n}, apto {m}', 'Rua {N} {n} - {N}'], names: ['Brasil'] },
  { key: 'AR', group: 'latin-america', streets: ['Av. {N} {n}', 'Calle {N} {n}, piso {m}'] },
  { key: 'CL', group: 'latin-america', streets: ['Avenida {N} {n}', 'Calle {N} {n}, depto. {m}'] },
  { key: 'CO', group: 'latin-america', streets: ['Calle {n} # {m}-{n}', 'Carrera {m} # {n}-{m}'] },
  { key: 'IN', group: 'asia', streets: ['{n}, {N} Road', 'Flat No. {m}, {N} Nagar', 'H.No. {n}-{m}, {N} Colony', '{n} {N} Marg'] },
  { key: 'SG', group: 'asia', streets: ['{n} {N} Road', 'Blk {n} {N} Avenue {m}, #0{m}-{n}', '{n} {N} Street'] },
  { key: 'JP', group: 'asia', streets: ['{m}-{m}-{n} {N}', '{N} Building {m}F, {m}-{m}-{n} {N}'] },
];

/** Greek street names in Greek script (genitive, as signs write them), for GR and CY lines; own list. */
export const GREEK_STREETS = ['Ερμού', 'Αθηνάς', 'Σταδίου', 'Πανεπιστημίου', 'Ακαδημίας', 'Μητροπόλεως', 'Πατησίων', 'Ομήρου', 'Σόλωνος', 'Ιπποκράτους', 'Μακαρίου', 'Αρχιεπισκόπου Κυπριανού'];
/** Greek towns in Greek script (own list). */
export const GREEK_TOWNS = ['Αθήνα', 'Θεσσαλονίκη', 'Πάτρα', 'Ηράκλειο', 'Λάρισα', 'Βόλος', 'Λευκωσία', 'Λεμεσός', 'Λάρνακα', 'Πάφος'];

/** Military mail (US Postal Service, DMM 703.2): unit or ship lines over APO/FPO/DPO with AA/AE/AP and ZIP. */
export const MILITARY = [
  'PSC {m}, Box {n}\nAPO AE 09{z}',
  'Unit {m} Box {n}\nAPO AP 96{z}',
  'CMR {m}, Box {n}\nAPO AE 09{z}',
  'USS {N} (CVN {m})\nFPO AP 96{z}',
  'Unit {m}\nDPO AE 09{z}',
  'PSC {m} Box {n}, APO AA 340{z2}',
];
