import { shippedModel } from './ner/tagger.js';
import { COUNTRY_NAME } from './address-format-words.js';
import { FIRST_NAMES, SURNAMES } from './name-lists.js';

// Evidence from a word's own shape and from the language around it that a capitalised word is no person:
// a common English word opening a sentence (man pages: "Treats lines …", "Verify signed mail"), a word in
// capitals or without a vowel (COLON, Dn), a page in another language, on which the English-trained tagger
// guesses. The common words are the model's own lexicon: words its openly licensed training text writes in
// lower case at least half the time (docs/detection-model.md).

type WordSet = Pick<ReadonlySet<string>, 'has'>;

const known = (word: string) => FIRST_NAMES.has(word) || SURNAMES.has(word);

let common: WordSet | null = null;
/** The tagger's lexicon of common lower-case words (read with the model, once per thread). */
function commonWords(): WordSet {
  common ??= shippedModel().lexicons.common;
  return common;
}

/** The word and the stems its regular inflections leave ("treats" → treat, "verifies" → verify, "loaded" → load). */
export function stems(word: string): string[] {
  const out = [word];
  const add = (stem: string) => stem.length >= 3 && out.push(stem);
  if (word.endsWith('ies') || word.endsWith('ied')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es') || word.endsWith('ed')) add(word.slice(0, -2));
  if (word.endsWith('s') || word.endsWith('d')) add(word.slice(0, -1));
  if (word.endsWith('ing')) {
    add(word.slice(0, -3));
    add(`${word.slice(0, -3)}e`);
  }
  return out;
}

/** A word (lower case) that is a common English word, or whose inflection is, or that `lower` (the document's lower-case words) holds in some form. */
export function commonWord(word: string, lower: WordSet | null = null): boolean {
  if (known(word)) return false;
  const words = commonWords();
  return stems(word).some((stem) => words.has(stem) || (lower !== null && lower.has(stem)));
}

/** Whether `start` opens a sentence or a line: nothing before it on the line but a list mark, or a sentence end before it. */
export function sentenceInitial(text: string, start: number): boolean {
  // Read back from the candidate over blanks only (each candidate its own stretch), never to the line's start.
  let at = start - 1;
  while (at >= 0 && text.charCodeAt(at) !== 10 && BLANK.test(text.charAt(at))) at -= 1;
  if (at < 0 || text.charCodeAt(at) === 10) return true;
  if (SENTENCE_END.test(text.charAt(at))) return true;
  if (text.charAt(at) !== ')') return false;
  // A list marker alone on the line before it: "(1)", "2)", "a)", "(b)" (a "." ends a sentence anyway).
  let from = at;
  while (from > 0 && at - from < 5 && text.charCodeAt(from - 1) !== 10 && !BLANK.test(text.charAt(from - 1))) from -= 1;
  for (let before = from - 1; before >= 0 && text.charCodeAt(before) !== 10; before -= 1) if (!BLANK.test(text.charAt(before))) return false;
  return LIST_MARKER.test(text.slice(from, at + 1));
}

/** What String.prototype.trim removes (white space and line terminators). */
const BLANK = /^\s$/u;
const SENTENCE_END = /^[.!?:;•▪·*–—-]$/u;
const LIST_MARKER = /^\(?(?:\d{1,3}|[a-z])[.)]$/u;

/**
 * A word written in capitals (COLON, README) or a Latin word without a vowel (Dn, Ctrl): no name unless
 * it is a known one. Names in capitals on forms come with a label or a second word (JANE DOE).
 */
export function notNameShaped(word: string): boolean {
  const bare = word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '');
  const lower = bare.toLowerCase();
  if (bare.length === 0 || known(lower)) return false;
  if (/^\p{Lu}{2,}$/u.test(bare)) return true;
  return /^[A-Za-z]{2,}$/.test(bare) && !/[aeiouy]/i.test(bare);
}

/** English function words, common in any English prose and rare in other languages and in code. */
const FUNCTION_WORDS = new Set('the and of to is in for with that this are be by or it as not from which can if when its at was has have may all any each but than into also'.split(' '));

