import { FIRST_NAMES, SURNAMES } from './name-lists.js';
import { commonWord } from './name-shape.js';
import type { TermContext } from './name-precision.js';

// Thirteenth round (issue 28): German prose in technical documents, language names, a publisher's imprint printed
// without brackets, a place before a US state, a code call's argument. Technical text only; the word classes are
// written for this project, not drawn from any document.

const known = (word: string) => FIRST_NAMES.has(word) || SURNAMES.has(word);

/**
 * German articles, determiners, prepositions, conjunctions and adverbs, capitalised where they open a sentence:
 * no name holds one. Left out are those that are names' particles or names of their own (der, den, des, dem, das,
 * da, zu, im, so, um, bei, nur, weil, dann, von: "Van Der Merwe", "Das", "Weil", "Nur").
 */
const GERMAN_FUNCTION_WORDS = new Set(
  `die ein eine einen einem einer eines kein keine keinen keinem keiner zum zur vom beim ins mit als für über auf aus
  nach seit durch gegen ohne zwischen wie wenn dass oder und sondern denn dieser diese dieses diesem diesen jeder jede
  jedes jedem jeden alle weitere weiteren hier dort auch noch dabei damit daher dazu nachdem falls zuerst zunächst
  sowie jedoch wird werden ist sind kann können muss`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * The endings of German abstract nouns: -ung after l t d r g k n z (not h: Wade–Giles given names "…chung"), -ungen,
 * -keit, -schaft, -ität, -ismus; -heit is left out (Fahrenheit).
 */
const GERMAN_NOUN = /^\p{L}{3,}(?:[ltdrgknz]ung|ungen|keit|keiten|schaft|schaften|ität|itäten|ismus)$/u;

/** Whether a word (bare, lower-cased) is a German function word of the list above. */
export const germanFunctionWord = (word: string) => GERMAN_FUNCTION_WORDS.has(word);

/** Whether a word (bare, lower-cased) of eight letters or more has a German abstract noun's ending and is no known name. */
export const germanNounShaped = (word: string) => word.length >= 8 && GERMAN_NOUN.test(word) && !known(word);

/**
 * Whether a candidate of technical text holds a capitalised German function word or a German abstract noun
 * ("Zum Beispiel", "Die Ausgabe", "Eine Gruppe von Optionen", "Weitere Einstellungen", "Anzeige von
 * Urteilsanmerkungen"): German prose capitalises its nouns, and the tagger reads them as names.
 */
export function germanInside(value: string, context: TermContext): boolean {
  if (!context.technical) return false;
  return (value.match(/\p{L}+/gu) ?? []).some((word) => (/^\p{Lu}/u.test(word) && germanFunctionWord(word.toLowerCase())) || germanNounShaped(word.toLowerCase()));
}

const YEAR = String.raw`c?(?:1[5-9]|20)\d{2}[a-z]?(?!\d)`;
const PLACE_WORD = String.raw`\p{Lu}[\p{L}.’'-]*`;
/**
 * A reference's imprint without brackets, "Place: Publisher, Year": "Reading, MA : Addison-Wesley, 1997", "New York,
 * Evanston, and London: Harper & Row)". It opens after a sentence's end, a dash, a bracket or a line break; the
 * place holds only capitalised words (commas and "and" between them); the publisher runs to the year or the bracket.
 */
const BARE_IMPRINT = new RegExp(
  String.raw`(?:^|\n|[.–—;(][ \t]+|\()(${PLACE_WORD}(?:(?:[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+(?:and[ \t]+)?)${PLACE_WORD})*)[ \t]*:[ \t]+([^():;\n]{2,80}?)(?:,[ \t]*${YEAR}|\))`,
  'gu',
);
/**
 * Whether a person candidate of technical text is a place or publisher of an imprint printed without brackets
 * (`BARE_IMPRINT`). A place whose first word is a common English word needs a state's or country's code ("Reading,
 * MA"), so that a label ("Copyright: Jane Doe, 2019") is no place; a first word that is a known given name is kept.
 */
export function bareImprint(text: string, start: number, end: number, context: TermContext): boolean {
  if (!context.technical) return false;
  const first = (text.slice(start, end).match(/\p{L}+/u)?.[0] ?? '').toLowerCase();
  if (FIRST_NAMES.has(first)) return false;
  const from = Math.max(0, start - 160);
  for (const match of text.slice(from, Math.min(text.length, end + 120)).matchAll(BARE_IMPRINT)) {
    const place = match[1] as string;
    const placeFirst = (place.match(/\p{L}+/u)?.[0] ?? '').toLowerCase();
    if (commonWord(placeFirst) && !/,[ \t]*\p{Lu}{2,3}\b/u.test(place)) continue;
    const open = from + match.index + match[0].indexOf(place);
    const close = from + match.index + match[0].length;
    if (start >= open && end <= close) return true;
  }
  return false;
}

/** Names of languages as a document's tables and menus print them, in English and in their own language. */
const LANGUAGE_NAMES = new Set(
  `english german deutsch french français francais spanish español espanol italian italiano dutch nederlands portuguese
  português russian polish polski czech čeština swedish svenska danish dansk norwegian norsk finnish suomi greek latin
  hebrew arabic chinese japanese korean turkish türkçe hungarian magyar`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Whether a candidate of technical text is two words or more, all names of languages ("Deutsch English" heading a
 * table's columns): no person, although English and Deutsch are also surnames, which stay alone or with a given name.
 */
export function languageNames(value: string, context: TermContext): boolean {
  const words = (value.match(/\p{L}+/gu) ?? []).map((word) => word.toLowerCase());
  return context.technical && words.length >= 2 && words.every((word) => LANGUAGE_NAMES.has(word));
}

/**
 * US states, written out, that are no given names (Virginia, Georgia, Carolina, Indiana, Dakota, Montana, Florida,
 * Nevada are left out) nor surnames (Washington).
 */
const US_STATES = `New Jersey|New York|New Mexico|New Hampshire|North Carolina|South Carolina|North Dakota|South Dakota|West Virginia|Rhode Island|California|Massachusetts|Pennsylvania|Illinois|Connecticut|Michigan|Wisconsin|Minnesota|Colorado|Arizona|Oregon|Texas|Ohio|Utah|Maryland|Delaware|Kentucky|Tennessee|Alabama|Mississippi|Louisiana|Arkansas|Missouri|Oklahoma|Kansas|Nebraska|Iowa|Idaho|Wyoming|Alaska|Hawaii|Maine|Vermont`;
/** ", State" closed by punctuation or the line's end, after at most two more capitalised words (a recurring "Murray" of "Murray Hill"). */
const STATE_AFTER = new RegExp(String.raw`^(?:[ \t]+\p{Lu}[\p{L}'’-]*){0,2},[ \t]*(?:${US_STATES})[ \t]*(?:[,.;)]|\n|$)`, 'u');

/**
 * Whether a candidate of technical text stands before ", State" ("AT&T Bell Laboratories, Murray Hill, New Jersey,
 * 1990"): a town, as a country after it makes one (`placeBeforeCountry`). The candidate may end in its comma.
 */
export function placeBeforeState(text: string, end: number, context: TermContext): boolean {
  return context.technical && STATE_AFTER.test(`${text.charAt(end - 1) === ',' ? ',' : ''}${text.slice(end, end + 40)}`);
}

/**
 * Whether a candidate of technical text is an argument of a call written as code, glued to the function's name and
 * its bracket and followed by a comma or the closing bracket ("feeds(Pedro,X)"): a term of the code, no person.
 */
export function codeArgument(text: string, start: number, end: number, context: TermContext): boolean {
  return context.technical && /[\p{L}\p{N}_]\($/u.test(text.slice(Math.max(0, start - 2), start)) && /^[,)]/u.test(text.slice(end, end + 1));
}
