// What may stand around a street line that a street rule of addresses.ts found: a flat, apartment, unit or
// suite before it (Flat 5, 23 High Street; Apt. 3B, 500 Main Street; the Australian 7/15 Beach Road), and the
// town and postcode after it on the same line or on the next two (UK, Irish Eircode, Canadian, Australian,
// Indian PIN, a European postcode before its town), optionally with the country. Written from the postal
// formats themselves; only a strict postcode closes the tail, so a town name alone never extends a street.

const WORD = "\\p{Lu}[\\p{L}'’.-]*";
// A town, county or district part: one to three capitalised words, a Dublin district number (Dublin 4).
const TOWN_PART = `(?:${WORD}(?: ${WORD}){0,2}(?: \\d{1,2}(?![\\p{L}\\p{N}]))?)`;
const SEP = '(?:,? ?\\n[ \\t]*|, ?| )';
const AU_STATES = 'NSW|VIC|QLD|SA|WA|TAS|NT|ACT|Vic|Qld|Tas';
const CA_PROVINCES = 'AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT';
// Postcodes that close the tail by their shape alone.
const POSTCODES = [
  '[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}', // UK
  `(?:(?:${CA_PROVINCES}),? )?[A-Z]\\d[A-Z] ?\\d[A-Z]\\d`, // Canada
  '(?:[AC-FHKNPRTV-Y]\\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}', // Irish Eircode
  `(?:${AU_STATES}) \\d{4}`, // Australia: state and postcode
  '(?:- ?)?[1-8]\\d{2} ?\\d{3}', // India: six-digit PIN
];
const POSTCODE_END = POSTCODES.join('|');
const COUNTRY = '(?:United Kingdom|UK|England|Scotland|Wales|Northern Ireland|Ireland|Canada|Australia|India|New Zealand)';
// The town parts, then the postcode; or a European postcode (optionally with its country letter) before the town.
const TAIL = new RegExp(
  `^(?:${SEP}${TOWN_PART}){0,3}${SEP}(?:${POSTCODE_END})(?:${SEP}${COUNTRY})?(?![\\p{L}\\p{N}])` +
    // Four digits after the town (New Zealand, South Africa) only with the country; Singapore's six.
    `|^(?:${SEP}${TOWN_PART}){1,2} \\d{4}${SEP}(?:New Zealand|NZ|South Africa|Australia)(?![\\p{L}\\p{N}])` +
    `|^${SEP}Singapore \\d{6}(?![\\p{L}\\p{N}])` +
    `|^${SEP}(?:[A-Z]{1,2}-)?(?:\\d{5}|(?!19\\d\\d|20\\d\\d)\\d{4}(?: [A-Z]{2})?) ${WORD}(?: ${WORD})?(?![\\p{L}\\p{N}])`,
  'u',
);
// Only the postcodes whose letters and digits alone say "postcode" (UK, Canada, Eircode, Australian state).
const STRICT_TAIL = new RegExp(
  `^(?:${SEP}${TOWN_PART}){1,3}${SEP}(?:${POSTCODES.slice(0, 4).join('|')})(?:${SEP}${COUNTRY})?(?![\\p{L}\\p{N}])`,
  'u',
);

// A unit before the street line, ended by a comma, a dash, a space or a line break (Suite 200 above the street).
const UNIT_BEFORE = /(?:^|[\s,(:;])((?:Flat|FLAT|Apartment|APARTMENT|Apt|APT|Unit|UNIT|Suite|SUITE|Ste|STE|Shop|Level|Lvl|Building|Bldg|BLDG)\.? ?(?:No\.? ?)?#?\d{1,5}[A-Z]?(?:,? ?\n[ \t]*|, ?| - | ))$/;
// The Australian and New Zealand unit/house form: the unit, a slash, then the house number.
const SLASH_UNIT_BEFORE = /(?:^|[\s,(:;])(\d{1,4}[A-Z]?\/)$/;

/** Where the street found at start..end really ends: after its town and postcode when they follow. */
export function tailEnd(text: string, end: number): number | null {
  const tail = TAIL.exec(text.slice(end, end + 160));
  return tail ? end + tail[0].length : null;
}

/** Like tailEnd, but only for a town and a postcode that no count, code or date resembles. */
export function strictTailEnd(text: string, end: number): number | null {
  const tail = STRICT_TAIL.exec(text.slice(end, end + 160));
  return tail ? end + tail[0].length : null;
}

/** Where the street found at start really starts: at its flat or unit when one stands right before it. */
export function unitStart(text: string, start: number): { start: number; slash: boolean } {
  const before = text.slice(Math.max(0, start - 24), start);
  const unit = UNIT_BEFORE.exec(before);
  if (unit?.[1]) return { start: start - unit[1].length, slash: false };
  const slash = SLASH_UNIT_BEFORE.exec(before);
  if (slash?.[1]) return { start: start - slash[1].length, slash: true };
  return { start, slash: false };
}