/**
 * Whether a page has next to no English prose: of its lower-case words (at least 30), fewer than 3 % are
 * English function words. Pages in another language (French, Czech, Latin) and pages of code listings are such;
 * the English-trained tagger guesses on them. English prose pages of the dev manuals stay above 4 %.
 */
export function withoutEnglish(text: string): boolean {
  let total = 0;
  let english = 0;
  for (const match of text.matchAll(/(?<![\p{L}\p{N}_\\\-−‐])\p{Ll}{2,}(?![\p{L}\p{N}_(\-−‐])/gu)) {
    total += 1;
    if (FUNCTION_WORDS.has(match[0])) english += 1;
  }
  return total >= 30 && english < total * 0.03;
}

const SUFFIX = /^(?:II|III|IV|JR|SR)$/;
/** Lower-case words inside names: particles of surnames and joining words (van, de la, bin, y). */
const PARTICLES = new Set('de del della der den van von da di du le la les bin bint ibn abu al el st y e dos das do ten ter zu op ben'.split(' '));
const bareWord = (word: string) => word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '');

/**
 * The end of a candidate less a last word of two or three capitals that is no known name or suffix: a
 * country or unit code after a place ("Hasselt NL") or a credential ("Maria Lopez RN"); names do not end in
 * one. Returns `end` when there is none, and -1 when one capitalised word and the code are all there is.
 */
export function trailingCode(text: string, start: number, end: number): number {
  const value = text.slice(start, end);
  // The code may stand on the next line ("Hasselt\nNL").
  const match = /\s+(\S+)$/u.exec(value);
  if (!match) return end;
  const last = bareWord(match[1] as string);
  if (!/^\p{Lu}{2,3}$/u.test(last) || SUFFIX.test(last) || known(last.toLowerCase())) return end;
  const rest = value.slice(0, match.index).replace(/[\s,;:]+$/u, '');
  // A name written all in capitals ("JANE DOE") keeps its words.
  if (!/\p{Ll}/u.test(rest)) return end;
  return rest.split(/\s+/).length >= 2 ? start + rest.length : -1;
}

