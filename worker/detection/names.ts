import { clamp, type Candidate } from './candidate.js';
import { recognise } from './ner/tagger.js';
import { adverbInside, adverbShaped, afterPossessive, backedBy, brokenWord, capitalisedLine, citedWork, codeShaped, inImprint, listedWords, mailedAcronym, nonNameWord, productAround, quotedWord, termContext, termNotName, termRecurrence, type DocumentContext } from './name-precision.js';
import { bareImprint, codeArgument, germanFunctionWord, germanInside, germanNounShaped, languageNames, placeBeforeState } from './name-imprint.js';
import { abbreviationNumber, commonWord, dashedPiece, eponym, titleCaseHeader, trailingCode, unlikelyName, wordBounds } from './name-shape.js';
import { AMBIGUOUS_FIRST_NAMES, CLOSED_CLASS_WORDS, FIRST_NAMES, NOT_NAME_WORDS, ORGANISATION_WORDS, ROLE_WORDS, SURNAMES, TITLES } from './name-lists.js';

// Person names: sequences of capitalised words, scored by the evidence around them: a title before them
// (Mr., Det., Judge), a known given name first, a known surname last, a middle initial, a label or verb
// nearby (Name:, Sincerely, said). A name found with good evidence is then also found where it recurs
// alone ("Ms. Alvarez" … "Alvarez said"), across the whole document.

interface Token {
  core: string;
  start: number;
  end: number;
  /** Punctuation right before and after the word (stripped from `core`). */
  before: string;
  after: string;
  /** Whitespace before the word: ' ', '\t' or something with '\n'; '' for the first word. */
  gap: string;
}

type Shape = 'cap' | 'upper' | 'initial' | 'particle' | 'suffix' | 'other';

