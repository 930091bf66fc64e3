import { ADDRESS_FORMATS } from './address-format-data.js';

// Words around the format-based address blocks (addresses-format.ts): country names (libaddressinput's
// English names, and each country's own name, written for this project), street type words in the
// languages of the formats, unit parts, and words after which a number is no house number.

/** Countries' own names and the common English short forms; the English names come from the data. */
const OWN_NAMES = [
  'Deutschland', 'Österreich', 'Schweiz', 'Suisse', 'Svizzera', 'España', 'Italia', 'Nederland', 'België', 'Belgique', 'Belgien', 'Luxembourg',
  'Sverige', 'Norge', 'Danmark', 'Suomi', 'Ísland', 'Ελλάδα', 'Ελλάς', 'Hellas', 'Κύπρος', 'Kıbrıs', 'Polska', 'Česko', 'Česká republika',
  'Czech Republic', 'Czech Rep.', 'Slovensko', 'Slovak Republic', 'Magyarország', 'România', 'Hrvatska', 'Slovenija', 'México', 'Brasil',
  'Éire', 'Great Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland', 'UK', 'U.K.', 'USA', 'U.S.A.', 'United States of America',
  'Nippon', 'Bharat', 'Türkiye', 'Россия', 'Україна',
];

const titleCase = (upper: string) => upper.toLowerCase().replace(/(^|[\s(-])\p{L}/gu, (letter) => letter.toUpperCase());
const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const NAMES = [
  ...new Set(
    [...ADDRESS_FORMATS.flatMap((format) => [format.name, format.name.replace(/\s*\(.*\)$/, '')]).flatMap((name) => [name, titleCase(name)]), ...OWN_NAMES, ...OWN_NAMES.map((name) => name.toUpperCase())].filter(
      (name) => name.length >= 2,
    ),
  ),
].sort((a, b) => b.length - a.length);

/** The country's name right after an address: after a comma or on the next line, alone on its part. */
export const COUNTRY_NAME = new RegExp(`^(?:,? ?\\n[ \\t]*|, ?| - )(?:${NAMES.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'u');

// Street types written into the name (Storgatan, Perryvegen, Hauptstraße, Puškinova) or as a word of their own.
const TYPE_ENDINGS = [
  'straße', 'strasse', 'str.', 'weg', 'gasse', 'platz', 'allee', 'ring', 'damm', 'ufer', 'laan', 'straat', 'gracht', 'plein', 'kade', 'dijk', 'vej', 'gade',
  'gatan', 'vägen', 'väg', 'gränd', 'veien', 'vegen', 'vegur', 'gata', 'gate', 'stræti', 'stígur', 'braut', 'katu', 'tie', 'kuja', 'polku', 'ova', 'ská', 'ská',
  'ovo', 'ová', 'ulica', 'utca', 'allé', 'plads', 'torv', 'torget', 'stræde', 'singel', 'steeg', 'dreef',
];
const TYPE_WORDS = [
  'Rue', 'Avenue', 'Av.', 'Boulevard', 'Bd', 'Chemin', 'Place', 'Allée', 'Impasse', 'Quai', 'Route', 'Calle', 'C/', 'Avenida', 'Avda.', 'Paseo', 'Plaza',
  'Camino', 'Carrer', 'Carrera', 'Via', 'Viale', 'Piazza', 'Corso', 'Largo', 'Rua', 'Travessa', 'Praça', 'Ulica', 'ul.', 'Aleja', 'al.', 'Plac', 'Osiedle',
  'os.', 'Strada', 'Str.', 'Bulevardul', 'Calea', 'Odos', 'Odós', 'Οδός', 'Οδος', 'Leoforos', 'Leof.', 'Λεωφόρος', 'Λεωφ.', 'Plateia', 'Πλατεία',
  'Náměstí', 'Námestie', 'třída', 'út', 'utca', 'tér', 'Street', 'St', 'Road', 'Rd', 'Avenue', 'Ave', 'Lane', 'Drive', 'Close', 'Crescent', 'Terrace',
  'Parade', 'Court', 'Marg', 'Nagar', 'Colony',
];
/** One word holding a name and its street type (Lindenstraße, Perryvegen, Puškinova). */
export const COMPOUND_STREET = new RegExp(`^\\p{Lu}\\p{Ll}+(?:${TYPE_ENDINGS.map(escape).join('|')})$`, 'u');
export const STREET_TYPE = new RegExp(
  `(?:${TYPE_ENDINGS.map(escape).join('|')})(?![\\p{L}])|(?<![\\p{L}])(?:${TYPE_WORDS.map(escape).join('|')})(?![\\p{L}])`,
  'iu',
);

/** A flat, floor, door or district part written beside the street (7º, piso 4, 2. th., Col. Roma, bus 3). */
export const UNIT_PART =
  /^(?:(?:Flat|Apt|Apartment|Unit|Suite|Ste|Level|Floor|Fl|Room|Rm|Piso|Planta|Apto|Depto|Dpto|Int|Bus|Top|Stiege|Stg|Tür|Whg|Wohnung|Esc|Puerta|Lgh|Étage|Bât|Bâtiment|Block|Blk|Col|Colonia|Bairro)\.? ?[\p{L}\p{N}#-]{0,12}(?: \p{Lu}\p{L}+){0,3}|\d{1,2}[º°ª](?: ?[A-Z])?|\d{1,2}\. ?(?:th|tv|mf|sal)\.?|st\.?|#\d{2}-\d{2,4})$/iu;

/** Words after which a number counts something else (Section 5, Flight 217, Table 3), in lower case. */
export const STOP_WORDS = new Set(
  `section sections sec chapter article art table figure fig page pages pp part item step phase version rule order case no number flight gate vol
volume issue appendix exhibit schedule grade class line row column title act note question round week day year month january february march april
may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
saturday sunday population census tel phone fax isbn invoice model ref pallet units clause paragraph para band track episode season series game match
score total revision rev build release module chart slide lot serial account policy claim ticket docket file form budget eur usd gbp chf sek nok dkk
copyright ltd inc corp corporation company gmbh llc plc co`.split(/\s+/),
);