/** A word of two or three capitals that is no known name or suffix right after `end` on the same line ("DB", "DB's", "NL,"). */
export function codeAfter(text: string, end: number): boolean {
  const next = /^[ \t]([^\s]+)/u.exec(text.slice(end, end + 12));
  if (!next) return false;
  const code = bareWord(next[1] as string);
  if (!/^\p{Lu}{2,3}$/u.test(code) || SUFFIX.test(code) || known(code.toLowerCase())) return false;
  // Only punctuation may follow the code in the token ("DB.", "DB's"), not a hyphen and more ("DB-4").
  return /^[^\p{L}\p{N}]*\p{Lu}{2,3}(?:['’]s)?[.,;:!?)"'”’]*$/u.test(next[1] as string);
}

/** A minus sign, hyphen or two glued before `start` after a space or bracket: a command-line option ("−LE", "--Verbose"). */
export function optionDash(text: string, start: number): boolean {
  // Also a fragment after a glued ellipsis ("…Sec", "...USec": a suffix, not a word).
  return /(?:^|[\s(\[,"“'‘])(?:[-−‐]{1,2}|\.{2,3}|…)$/u.test(text.slice(Math.max(0, start - 4), start));
}

/**
 * A single word used as a common noun or a modifier: after a determiner and before a lower-case word on the
 * same line ("the Gates package", "The Joy of TEX", "the Huffman coder"). A person's name takes no article.
 */
export function determinerNoun(text: string, start: number, end: number): boolean {
  return /(?<![\p{L}])(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Ee]ach|[Ee]very)[^\S\n]+$/u.test(text.slice(Math.max(0, start - 8), start)) && /^[^\S\n]+\p{Ll}/u.test(text.slice(end, end + 3));
}

/** A place before a country after a comma ("Brno, Czech Republic"): a town of a reference or an address, not a person. */
export const placeBeforeCountry = (text: string, end: number) => text.charAt(end) === ',' && COUNTRY_NAME.test(text.slice(end, end + 60));

/** After a publisher in a reference: a comma, up to two places, the year ("Knopf, 1979", "Addison Wesley, Reading, Massachusetts, 1986"). */
const PUBLISHER_AFTER = /^[^\S\n]*,\s*((?:\p{Lu}[\p{L}.'’-]*(?:[^\S\n]+\p{Lu}[\p{L}.'’-]*)?\s*,\s*){0,2})(?:1[5-9]|20)\d{2}\b/u;

/**
 * Whether a candidate stands where a reference names its publisher: after the end of a title or an author
 * list (a word of two letters or more and a full stop or comma, not an initial) and before its places and year.
 * An author-year citation has a bracket or a plain word before it ("(Knuth, 1984)", "see Knuth, 1984"); a list
 * of authors has known given names first or where the places would be.
 */
export function publisherSlot(text: string, start: number, end: number): boolean {
  const after = PUBLISHER_AFTER.exec(text.slice(end, end + 80));
  // A known given name first is a person in a list of authors ("Frank Mittelbach, David Carlisle, 2005").
  // An inverted or capitalised author ("MOXON, Joseph, 1683") is a person too.
  if (/[,\p{Lu}]{2}/u.test(text.slice(start, end).replace(/\p{Lu}\p{Ll}/gu, ''))) return false;
  if (!after || FIRST_NAMES.has((/\p{L}+/u.exec(text.slice(start, end))?.[0] ?? '').toLowerCase())) return false;
  const places = (after[1] ?? '').match(/\p{L}+/gu) ?? [];
  if (places.some((word) => FIRST_NAMES.has(word.toLowerCase()))) return false;
  // The title may end in a bracket or quote ("(Volume C of Computers and Typesetting), Addison-Wesley, 1986"), and
  // the publisher and year may be bracketed after it ("The TEXbook, (Addison Wesley, 1986)").
  const before = /(\p{L}{2,})[)\]"”’]?[.,][^\S\n]*\n?[^\S\n]*\(?$/u.exec(text.slice(Math.max(0, start - 40), start));
  // A surname in capitals before it makes it the given name of an inverted author ("KRÜGER, Marcel, 2022").
  if (before === null || known((before[1] as string).toLowerCase()) || !/\p{Ll}/u.test(before[1] as string)) return false;
  // In brackets only after a title's capitalised word: after prose it is an author-year citation ("layouts, (Knuth, 1984)").
  return !before[0].endsWith('(') || /^\p{Lu}/u.test(before[1] as string);
}

export interface ShapeContext {
  lower: WordSet;
  /** Capitalised words the document puts right before a product noun or a version ("the Gates package"). */
  products?: WordSet;
  technical: boolean;
  noEnglish: boolean;
}

/**
 * Whether a person candidate is no name by its shape or language. `backed`: a title, label, role or other
 * cue before it; `after`: only a word after it backs it ("Verify signed mail", "X, a …"), which a common
 * word opening an imperative sentence gets as easily as a name.
 */
export function unlikelyName(text: string, start: number, end: number, context: ShapeContext, backed: boolean, after: boolean): boolean {
  if (backed) return false;
  const words = text.slice(start, end).split(/\s+/).filter((word) => /\p{L}/u.test(word));
  const bare = words.map((word) => bareWord(word).toLowerCase());
  // A lower-case word inside that is no particle ("Wer diesen", "Yu yu", "chen Zweck"): a phrase or a glyph sample.
  if ((context.technical || context.noEnglish) && words.some((word) => /^\p{Ll}/u.test(bareWord(word)) && !PARTICLES.has(bareWord(word)))) return true;
  if (context.technical && !after && publisherSlot(text, start, end)) return true;
  // A method named after a person, a piece of a dashed firm or method name, a table header: known name or not.
  if (eponym(text, end, context.technical)) return true;
  if (context.technical && (dashedPiece(text, start, end) || titleCaseHeader(text, start, end, context.lower))) return true;
  if (legalFormAfter(text, end) || abbreviationNumber(text, start, end)) return true;
  // A word glued to a leading minus sign or hyphen after a space is a command-line option ("−LE", "-Wall").
  if (context.technical && (optionDash(text, start) || /^[-−‐]{1,2}\p{L}/u.test(text.slice(start, end)))) return true;
  // A line in another language on a page with English: as on a page without English (below), one unknown word or
  // three. Outside technical text only with accented letters, as chat slang also lacks function words.
  const foreign = context.noEnglish || foreignLine(text, start, end, !context.technical);
  if (words.length === 1) {
    const word = bare[0] as string;
    // A code of two or three capitals right after one capitalised word: as inside a candidate (`trailingCode`), a
    // place's country, a product's kind or a credential, and no name ("Berkeley DB", "Hasselt NL").
    if (/\p{Ll}/u.test(words[0] as string) && codeAfter(text, end)) return true;
    // In technical text a word in capitals alone is an acronym or a variable (LANG, COLON), known name or not;
    // a reference list's surname has its given name or initial after a comma (HARRIS, P.).
    if (!after && context.technical && /^\p{Lu}{4,}$/u.test(bareWord(words[0] as string)) && !/^[^\S\n]*,[^\S\n]*\p{Lu}/u.test(text.slice(end, end + 6))) return true;
    // Technical text writes the word, or a form of it, in lower case: a common word, whatever follows it.
    if (context.technical && !known(word) && stems(word).some((stem) => context.lower.has(stem))) return true;
    // Known name or not, in technical text: a word after an article and before a lower-case word, or a town before its country.
    if (context.technical && !after && (determinerNoun(text, start, end) || placeBeforeCountry(text, end))) return true;
    // A known name too, when the document also names a product with it ("the Gates package", "the gates in …"):
    // a person's surname is not written in lower case nor put before "package" in the same document.
    if (context.technical && !after && context.products?.has(word) === true && context.lower.has(word)) return true;
    if (after) return false;
    if (notNameShaped(words[0] as string)) return true;
    // A common English word opening a sentence of technical text ("Treats lines …"): a verb or noun, not a name.
    if (context.technical && sentenceInitial(text, start) && commonWord(word)) return true;
    // With next to no English on the page the tagger guesses at capitalised words: one alone needs to be a known name.
    if (foreign && !known(word)) return true;
  }
  // There, a run of three words or more (a phrase: "Testen von Textausgaben") needs a known name in it too;
  // a pair of unknown words is kept, as full names in other languages are ("Jacques André").
  return !after && foreign && words.length >= 3 && !bare.some(known);
}

/** Head nouns an eponym stands before ("Huffman coding", "Dijkstra's algorithm"); the first set only in mathematics and computing. */
const EPONYM_STRICT = 'coding|algorithms?|transforms?|transformation|theorems?|lemma|conjecture|distributions?|inequality|equations?|polynomials?|quadrature|integrals?|encoding';
const EPONYM_TECHNICAL = `${EPONYM_STRICT}|codes?|coders?|decoders?|encoders?|trees?|methods?|numbers?|formats?|filters?|curves?|functions?|matri(?:x|ces)|norm|principle|constant|graph|heap|tables?|scheme|sort|rule|series|numerals?|numbering`;
// The head noun may open the next line ("… and Huffman\ncoding").
const eponymAfter = (heads: string) => new RegExp(`^(?:['’]s)?(?:[ \\t]+|[ \\t]*\\n[ \\t]*)(?:${heads})(?![\\p{L}\\p{N}_-])`, 'u');
const EPONYM_ANY = eponymAfter(EPONYM_STRICT);
export const EPONYM_IN_TECHNICAL = eponymAfter(EPONYM_TECHNICAL);

/**
 * Whether a candidate names a method rather than a person: a head noun in lower case right after it ("Huffman
 * coding", "Knuth–Morris–Pratt algorithm"). A person mentioned is followed by a verb or punctuation ("Knuth
 * wrote", "D. A. Huffman. A method …"). Generic heads (code, tree, number) count in technical text only.
 */
export function eponym(text: string, end: number, technical: boolean): boolean {
  return (technical ? EPONYM_IN_TECHNICAL : EPONYM_ANY).test(text.slice(end, end + 40));
}

/** A piece of a dashed compound the tagger split ("Addison–Wesley", "Knuth–Morris"): a firm or method, not a person. */
export function dashedPiece(text: string, start: number, end: number): boolean {
  return /\p{L}[-–—][^\S\n]*$/u.test(text.slice(Math.max(0, start - 3), start)) || /^[^\S\n]*[–—]\p{Lu}/u.test(text.slice(end, end + 3));
}

/**
 * Whether a candidate sits on a table header or title-case label line: a short line of three to eight words,
 * all capitalised, without sentence punctuation, most of them common English words ("Major Page Fault Count
 * Delta"), in the model's lexicon or in the document's lower-case words (`lower`). A line naming a person has a
 * given name that is no common word.
 */
export function titleCaseHeader(text: string, start: number, end: number, lower: WordSet): boolean {
  const line = headerLine(text, start, end);
  if (line === null) return false;
  // A label's colon may end the line ("Max Used ROB Entries:").
  const body = line.trim().replace(/:$/u, '');
  if (/[.,;:!?()"“”]/u.test(body)) return false;
  // Acronyms may stand among the words ("ROB"), if most are in title case.
  const words = body.split(/\s+/);
  const titled = words.filter((word) => /^\p{Lu}\p{Ll}*$/u.test(word)).length;
  if (words.length < 3 || words.length > 8 || titled * 2 <= words.length || !words.every((word) => /^\p{Lu}\p{Ll}*$|^\p{Lu}{2,5}$/u.test(word))) return false;
  const lexical = (word: string) => stems(word).some((stem) => commonWords().has(stem) || lower.has(stem));
  const lowered = words.map((word) => word.toLowerCase());
  // A given name that is no common word ("Frank" is one, "Torbjorn" not) makes the line a person's.
  if (lowered.some((word) => FIRST_NAMES.has(word) && !lexical(word))) return false;
  return lowered.filter(lexical).length * 2 > words.length;
}

/** The longest line a title-case header may be. */
const HEADER_LENGTH = 80;

/**
 * The line's part around a candidate, after a term it defines ("vMj  --  Major Page Fault Count Delta"), or null
 * when it is longer than a header. What follows the candidate on its line alone may rule it out, unread; only the
 * last part before it counts, and a window a little longer than a header holds that part and the separator before
 * it whole, or shows it too long.
 */
export function headerLine(text: string, start: number, end: number): string | null {
  const [lineStart, next] = lineAround(text, start, end);
  if (next - start > HEADER_LENGTH) return null;
  const line = (text.slice(Math.max(lineStart, start - HEADER_LENGTH - 8), start).split(/[ \t]{2,}|\t|[ \t][-−‐]{1,2}[ \t]|[–—]/u).at(-1) ?? '') + text.slice(start, next);
  return line.length > HEADER_LENGTH ? null : line;
}

/**
 * Whether the line around a candidate is in another language, on a page that may hold English too: four
 * lower-case words or more, no English function word among them, and fewer than half of them common English
 * words ("Zde, v České republice, stále není povoleno ani"); with `accented`, one of them has a letter beyond a–z.
 */
export function foreignLine(text: string, start: number, end: number, accented: boolean): boolean {
  return (accented ? foreignAccented : foreignAny)(text, start, end);
}
const foreignAny = perLine((line) => foreignWords(line, false));
const foreignAccented = perLine((line) => foreignWords(line, true));

function foreignWords(line: string, accented: boolean): boolean {
  const words = line.match(/(?<![\p{L}\p{N}_\\\-−‐])\p{Ll}{2,}(?![\p{L}\p{N}_(\-−‐])/gu) ?? [];
  if (words.length < 4 || words.some((word) => FUNCTION_WORDS.has(word))) return false;
  if (accented && !words.some((word) => /[^a-z]/.test(word))) return false;
  return words.filter((word) => stems(word).some((stem) => commonWords().has(stem))).length * 2 < words.length;
}

/** A shelfmark or numbered reference after a candidate's abbreviated last word ("Parisinus Lat. 5056", "Vol. 3"). */
export function abbreviationNumber(text: string, start: number, end: number): boolean {
  // The full stop may lie outside the candidate.
  const last = /(?<!\p{L})(\p{Lu}\p{Ll}{1,2})(\.?)$/u.exec(text.slice(start, end));
  if (last === null || known((last[1] as string).toLowerCase()) || SUFFIX.test((last[1] as string).toUpperCase())) return false;
  return new RegExp(`^${last[2] ? '' : '\\.'}[^\\S\\n]*\\d`, 'u').test(text.slice(end, end + 5));
}

/** A legal form of a firm or society after a candidate ("Deutschsprachige Anwendervereinigung TEX e.V.", "Acme Widgets GmbH"). */
const LEGAL_FORM_AFTER = /^[^\S\n]+(?:[\p{Lu}][\p{L}&'’-]*[^\S\n]+){0,2}(?:e\.[^\S\n]?V\.|g?GmbH|mbH|S\.A\.|S\.p\.A\.|SARL|B\.V\.|N\.V\.|Pty|PLC)(?![\p{L}])/u;
export const legalFormAfter = (text: string, end: number) => LEGAL_FORM_AFTER.test(text.slice(end, end + 60));

/**
 * A rule about the line (or lines) a candidate sits on, answered once per line of the text last asked about: a
 * long line holds a candidate at every other word, and reading the whole line for each was quadratic.
 */
export function perLine<T>(judge: (line: string) => T): (text: string, start: number, end: number) => T {
  let answered: { text: string; answers: Map<string, T> } | null = null;
  return (text, start, end) => {
    const [lineStart, lineEnd] = lineAround(text, start, end);
    if (answered?.text !== text) answered = { text, answers: new Map() };
    const key = `${lineStart}:${lineEnd}`;
    const cached = answered.answers.get(key);
    if (cached !== undefined) return cached;
    const answer = judge(text.slice(lineStart, lineEnd));
    answered.answers.set(key, answer);
    return answer;
  };
}

/** Where the text last asked about breaks its lines ('\n'), in order. */
let lineBreaks: { text: string; at: Int32Array } | null = null;

/**
 * The line or lines from `start` to `end`: from after the last line break before `start` to the first at or after
 * `end` (or the text's end). Found by halving over the text's line breaks, read once per text.
 */
export function lineAround(text: string, start: number, end: number): [number, number] {
  if (lineBreaks?.text !== text) {
    const at: number[] = [];
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) at.push(index);
    lineBreaks = { text, at: Int32Array.from(at) };
  }
  const breaks = lineBreaks.at;
  // The first break at or after a position.
  const firstFrom = (position: number) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((breaks[middle] as number) < position) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  // As text.lastIndexOf('\n', start - 1), which reads position 0 for a start of 0.
  const before = firstFrom(Math.max(start - 1, 0) + 1) - 1;
  const after = firstFrom(end);
  return [before >= 0 ? (breaks[before] as number) + 1 : 0, after < breaks.length ? (breaks[after] as number) : text.length];
}

/** For the text last asked about (wordBounds). */
let boundsOf: { text: string; lastBreak: Int32Array; nextSpace: Int32Array } | null = null;

/**
 * Per index of a text: the last space, line break or tab at or before it (-1 if none), and the first white space
 * at or after it (the text's length if none). Read once per text, for rules that look at the whole word around
 * each candidate: scanning from each one was quadratic on a long line.
 */
export function wordBounds(text: string): { lastBreak: Int32Array; nextSpace: Int32Array } {
  if (boundsOf?.text === text) return boundsOf;
  const lastBreak = new Int32Array(text.length);
  const nextSpace = new Int32Array(text.length + 1);
  let last = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 10 || code === 9) last = index;
    lastBreak[index] = last;
  }
  nextSpace[text.length] = text.length;
  for (let index = text.length - 1; index >= 0; index -= 1) nextSpace[index] = /\s/.test(text.charAt(index)) ? index : (nextSpace[index + 1] as number);
  boundsOf = { text, lastBreak, nextSpace };
  return boundsOf;
}