const CAP = /^\p{Lu}\p{Ll}*(?:['’]?\p{Lu}\p{Ll}+)*(?:-\p{Lu}\p{Ll}+)?$/u;
const UPPER = /^\p{Lu}(?:[\p{Lu}'’-]*\p{Lu})$/u;
const PARTICLES = new Set(['de', 'del', 'della', 'der', 'van', 'von', 'da', 'di', 'du', 'le', 'la', 'bin', 'ibn', 'al', 'st.']);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(/\S+/g)) {
    const raw = match[0];
    const lead = /^[("'“‘[]*/.exec(raw)?.[0].length ?? 0;
    const trail = /[.,;:!?)"'”’\]]*$/.exec(raw.slice(lead))?.[0] ?? '';
    let core = raw.slice(lead, raw.length - trail.length);
    let after = trail;
    // Possessives ("Alvarez's") keep the name part as the word.
    const possessive = /['’]s$/.exec(core);
    if (possessive && core.length > 3) {
      core = core.slice(0, -2);
      after = possessive[0] + trail;
    }
    const start = match.index + lead;
    tokens.push({ core, start, end: start + core.length, before: raw.slice(0, lead), after, gap: previousEnd === 0 && tokens.length === 0 ? '' : text.slice(previousEnd, match.index) });
    previousEnd = match.index + raw.length;
  }
  return tokens;
}

function shapeOf(token: Token): Shape {
  const lower = token.core.toLowerCase();
  if (SUFFIXES.has(lower)) return 'suffix';
  if (PARTICLES.has(lower) && token.core === lower) return 'particle';
  if (/^\p{Lu}$/u.test(token.core) && token.after.startsWith('.')) return 'initial';
  if (token.core.length >= 2 && CAP.test(token.core)) return 'cap';
  // Short capitals are mostly acronyms (DOB, SSN, FBI) unless they are a known name (LEE, COX).
  if (UPPER.test(token.core) && (token.core.length >= 4 || FIRST_NAMES.has(lower) || SURNAMES.has(lower))) return 'upper';
  return 'other';
}

const isWord = (shape: Shape) => shape === 'cap' || shape === 'upper';
/** A capitalised word that cannot be part of a name (unless it is also a known given name or surname). */
const blocked = (lower: string) => (NOT_NAME_WORDS.has(lower) || TITLES.has(lower) || ROLE_WORDS.has(lower)) && !FIRST_NAMES.has(lower) && !SURNAMES.has(lower);

// Evidence in the words around a name. A form label ends with a colon; a role or verb sits right next to it;
// an age or a date of birth in brackets follows it ("(45)", "(3/4/1980)"), not a part number ("Specials (1)").
const COLON_LABEL =
  /\b(?:(?:full |last |first |employee |legal )?name|employee|witness|complainant|requester|requestor|applicant|plaintiff|defendant|victim|suspect|subject|patient|inmate|client|tenant|owner|driver|passenger|spouse|parent|guardian|(?:emergency )?contact|from|to|cc|bcc|attn|attention|by|signed|signature|prepared by|approved by|reviewed by|submitted by|investigator|author|recipient|sender|interviewee|reporting party)\s*[:#]\s*$/i;
const ROLE_BEFORE =
  /\b(?:dear|hi|hello|witness|complainant|requester|requestor|applicant|plaintiff|defendant|victim|suspect|patient|inmate|tenant|spouse|wife|husband|son|daughter|mother|father|brother|sister|neighbou?r|roommate|spoke with|met with|talked (?:to|with)|called|emailed|interviewed|according to|prepared by|approved by|reviewed by|submitted by|signed by|written by|accompanied by|assisted by|represented by|joined by|contacted|present (?:was|were))\s*,?\s*$/i;
const SIGN_OFF = /(?:^|\n)[ \t]*(?:sincerely|respectfully(?: submitted)?|regards|best regards|kind regards|best|thanks|thank you|cordially|(?:very )?truly yours|yours truly)[ \t]*,?[ \t]*\n[ \t]*$/i;
const AFTER_CUE =
  /^\s*(?:,\s*(?:who|age|aged|dob|a|an|the|his|her)\b|\((?:dob|age|\d{2,3}[),]|\d{1,4}[/.-]\d)|(?:said|says|stated|states|told|reported|wrote|testified|explained|called|emailed|asked|advised|confirmed|denied|admitted|signed|indicated|noted|added|agreed|refused|complained|requested|recalled|described|claimed|alleged|provided|declined|responded|arrived|was interviewed|was present|was arrested|was born|is employed)\b)/i;
const ROLE_AFTER = /^\s*,\s*(?:plaintiffs?|defendants?|petitioners?|respondents?|appellants?|appellees?|claimants?|movants?|declarant|affiant|witness|deceased)\b/i;
/** A place or an organisation follows these ("at Lincoln Park", "the Washington Post"). */
const PLACE_BEFORE = /\b(?:at|in|near|into|across|toward|towards|on|via|outside|inside|visited)\s+$/i;
const ARTICLE_BEFORE = /\b(?:the|of)\s+$/i;

interface Evidence {
  cues: string[];
  /** Points added for context (labels, roles, sign-offs, verbs), or taken for place words. */
  bonus: number;
}

function contextEvidence(text: string, start: number, end: number, upper: boolean): Evidence {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 40), start);
  const cues: string[] = [];
  let bonus = 0;
  const label = COLON_LABEL.exec(before);
  // "Bill to:", "Ship to:", "Remit to:" introduce companies as often as people.
  if (label && !/\b(?:bill|ship|sold|remit|deliver|pay)\s+to\s*:\s*$/i.test(before)) {
    cues.push(label[0].replace(/[\s:#]+$/, '').toLowerCase());
    bonus = 0.25;
  }
  const role = ROLE_BEFORE.exec(before);
  // Headings in capitals sit right under or after role words ("EMPLOYEE TRAVEL AUTHORIZATION"): only labels count for them.
  if (role && !upper && bonus === 0) {
    cues.push(role[0].replace(/[\s,]+$/, '').toLowerCase());
    bonus = 0.2;
  }
  if (!upper && start === lineStart + (text.slice(lineStart, start).length - text.slice(lineStart, start).trimStart().length) && SIGN_OFF.test(text.slice(Math.max(0, lineStart - 40), lineStart))) {
    cues.push('sign-off');
    bonus = Math.max(bonus, 0.25);
  }
  // Case captions: "JANE DOE,\n Plaintiff,"; a role after the comma counts for names in capitals too.
  if (ROLE_AFTER.test(text.slice(end, end + 30))) {
    cues.push('role');
    bonus = Math.max(bonus, 0.25);
  }
  // Place words before the name count against it unless a label, role or sign-off says otherwise.
  const strong = bonus > 0;
  if (!upper && AFTER_CUE.test(text.slice(end, end + 30))) {
    cues.push('verb');
    bonus = Math.max(bonus, 0.2);
  }
  if (!strong) {
    if (ARTICLE_BEFORE.test(before)) bonus -= 0.3;
    else if (PLACE_BEFORE.test(before)) bonus -= 0.2;
  }
  return { cues, bonus };
}

interface Chain {
  tokens: Token[];
  shapes: Shape[];
  /** Index in the page's token list of the first token. */
  first: number;
}

/** Maximal runs of name-shaped words joined by single spaces, split at words that cannot be names. */
function chains(tokens: Token[]): Chain[] {
  const result: Chain[] = [];
  let current: Chain | null = null;
  tokens.forEach((token, index) => {
    const shape = shapeOf(token);
    const nameish = (isWord(shape) && !blocked(token.core.toLowerCase())) || shape === 'initial' || ((shape === 'particle' || shape === 'suffix') && current !== null);
    const previous = tokens[index - 1];
    const joined = current !== null && previous !== undefined && token.gap === ' ' && token.before === '' && (previous.after === '' || (/^\.$/.test(previous.after) && (shapeOf(previous) === 'initial' || SUFFIXES.has(previous.core.toLowerCase()))) || (previous.after === ',' && SUFFIXES.has(token.core.toLowerCase())));
    if (nameish && joined && current) {
      current.tokens.push(token);
      current.shapes.push(shape);
    } else {
      if (current) result.push(current);
      current = nameish ? { tokens: [token], shapes: [shape], first: index } : null;
    }
  });
  if (current) result.push(current);
  return result;
}

/** A title right before the chain: "Mr.", "Det.", "Judge", also "Dr. and Mrs."-less plain forms. */
function titleBefore(tokens: Token[], chain: Chain): string | null {
  const previous = tokens[chain.first - 1];
  const first = chain.tokens[0];
  if (!previous || !first || first.gap !== ' ') return null;
  if (!TITLES.has(previous.core.toLowerCase()) || !/^\.?$/.test(previous.after)) return null;
  // A title in capitals before a word that is not ("MS Windows", "DR Congo") is an abbreviation of something else.
  if (/^\p{Lu}{2,}$/u.test(previous.core) && !/^\p{Lu}{2,}/u.test(first.core)) return null;
  return previous.core.toLowerCase();
}

function scoreChain(text: string, tokens: Token[], chain: Chain): Candidate | null {
  // Trim particles, suffixes and initials at the start; particles at the end.
  let from = 0;
  let to = chain.tokens.length;
  while (from < to && (chain.shapes[from] === 'particle' || chain.shapes[from] === 'suffix')) from += 1;
  while (to > from && chain.shapes[to - 1] === 'particle') to -= 1;
  const parts = chain.tokens.slice(from, to);
  const shapes = chain.shapes.slice(from, to);
  const words = parts.filter((_, index) => isWord(shapes[index] as Shape));
  if (words.length === 0 || words.length > 4) return null;
  const next = tokens[chain.first + chain.tokens.length];
  if (next && next.gap === ' ' && isWord(shapeOf(next)) && ORGANISATION_WORDS.has(next.core.toLowerCase())) return null;
  const firstWord = (words[0] as Token).core.toLowerCase();
  const lastWord = (words.at(-1) as Token).core.toLowerCase();
  const title = titleBefore(tokens, { ...chain, first: chain.first + from, tokens: parts, shapes });
  const knownFirst = FIRST_NAMES.has(firstWord) && !AMBIGUOUS_FIRST_NAMES.has(firstWord);
  const ambiguousFirst = AMBIGUOUS_FIRST_NAMES.has(firstWord);
  const knownLast = words.length >= 2 && SURNAMES.has(lastWord);
  const hasInitial = shapes.includes('initial') && words.length >= 2;
  const allUpper = words.every((word) => UPPER.test(word.core));
  const start = (parts[0] as Token).start;
  const end = (parts.at(-1) as Token).end + ((parts.at(-1) as Token).after.startsWith('.') && shapes.at(-1) !== 'cap' && shapes.at(-1) !== 'upper' ? 1 : 0);
  const evidence = contextEvidence(text, start, end, allUpper);
  let score: number;
  if (title) score = words.length <= 3 ? 0.85 : 0.6;
  else if (words.length < 2) return null;
  else if (knownFirst) score = knownLast ? 0.85 : 0.75;
  else if (ambiguousFirst && knownLast) score = 0.7;
  else if (knownLast) score = 0.6;
  else if (hasInitial) score = 0.55;
  else score = 0.3;
  if (hasInitial && !title && (knownFirst || knownLast)) score += 0.1;
  score += title ? Math.max(0, evidence.bonus) : evidence.bonus;
  if (allUpper && !title && evidence.bonus <= 0) score -= 0.1;
  return { entity: 'person_name', start, end, score: clamp(score), cues: [...(title ? [title] : []), ...evidence.cues] };
}

/**
 * "Smith, John A." as forms and rosters print names: a surname, a comma, then a given name that is known,
 * or any name-shaped word after a form label ("Name: OKONKWO, ÉMILIE").
 */
function invertedNames(text: string, tokens: Token[]): Candidate[] {
  const found: Candidate[] = [];
  tokens.forEach((token, index) => {
    const given = tokens[index + 1];
    if (!given || token.after !== ',' || given.gap !== ' ' || given.before !== '') return;
    if (!isWord(shapeOf(token)) || !isWord(shapeOf(given)) || blocked(token.core.toLowerCase()) || blocked(given.core.toLowerCase())) return;
    const givenLower = given.core.toLowerCase();
    const knownGiven = FIRST_NAMES.has(givenLower) && !AMBIGUOUS_FIRST_NAMES.has(givenLower);
    let last = given;
    const initial = tokens[index + 2];
    if (initial && initial.gap === ' ' && given.after === '' && shapeOf(initial) === 'initial') last = initial;
    const end = last.end + (last === initial && last.after.startsWith('.') ? 1 : 0);
    const evidence = contextEvidence(text, token.start, end, false);
    const label = evidence.cues.length > 0 && evidence.bonus >= 0.25;
    if (!knownGiven && !label) return;
    const base = knownGiven ? (SURNAMES.has(token.core.toLowerCase()) ? 0.75 : 0.6) : 0.35;
    found.push({ entity: 'person_name', start: token.start, end, score: clamp(base + evidence.bonus), cues: evidence.cues });
  });
  return found;
}

/**
 * Names the trained tagger finds (ner/), scored by its confidence plus the context evidence; and the rule
 * candidates, of which those the tagger reads as an organisation or place lose points unless a title or
 * cue backs them.
 */
export function findNames(text: string, document: DocumentContext | null = null): Candidate[] {
  const tokens = tokenize(text);
  const rules: Candidate[] = [];
  for (const chain of chains(tokens)) {
    const candidate = scoreChain(text, tokens, chain);
    if (candidate) rules.push({ ...candidate, rule: 'rule:name-words' });
  }
  rules.push(...invertedNames(text, tokens).map((candidate) => ({ ...candidate, rule: 'rule:last-first' })));
  const { spans } = recognise(text);
  // E-mail local parts on the page ("m.gonzalez@…", "maria.gonzalez@…") back names whose words they hold.
  const localParts = [...text.matchAll(/([A-Za-z][A-Za-z0-9._-]{1,63})@[A-Za-z0-9-]+\./g)].map((match) => (match[1] as string).toLowerCase().split(/[._-]+/));
  const inEmail = (value: string) => {
    const words = value.toLowerCase().split(/[^\p{L}]+/u).filter((word) => word.length >= 3);
    return words.length > 0 && localParts.some((parts) => words.some((word) => parts.includes(word) || parts.some((part) => part.length > word.length && part.endsWith(word) && part.length - word.length <= 2)));
  };
  const found: Candidate[] = [];
  for (const span of spans) {
    if (span.kind !== 'PER') continue;
    const value = text.slice(span.start, span.end);
    // Lower-case words alone ("mom", "bro") are rarely worth a redaction suggestion in records.
    if (!/\p{Lu}/u.test(value) || !/\p{L}{2}/u.test(value)) continue;
    const evidence = contextEvidence(text, span.start, span.end, /^[^\p{Ll}]+$/u.test(value));
    // "Johnson Controls Inc.": capitalised words running on into an organisation word belong to a company.
    const runOn = /^,?[ \t]+(?:\p{Lu}[\p{L}&'’-]*[ \t]+){0,2}(\p{Lu}[\p{L}]*)/u.exec(text.slice(span.end, span.end + 60));
    if (runOn && ORGANISATION_WORDS.has((runOn[1] as string).toLowerCase()) && evidence.cues.length === 0) continue;
    const email = inEmail(value);
    const score = 0.5 + 0.45 * span.confidence + Math.max(0, evidence.bonus) * 0.4 + (email ? 0.1 : 0);
    found.push({ entity: 'person_name', start: span.start, end: span.end, score: clamp(score), cues: email ? [...evidence.cues, 'e-mail'] : evidence.cues, rule: 'model:ner-perceptron' });
  }
  for (const ruleCandidate of rules) {
    // A rule name whose words an address on the page holds counts as backed.
    const candidate = inEmail(text.slice(ruleCandidate.start, ruleCandidate.end)) ? { ...ruleCandidate, score: clamp(ruleCandidate.score + 0.1), cues: [...ruleCandidate.cues, 'e-mail'] } : ruleCandidate;
    const other = spans.find((span) => span.kind !== 'PER' && span.start < candidate.end && candidate.start < span.end && span.confidence >= 0.6);
    const backed = candidate.cues.length > 0;
    const agreed = spans.some((span) => span.kind === 'PER' && span.start < candidate.end && candidate.start < span.end);
    // Without a cue, the tagger's view decides: an organisation or place loses a lot, no name at all some.
    const penalty = backed || agreed ? 0 : other ? (other.confidence >= 0.9 ? 0.5 : 0.3) : 0.2;
    const rule = penalty > 0 ? { ...candidate, score: clamp(candidate.score - penalty) } : candidate;
    // One name found both ways: the longer span, with the better score ("OKONKWO, ÉMILIE" over "ÉMILIE").
    const inside = found.findIndex((model) => model.rule?.startsWith('model:') && model.start >= rule.start && model.end <= rule.end);
    const around = found.findIndex((model) => model.rule?.startsWith('model:') && rule.start >= model.start && rule.end <= model.end);
    if (inside >= 0) {
      const model = found[inside] as Candidate;
      found[inside] = { ...rule, score: Math.max(rule.score, model.score), cues: [...new Set([...rule.cues, ...model.cues])], rule: `${model.rule}+${rule.rule}` };
    } else if (around >= 0) {
      const model = found[around] as Candidate;
      found[around] = { ...model, score: Math.max(rule.score, model.score), cues: [...new Set([...model.cues, ...rule.cues])], rule: `${model.rule}+${rule.rule}` };
    } else found.push(rule);
  }
  // Product, tool and code names, and words the page writes in lower case or as a heading (name-precision.ts).
  const context = termContext(text, document);
  return found.flatMap((candidate) => {
    const unwrapped = afterClosedClassWord(text, beforeCodeWord(text, candidate));
    const cut = context.technical ? beforeWrappedWord(text, unwrapped) : unwrapped;
    if (!cut) return [];
    const evidence = backedBy(cut.cues);
    // Cues before the name (title, label, role, sign-off) back it; a verb or ", a" after it is weaker.
    const backed = backedBy(cut.cues.filter((cue) => cue !== 'verb'));
    const end = trailingCode(text, cut.start, cut.end);
    if (end < 0 && !backed) return [];
    const trimmed = end > 0 && end !== cut.end ? { ...cut, end } : cut;
    const value = text.slice(trimmed.start, trimmed.end);
    // In technical text an after-cue does not outweigh the document's own use of the words (Universal Ctags, a …).
    const termEvidence = context.technical ? backed : evidence;
    if (unlikelyName(text, trimmed.start, trimmed.end, context, backed, evidence)) return [];
    // A heading's document word with no cue ("Appendix A"); an acronym only an e-mail address backs ("TEX", tex-k@…).
    if (nonNameWord(value, context, trimmed.cues) || mailedAcronym(value, trimmed.cues) || quotedWord(text, trimmed.start, trimmed.end, context, trimmed.cues)) return [];
    // A place or publisher of a reference's imprint ("(New York: Harper & Brothers, 1869)").
    if (inImprint(text, trimmed.start, trimmed.end, context)) return [];
    // A person's work or thing ("Caesar’s Gallic War"), with no cue of its own.
    if (!backed && afterPossessive(text, trimmed.start, context)) return [];
    // A word broken at a line's end ("Li-"), an adverb ("Assumably,"), a work cited after its author ("Caesar, Gallic
    // War, ed."): no person, in technical text (twelfth round).
    if (!backed && (brokenWord(text, trimmed.start, trimmed.end, context) || adverbInside(value, context) || citedWork(text, trimmed.start, trimmed.end, context))) return [];
    // German prose's function words and abstract nouns ("Zum Beispiel"), languages' names ("Deutsch English"); a place or publisher of an imprint without
    // brackets ("Reading, MA : Addison-Wesley, 1997"): no person, in technical text (thirteenth round).
    if (germanInside(value, context) || languageNames(value, context) || bareImprint(text, trimmed.start, trimmed.end, context)) return [];
    // A town before a US state ("Murray Hill, New Jersey"), a code call's argument ("feeds(Pedro,X)"), with no cue.
    if (!backed && (placeBeforeState(text, trimmed.end, context) || codeArgument(text, trimmed.start, trimmed.end, context))) return [];
    return !termNotName(value, context, termEvidence) && !productAround(text, trimmed.start, trimmed.end, context, evidence) && !listedWords(text, trimmed.start, trimmed.end, evidence) ? [trimmed] : [];
  });
}

/**
 * In technical text, the candidate up to a line break after which only common English words follow ("Abraham Lincoln\nExecutive
 * Mansion"): a name wrapped onto the next line goes on with a name word, and a line opening with a common word
 * starts something else.
 */
function beforeWrappedWord(text: string, candidate: Candidate | null): Candidate | null {
  if (!candidate) return null;
  const value = text.slice(candidate.start, candidate.end);
  const at = value.lastIndexOf('\n');
  if (at <= 0) return candidate;
  const kept = value.slice(0, at).replace(/[\s,;:]+$/u, '');
  const rest = value.slice(at + 1).match(/\p{L}[\p{L}'’]*/gu) ?? [];
  if (kept.length === 0 || rest.length === 0 || !rest.every((word) => commonWord(word.toLowerCase()))) return candidate;
  return { ...candidate, end: candidate.start + kept.length };
}

/** The candidate less a first word that is a preposition or conjunction ("Under Linux" → "Linux"): no name begins with one. */
function afterClosedClassWord(text: string, candidate: Candidate | null): Candidate | null {
  if (!candidate) return null;
  const first = /^(\p{L}+)[^\S\n]+(?=\S)/u.exec(text.slice(candidate.start, candidate.end));
  if (!first || !CLOSED_CLASS_WORDS.has((first[1] as string).toLowerCase())) return candidate;
  return { ...candidate, start: candidate.start + first[0].length };
}

/** The candidate up to its first word shaped like code, read whole ("Name" of "Name.Builtin"); null when that is its first word. */
function beforeCodeWord(text: string, candidate: Candidate): Candidate | null {
  const bounds = wordBounds(text);
  let end = candidate.start;
  for (const match of text.slice(candidate.start, candidate.end).matchAll(/\S+/g)) {
    const from = candidate.start + match.index;
    const after = from + match[0].length;
    // The whole word the first one begins in (back to a space, line break or tab); each to its next white space.
    const wordStart = from === candidate.start ? (bounds.lastBreak[from] as number) + 1 : from;
    const to = after < text.length ? (bounds.nextSpace[after] as number) : after;
    if (codeShaped(text.slice(wordStart, to))) break;
    end = Math.min(candidate.end, from + match[0].length);
  }
  if (end === candidate.end) return candidate;
  const kept = text.slice(candidate.start, end).replace(/[\s,;:(]+$/u, '');
  return kept.split(/\s+/).length >= 2 ? { ...candidate, end: candidate.start + kept.length } : null;
}

/** The words of names found with good evidence, to look for where they recur alone. */
export function nameWords(text: string, names: readonly Candidate[]): Set<string> {
  const words = new Set<string>();
  // The page's own context: a name backed here recurs even where another page writes its word in lower case
  // (recurringNames holds back only heading and product uses, with the document's context).
  const context = termContext(text);
  for (const name of names) {
    // Good evidence: a high score, or a passing one that context (title, label, verb) earned.
    if (name.entity !== 'person_name' || name.score < 0.5 || (name.score < 0.7 && name.cues.length === 0)) continue;
    const tokens = tokenize(text.slice(name.start, name.end)).filter((token) => isWord(shapeOf(token)));
    tokens.forEach((token, index) => {
      const lower = token.core.toLowerCase();
      // Given names that are also words (Will, Grant) do not recur alone as names; surnames (King, Lee) do.
      const ambiguous = AMBIGUOUS_FIRST_NAMES.has(lower) && index < tokens.length - 1;
      if (token.core.length < 2 || blocked(lower) || ambiguous || TITLES.has(lower) || codeShaped(token.core) || termNotName(token.core, context, false)) return;
      words.add(lower);
    });
  }
  return words;
}

/** Recurrences of known name words (surname or given name alone, any case form) in a page. */
export function recurringNames(text: string, words: ReadonlySet<string>, document: DocumentContext | null = null): Candidate[] {
  if (words.size === 0) return [];
  const found: Candidate[] = [];
  const tokens = tokenize(text);
  const context = termContext(text, document);
  tokens.forEach((token, index) => {
    const lower = token.core.toLowerCase();
    if (!isWord(shapeOf(token)) || !words.has(lower) || termRecurrence(token.core, context)) return;
    // An unknown word recurring in a bare line of capitalised words is a heading's or a table's word ("Page Fault Count Delta").
    if (!FIRST_NAMES.has(lower) && !SURNAMES.has(lower) && capitalisedLine(text, token.start, token.end)) return;
    // In technical text an unknown word in capitals recurring alone is an acronym (JPEG, JFIF), not a surname,
    // unless a reference list's initial or given name follows it (SALTZ, I., 2019).
    if (context.technical && /^\p{Lu}{2,}$/u.test(token.core) && !FIRST_NAMES.has(lower) && !SURNAMES.has(lower) && !/^[^\S\n]*,[^\S\n]*\p{Lu}/u.test(text.slice(token.end, token.end + 6))) return;
    if (inImprint(text, token.start, token.end, context) || afterPossessive(text, token.start, context)) return;
    // An adverb's shape ("Assumably,") is no name's, and a word broken at a line's end is no word (twelfth round).
    if (context.technical && (adverbShaped(lower) || brokenWord(text, token.start, token.end, context))) return;
    if (context.technical && (germanFunctionWord(lower) || germanNounShaped(lower) || bareImprint(text, token.start, token.end, context) || placeBeforeState(text, token.end, context))) return;
    if (eponym(text, token.end, context.technical) || abbreviationNumber(text, token.start, token.end) || (context.technical && (dashedPiece(text, token.start, token.end) || titleCaseHeader(text, token.start, token.end, context.lower)))) return;
    const end = token.end;
    const next = tokens[index + 1];
    if (next && next.gap === ' ' && isWord(shapeOf(next)) && ORGANISATION_WORDS.has(next.core.toLowerCase())) return;
    found.push({ entity: 'person_name', start: token.start, end, score: 0.7, cues: ['recurs'] });
  });
  return found;
}
