import { isIPv4, isIPv6 } from 'node:net';
import { findNumbers, isValidPhoneNumber } from 'libphonenumber-js/max';
import { abaValid, cardNetwork, ibanLength, ibanValid, luhnValid, ssnValid } from './checksums.js';
import { clamp, cuesNear, windowBefore, type Candidate } from './candidate.js';

// Detectors of formatted identifiers. Each takes one page's text and returns scored candidates; a base
// score reflects how sure the format alone is, context words near the match raise it.

const SSN_CUE = /\b(?:ssn|soc(?:ial)?\.? sec(?:urity)?|social security|ssa|taxpayer id(?:entification)?|tin)\b|\bss ?(?:#|no\b)/i;

export function findSsns(text: string): Candidate[] {
  const found: Candidate[] = [];
  // Dashed or spaced 3-2-4, or nine digits in a row; not part of a longer number or a dashed chain.
  const pattern = /(?<![\d-])(\d{3})([- ]?)(\d{2})\2(\d{4})(?![\d]|-\d)/g;
  for (const match of text.matchAll(pattern)) {
    const [, area = '', separator = '', group = '', serial = ''] = match;
    if (!ssnValid(area, group, serial)) continue;
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, SSN_CUE);
    const base = separator === '-' ? 0.7 : separator === ' ' ? 0.5 : 0.3;
    found.push({ entity: 'ssn', start, end, score: clamp(base + (cues.length > 0 ? 0.28 : 0)), cues });
  }
  return found;
}

// Letters include the ligatures PDFs keep in their text (ﬀ ﬁ ﬂ ﬃ ﬄ): "info@chaostreﬀ.at".
const EMAIL_DOMAIN = '[A-Za-z0-9\uFB00-\uFB06](?:[A-Za-z0-9\uFB00-\uFB06-]{0,62}[A-Za-z0-9\uFB00-\uFB06])?(?:\\.[A-Za-z0-9\uFB00-\uFB06](?:[A-Za-z0-9\uFB00-\uFB06-]{0,62}[A-Za-z0-9\uFB00-\uFB06])?)*\\.[A-Za-z]{2,24}(?![\\w-])';
// A local part, or the brace list of papers' author lines ("{gal,brendan}@mozilla.com": one address each).
const EMAIL = new RegExp(`(?<![\\w.+-])(?:[A-Za-z0-9\uFB00-\uFB06][A-Za-z0-9\uFB00-\uFB06._%+-]{0,63}|\\{[A-Za-z0-9._%+-]+(?:, ?[A-Za-z0-9._%+-]+)*\\})@${EMAIL_DOMAIN}`, 'g');
// Spelled out against harvesters, with the at (and dots) in brackets: "lennart (at) poettering (dot) de".
const AT = '\\s?[\\[({<]\\s?(?:at|AT)\\s?[\\])}>]\\s?';
const DOT = '(?:\\s?[\\[({<]\\s?(?:dot|DOT)\\s?[\\])}>]\\s?|\\.)';
const OBFUSCATED_EMAIL = new RegExp(`(?<![\\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}${AT}[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:${DOT}[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*${DOT}[A-Za-z]{2,24}(?![\\w-])`, 'g');
// Spelled out with bare words, lower case: "jo at example dot org" needs the spelled dot as well as the at
// ("look at example.com" stays prose); inside angle brackets, as notices write a maintainer, the at alone does.
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?';
const NOT_HOST = '(?!(?:the|a|an|this|that|my|your|his|her|our|their|its|one|least|most|first|last|all|home|work)\\b)';
const WORDS_EMAIL = new RegExp(`(?<![\\w.+@-])[a-z0-9][a-z0-9._%+-]{0,63} at ${NOT_HOST}${LABEL}(?:(?: dot |\\.)${LABEL})*\\s+dot\\s+[a-z]{2,24}(?![\\w-]|\\.\\w)`, 'g');
const BRACKETED_WORDS_EMAIL = new RegExp(`(?<=<)[A-Za-z0-9][A-Za-z0-9._%+-]{0,63} at ${LABEL}(?:\\.${LABEL})*\\.[a-z]{2,24}(?=>)`, 'g');

export function findEmails(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(EMAIL)) {
    const end = match.index + match[0].length;
    // user@host:/path is a remote login or copy location (scp, CVS, rsync), not a mailbox.
    if (/^:[/~]/.test(text.slice(end, end + 2))) continue;
    found.push({ entity: 'email', start: match.index, end, score: 0.95, cues: [] });
  }
  for (const pattern of [OBFUSCATED_EMAIL, WORDS_EMAIL, BRACKETED_WORDS_EMAIL]) {
    for (const match of text.matchAll(pattern)) found.push({ entity: 'email', start: match.index, end: match.index + match[0].length, score: 0.85, cues: ['spelled out'], rule: 'pattern:email-spelled-out' });
  }
  return found;
}

const PHONE_CUE = /\b(?:phone|ph|tel(?:ephone)?|cell(?:ular)?|mobile|fax|call(?:ed|back)?|text(?:ed)?|contact(?:ed)?|reach(?:ed)?|dial(?:ed)?|home|work|office|direct|voicemail|whatsapp|sms)\b|(?:^|\s)(?:[ohcmwf]|ph|tel)[:.]|\((?:[ohcmwf]|cell|home|work)\)/i;
// Part, model and catalogue numbers, builds and modules are numbered like phones as often as not.
const PHONE_NEGATIVE_CUE = /(?:\b(?:case|docket|file|form|invoice|order|ref(?:erence)?|serial|account|acct|claim|ticket|report|control|tracking|badge|id|isbn|po|permit|license|routing|aba|ssn|card|iban|passport|part|parts|sku|model|item|lot|cat(?:alog(?:ue)?)?|module|build|version|ver|rev(?:ision)?|pallet)|\bp\/n)\s*(?:no\.?|number|#)?\s*[:#]?\s*$/i;
// A cited clause or section, also a code's section after its title (29 C.F.R. § 2510.3-101; a § lost in
// extraction reads U+FFFD).
const CITATION_BEFORE = /(?:\b(?:clause|section|sect|article|art|paragraph|para|regulation|reg|chapter|rule)\.?|§§?|\b(?:C\.\s?F\.\s?R|U\.\s?S\.\s?C)\.\s*(?:§§?|\uFFFD)?|\b(?:CFR|USC)\s*(?:§§?|\uFFFD)?)\s*$/i;
const EXTENSION = String.raw`(?:\s*(?:x|ext\.?|extension|#)\s*\d{1,6})?`;
// Shapes, not validity: NANP (optionally +1, 1 or 001 first, area code in brackets or not, any of the usual
// separators), and international numbers after a + or 00 with two to six groups.
const PHONE_SHAPES: readonly RegExp[] = [
  new RegExp(String.raw`(?<![\w+\-.])(?:(?:\+|00)?1[\s.\-]?)?(?:\(\d{3}\)[\s.\-]?|\d{3}[\s.\-]?)\d{3}[\s.\-]?\d{4}${EXTENSION}(?![\w\-])`, 'gi'),
  new RegExp(String.raw`(?<![\w+\-.])(?:\+|00)[1-9]\d{0,2}(?:[\s.\-]?\(?\d{1,5}\)?){2,6}${EXTENSION}(?![\w\-])`, 'gi'),
];
// After a phone cue, any digit run of a phone's length with the usual separators ("call me at 4420 794 6095").
const CUED_DIGITS = /(?<![\w+\-.])\+?\(?\d[\d\s().\-]{5,18}\d(?![\w\-])/g;
// A seven-digit local number (no area code): a phone when a cue is near or it stands alone on its line, as
// in signature blocks ("Tracy Schuler / PPL EnergyPlus / 774-4157").
const LOCAL_NUMBER = /(?<![\w+\-.\/])\d{3}[-.]\d{4}(?![\w\-]|\.\d)/g;
// Toll-free vanity numbers spell the rest in capitals: 1-800-FLOWERS, 1-877-CHILDHOOD.
const VANITY = /(?<![\w+\-.])(?:1[\s.\-])?\(?8(?:00|33|44|55|66|77|88)\)?[\s.\-]((?=[A-Z0-9-]*[A-Z]{3})[A-Z0-9]{2,}(?:-[A-Z0-9]{2,})?)(?![\w\-])/g;

function phoneValid(raw: string): boolean {
  try {
    return isValidPhoneNumber(raw.replace(/\s*(?:x|ext\.?|extension|#)\s*\d{1,6}$/i, ''), 'US');
  } catch {
    return false;
  }
}

/** Phones by shape and by cue; a number libphonenumber calls valid scores higher, an invalid one is kept. */
export function findPhones(text: string): Candidate[] {
  const found = new Map<string, Candidate>();
  const add = (start: number, end: number, base: number, rule: string) => {
    const raw = text.slice(start, end);
    const digits = raw.replace(/\s*(?:x|ext\.?|extension|#)\s*\d{1,6}$/i, '').replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15 || /^(\d)\1+$/.test(digits)) return;
    // Glued to other digits or dashes: part of a longer identifier; right after a date's slash ("6/30/2002
    // 36699"): the rest of a date or a fraction. Dates and times are no phones.
    if (/[\d-]/.test(text.charAt(end)) || /[\d-]/.test(text.charAt(start - 1)) || /\d\/$/.test(text.slice(Math.max(0, start - 2), start))) return;
    // Digits continuing an IBAN-like sequence (DE89 3704 0044 …, checksum wrong or not): not a phone.
    if (/[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4})* ?$/.test(text.slice(Math.max(0, start - 40), start))) return;
    // Inside a web address (a path or query of digits), or a cited clause or section (252.227-7013): no phone.
    if (/(?:^|\s)(?:\S*:\/\/|www\.)\S*$/i.test(text.slice(Math.max(0, start - 200), start)) || CITATION_BEFORE.test(text.slice(Math.max(0, start - 20), start))) return;
    // Dates, ZIP+4 codes and year-serial case numbers ("2017-725599") are no phones.
    if (/^\d{4}[-.]\d{2}[-.]\d{2}$|^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$|^\d{5}-\d{4}$|^\(?(?:19|20)\d\d-\d{4,}\)?$/.test(raw)) return;
    const cues = cuesNear(text, start, end, PHONE_CUE, { before: 40, after: 15 });
    const negative = PHONE_NEGATIVE_CUE.test(windowBefore(text, start, 30, 0));
    const valid = phoneValid(raw);
    // A dot and a dash between the digit groups (252.227-7014) is a numbered clause or part more often than a phone.
    const mixed = /\d\.\d[\d.]*-\d|\d-\d[\d-]*\.\d/.test(raw) ? 0.3 : 0;
    const score = base + (cues.length > 0 ? 0.25 : 0) + (valid ? 0.15 : 0) - (negative ? 0.45 : 0) - mixed;
    const key = `${start}:${end}`;
    const previous = found.get(key);
    if (!previous || previous.score < score) found.set(key, { entity: 'phone', start, end, score: clamp(score), cues: valid ? [...cues, 'valid number'] : cues, rule });
  };
  for (const [index, shape] of PHONE_SHAPES.entries()) {
    for (const match of text.matchAll(shape)) {
      const raw = match[0];
      const separated = /[\s.\-()]/.test(raw.replace(/^\+/, ''));
      // Ten digits in one block are as often an account or order number: a cue must back them.
      const base = index === 1 ? 0.65 : separated ? 0.6 : 0.3;
      add(match.index, match.index + raw.length, base, index === 1 ? 'pattern:phone-international' : 'pattern:phone-nanp');
    }
  }
  for (const match of text.matchAll(CUED_DIGITS)) {
    const raw = match[0].replace(/[\s.(\-]+$/, '');
    if (/\n|\t/.test(raw)) continue;
    const cues = cuesNear(text, match.index, match.index + raw.length, PHONE_CUE, { before: 40, after: 0 });
    if (cues.length === 0) continue;
    add(match.index, match.index + raw.length, 0.3, 'pattern:phone-after-cue');
  }
  for (const match of text.matchAll(LOCAL_NUMBER)) {
    const lineStart = text.lastIndexOf('\n', match.index - 1) + 1;
    const lineEnd = text.indexOf('\n', match.index);
    const alone = /^[\s>|*-]*$/.test(text.slice(lineStart, match.index)) && /^\s*$/.test(text.slice(match.index + 8, lineEnd < 0 ? undefined : lineEnd));
    add(match.index, match.index + 8, alone ? 0.55 : 0.25, 'pattern:phone-local');
  }
  for (const match of text.matchAll(VANITY)) {
    const letters = (match[1] ?? '').replace(/-/g, '');
    if (letters.length < 7 || letters.length > 10) continue;
    const start = match.index;
    const end = start + match[0].length;
    const cues = cuesNear(text, start, end, PHONE_CUE, { before: 40, after: 15 });
    const key = `${start}:${end}`;
    if (!found.has(key)) found.set(key, { entity: 'phone', start, end, score: clamp(0.6 + (cues.length > 0 ? 0.25 : 0)), cues, rule: 'pattern:phone-vanity' });
  }
  // libphonenumber's own finder catches layouts the shapes above do not (national formats abroad).
  for (const match of findNumbers(text, { defaultCountry: 'US', v2: true })) {
    const raw = text.slice(match.startsAt, match.endsAt);
    if (/\n|\t/.test(raw)) continue;
    add(match.startsAt, match.endsAt, raw.startsWith('+') ? 0.6 : 0.3, 'pattern:phone-libphonenumber');
  }
  // A number read after a cue that holds a phone found on its own (a country code before "(20) 7946-0018") is at
  // least as sure as that phone, so the whole number wins over the part.
  const all = [...found.values()];
  for (const outer of all) {
    if (outer.rule !== 'pattern:phone-after-cue') continue;
    for (const inner of all) if (inner !== outer && inner.start >= outer.start && inner.end <= outer.end && inner.score > outer.score) outer.score = inner.score;
  }
  return all;
}

const CARD_CUE = /\b(?:card|credit|debit|visa|master ?card|mc|amex|american express|discover|diners|jcb|cc|cc#|pan|acct|account|charged?|payment|purchase|expir(?:es|y|ation)|exp|cvv)\b/i;

/** Runs of digit groups joined by single spaces or dashes; a card number is a group-aligned part of one. */
export function findCards(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const run of text.matchAll(/(?<![\d-])\d+(?:[ -]\d+)*(?![\d])/g)) {
    // The digits continue an IBAN-like sequence (DE89 3704 …): not a card.
    if (/[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4})* ?$/.test(text.slice(Math.max(0, run.index - 40), run.index))) continue;
    const groups: { start: number; end: number; digits: string }[] = [];
    for (const group of run[0].matchAll(/\d+/g)) groups.push({ start: run.index + group.index, end: run.index + group.index + group[0].length, digits: group[0] });
    let best: { from: number; to: number; digits: string } | null = null;
    for (let from = 0; from < groups.length; from += 1) {
      let digits = '';
      for (let to = from; to < groups.length && digits.length < 19; to += 1) {
        digits += (groups[to] as { digits: string }).digits;
        // 12 digits only for Maestro, the one network that issues them.
        const length = digits.length >= 13 || (digits.length === 12 && cardNetwork(digits) === 'maestro');
        if (length && digits.length <= 19 && luhnValid(digits) && (!best || digits.length > best.digits.length)) best = { from, to, digits };
      }
    }
    if (!best) continue;
    const first = groups[best.from] as { start: number };
    const last = groups[best.to] as { end: number };
    const network = cardNetwork(best.digits);
    const layoutGroups = best.to - best.from + 1;
    // Cards are printed in one block or in groups of four (Amex 4-6-5); other groupings are mostly other numbers.
    const cardLayout = layoutGroups === 1 || groups.slice(best.from, best.to + 1).every((group, index, all) => group.digits.length === 4 || (network === 'amex' && all.length === 3) || index === all.length - 1);
    const cues = cuesNear(text, first.start, last.end, CARD_CUE, { before: 50, after: 25 });
    let score = network ? 0.8 : 0.35;
    if (!cardLayout) score -= 0.25;
    if (cues.length > 0) score += 0.15;
    found.push({ entity: 'payment_card', start: first.start, end: last.end, score: clamp(score), cues });
  }
  return found;
}

const IBAN_CUE = /\b(?:iban|bank|account|acct|kontonummer|rekening|bic|swift|wire|transfer|beneficiary)\b/i;

export function findIbans(text: string): Candidate[] {
  const found: Candidate[] = [];
  // Any case ("de89 3704 …" as typed into forms), groups split by single spaces or dashes.
  for (const match of text.matchAll(/(?<![A-Za-z0-9])([A-Za-z]{2})(\d{2})(?=[ -]?[A-Za-z0-9])/g)) {
    const country = (match[1] ?? '').toUpperCase();
    const length = ibanLength(country);
    if (!length) continue;
    // Take characters (skipping single separators between groups) until the country's length is reached.
    let compact = `${country}${match[2]}`;
    let cursor = match.index + 4;
    while (compact.length < length && cursor < text.length) {
      const char = text.charAt(cursor);
      if (/[A-Za-z0-9]/.test(char)) compact += char.toUpperCase();
      else if (!((char === ' ' || char === '-') && /[A-Za-z0-9]/.test(text.charAt(cursor + 1)))) break;
      cursor += 1;
    }
    if (compact.length !== length || /[A-Za-z0-9]/.test(text.charAt(cursor)) || !ibanValid(compact)) continue;
    const cues = cuesNear(text, match.index, cursor, IBAN_CUE);
    const upper = /^[A-Z]{2}$/.test(match[1] ?? '');
    found.push({ entity: 'iban', start: match.index, end: cursor, score: clamp((upper ? 0.85 : 0.75) + (cues.length > 0 ? 0.1 : 0)), cues });
  }
  return found;
}

// ⑆ is the MICR transit symbol printed around the routing number on checks.
const ROUTING_CUE = /\b(?:routing|aba|rtn|r\/t|transit|bank|ach|wire|direct deposit|deposit)\b|⑆/i;

export function findRoutingNumbers(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(/(?<![\d-])\d{9}(?![\d]|-\d)/g)) {
    if (!abaValid(match[0])) continue;
    const start = match.index;
    const end = start + 9;
    const cues = cuesNear(text, start, end, ROUTING_CUE, { before: 50, after: 20 });
    found.push({ entity: 'routing_number', start, end, score: clamp(0.4 + (cues.length > 0 ? 0.5 : 0)), cues });
  }
  return found;
}

const IP_CUE = /\b(?:ip|ipv4|ipv6|address|host|server|logged|login|log-?in|source|src|dst|client|connection|connected|originat\w*|subscriber|isp)\b/i;
const IP_NEGATIVE_CUE = /(?:\b(?:version|ver|v|release|build|section|sec|rule|part|chapter|figure|table|item|step|ordinance|code|statute|regulation|paragraph|para|clause|standard|oid)\.?|§)\s*$/i;

// Three-part dotted numbers are versions (1.2.3): a dotted quad among them is most likely one too. A product's
// version (Apache/2.4.41 in a log line) says nothing about the address beside it.
const VERSION_TRIPLE = /(?<![\d./])\d{1,5}\.\d{1,5}\.\d{1,5}(?![\d.]|\.\d)/g;

/** A version triple on the same line within 60 characters of [start, end); pieces of numbers cut at the window's edges do not count. */
function versionsNear(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end) < 0 ? text.length : text.indexOf('\n', end);
  const from = Math.max(lineStart, start - 60);
  const to = Math.min(lineEnd, end + 60);
  const window = text.slice(from, to);
  for (const match of window.matchAll(VERSION_TRIPLE)) {
    const at = from + match.index;
    const cut = (match.index === 0 && from > lineStart) || (at + match[0].length === to && to < lineEnd);
    if (!cut && (at + match[0].length <= start || at >= end)) return true;
  }
  return false;
}

/** A netmask written as an IPv6 address (ffff:ffff:ffff::): ones then zeros. */
function ipv6Mask(value: string): boolean {
  const [head = '', tail] = value.split('::');
  const left = head.split(':').filter(Boolean);
  const right = (tail ?? '').split(':').filter(Boolean);
  const groups = tail === undefined ? left : [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bits = groups.map((group) => parseInt(group, 16).toString(2).padStart(16, '0')).join('');
  return /^1{8,}0*$/.test(bits);
}

export function findIpAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  // Not followed by a letter after a dash: "1.2.3.4-rc.1" is a version.
  for (const match of text.matchAll(/(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d]|\.\d|-[A-Za-z])/g)) {
    // Logs sometimes pad octets with zeros (010.001.020.003); Node's parser rejects those.
    if (!isIPv4(match[0].replace(/(^|\.)0+(?=\d)/g, '$1'))) continue;
    const start = match.index;
    const end = start + match[0].length;
    if (/^(?:0|127|255)\./.test(match[0])) continue;
    const cues = cuesNear(text, start, end, IP_CUE, { before: 40, after: 20 });
    const negative = IP_NEGATIVE_CUE.test(windowBefore(text, start, 20, 0));
    const versions = versionsNear(text, start, end);
    const score = 0.65 + (cues.length > 0 ? 0.25 : 0) - (negative ? 0.5 : 0) - (versions ? 0.3 : 0);
    found.push({ entity: 'ip_address', start, end, score: clamp(score), cues });
  }
  // Also the forms that open with '::' (::ffff:c0a8:101, IPv4-mapped), with two groups or more after it.
  for (const match of text.matchAll(/(?<![\w:.])(?:(?:[0-9A-Fa-f]{1,4}:){1,7}(?::|(?::[0-9A-Fa-f]{1,4}){1,7}|[0-9A-Fa-f]{1,4})|::[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){1,6})(?![\w:])/g)) {
    const value = match[0];
    // Times (12:30:45) and similar short forms are not addresses: want at least four groups or a '::'.
    if (!isIPv6(value) || value === '::1' || (!value.includes('::') && value.split(':').length < 8)) continue;
    if (ipv6Mask(value)) continue;
    if (!/[0-9a-f]{3}/i.test(value) && !value.includes('::')) continue;
    const start = match.index;
    const end = start + value.length;
    const cues = cuesNear(text, start, end, IP_CUE, { before: 40, after: 20 });
    found.push({ entity: 'ip_address', start, end, score: clamp(0.75 + (cues.length > 0 ? 0.2 : 0)), cues });
  }
  return found;
}

const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const DATE_PATTERNS: readonly RegExp[] = [
  /(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/]|[.-]\d)/g,
  /(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])/g,
  new RegExp(`\\b${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}\\b`, 'gi'),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}\\.?,? \\d{4}\\b`, 'gi'),
];

/** Every date in the text, with a plausible year for a birth date (1900 to this year). */
export function findDates(text: string): { start: number; end: number }[] {
  const dates: { start: number; end: number }[] = [];
  const thisYear = new Date().getUTCFullYear();
  for (const pattern of DATE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const years = match[0].match(/\d{4}|\d{2}$/g) ?? [];
      const yearText = years.find((value) => value.length === 4) ?? years.at(-1) ?? '';
      const year = yearText.length === 2 ? 1900 + Number(yearText) : Number(yearText);
      if (pattern === DATE_PATTERNS[0]) {
        const [a, b] = [Number(match[1]), Number(match[3])];
        if (a < 1 || b < 1 || a > 31 || b > 31 || (a > 12 && b > 12)) continue;
      }
      if (pattern === DATE_PATTERNS[1]) {
        const [month, day] = [Number(match[2]), Number(match[3])];
        if (month < 1 || month > 12 || day < 1 || day > 31) continue;
      }
      if (yearText.length === 4 && (year < 1900 || year > thisYear)) continue;
      dates.push({ start: match.index, end: match.index + match[0].length });
    }
  }
  return dates.sort((a, b) => a.start - b.start);
}

const DOB_CUE = /\b(?:d\.?\s?o\.?\s?b\b\.?|date of birth|birth ?date|born(?: on| in)?|birthday|b\/d|b-day|bday|fecha de nacimiento|geburtsdatum|née?|age \d{1,3}, born)/gi;

const BIRTH_RANGE = /^\s*(?:or\s+)?(?:before|after|prior\s+to|between|since|later\s+than|earlier\s+than|no\s+later\s+than|from)\b/i;

/** Dates of birth: a date only counts with a birth cue before it (or just after it) and no other date in between. */
export function findDatesOfBirth(text: string): Candidate[] {
  const found: Candidate[] = [];
  const dates = findDates(text);
  dates.forEach((date, index) => {
    const before = windowBefore(text, date.start, 45, 1);
    const offset = date.start - before.length;
    const cues = [...before.matchAll(DOB_CUE)].filter((cue) => {
      const cueEnd = offset + cue.index + cue[0].length;
      // "born before January 2, 1946": a cut-off date in a rule, not anyone's birth date.
      if (BIRTH_RANGE.test(text.slice(cueEnd, date.start))) return false;
      // "presented on his birthday, January 10, 2008": the day something happened, not the birth date.
      if (/^birthday/i.test(cue[0]) && /\bon (?:his|her|their|my|your|our|the)\s+(?:\d+(?:st|nd|rd|th)\s+)?$/i.test(text.slice(Math.max(0, offset + cue.index - 30), offset + cue.index))) return false;
      const previous = dates[index - 1];
      return !previous || previous.end <= cueEnd;
    });
    const after = /^\s*\(?(?:d\.?o\.?b\.?|date of birth|birth ?date)\b/i.test(text.slice(date.end, date.end + 20));
    if (cues.length === 0 && !after) return;
    const cueWords = cues.map((cue) => cue[0].toLowerCase());
    found.push({ entity: 'date_of_birth', start: date.start, end: date.end, score: 0.9, cues: after ? [...cueWords, 'dob'] : cueWords });
  });
  return found;
}

const LABEL_WORDS = new Set(['', 'no', 'nos', 'number', 'num', 'nbr', 'book', 'card', 'id', 'is', 'was', 'us', 'u.s', 'of', 'the', 'issued', 'by', 'state', 'states', 'and', 'or']);

/**
 * Identifier after a label: the first token with a digit among the next few words (crossing one line
 * break, for forms with the value under the label), when it has the identifier's shape.
 */
function valueAfterCue(text: string, cue: RegExp, shape: RegExp, entity: 'passport_number' | 'drivers_license', score: number): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<number>();
  for (const match of text.matchAll(cue)) {
    let cursor = match.index + match[0].length;
    let lines = 0;
    for (let words = 0; words < 5; words += 1) {
      const next = /^([ \t]*)(\n?)[ \t]*(\S+)/.exec(text.slice(cursor));
      if (!next) break;
      if (next[2]) lines += 1;
      if (lines > 1) break;
      const token = next[3] ?? '';
      const tokenStart = cursor + next[0].length - token.length;
      cursor += next[0].length;
      if (!/\d/.test(token)) {
        // Only label words may sit between the cue and the value: "passport application number …" is another number.
        if (!LABEL_WORDS.has(token.toLowerCase().replace(/[^a-z.]/g, '').replace(/\.$/, ''))) break;
        continue;
      }
      const lead = /^[#:(]*/.exec(token)?.[0].length ?? 0;
      const value = token.slice(lead).replace(/[.,;:)]+$/, '');
      if (shape.test(value) && !seen.has(tokenStart + lead)) {
        seen.add(tokenStart + lead);
        found.push({ entity, start: tokenStart + lead, end: tokenStart + lead + value.length, score, cues: [match[0].toLowerCase().replace(/\s+/g, ' ')] });
      }
      break;
    }
  }
  return found;
}

const PASSPORT_CUE = /\bpass(?:port|\. ?no)\b(?:\s*(?:no\.?|number|num|nbr|#|book|card))?/gi;
const PASSPORT_SHAPE = /^(?:[A-Z]{1,2}\d{6,8}|\d{8,9}|[A-Z]\d{8})$/;

// "PP#" / "PP No." on travel and HR forms; capitals only ("pp." is a page reference).
const PASSPORT_ABBREVIATION_CUE = /\bPP ?(?:#|No\.?|Nr\.?)/g;

export function findPassports(text: string): Candidate[] {
  return [...valueAfterCue(text, PASSPORT_CUE, PASSPORT_SHAPE, 'passport_number', 0.9), ...valueAfterCue(text, PASSPORT_ABBREVIATION_CUE, PASSPORT_SHAPE, 'passport_number', 0.85)];
}

const LICENSE_CUE = /\b(?:DL|D\.L\.|DLN|OLN|CDL)\b(?:\s*(?:no\.?|number|num|#|id))?/g;
const LICENSE_CUE_CI = /\b(?:driver'?s?’?s?\s+(?:licen[cs]e|lic\b\.?)|driving\s+licen[cs]e|operator'?s?\s+licen[cs]e)(?:\s*(?:no\.?|number|num|#|id))?/gi;
// State formats vary: letters then digits (A1234567, WDL…), digits only, or dashed groups (F123-456-78-901-0).
const LICENSE_SHAPE = /^(?=(?:[^0-9]*[0-9]){5})(?:[A-Z]{0,3}[0-9]{5,14}[A-Z]{0,2}|[A-Z0-9]{1,4}(?:-[A-Z0-9]{1,5}){1,5}|[A-Z]{1,2}[0-9A-Z]{6,12})$/;

export function findDriversLicenses(text: string): Candidate[] {
  const uppercase = valueAfterCue(text, LICENSE_CUE, LICENSE_SHAPE, 'drivers_license', 0.85);
  const anyCase = valueAfterCue(text, LICENSE_CUE_CI, LICENSE_SHAPE, 'drivers_license', 0.85);
  const starts = new Set(uppercase.map((candidate) => candidate.start));
  return [...uppercase, ...anyCase.filter((candidate) => !starts.has(candidate.start))];
}
