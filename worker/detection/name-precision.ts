import { FIRST_NAMES, NOT_NAME_WORDS, SURNAMES, TITLES } from './name-lists.js';
import { EPONYM_IN_TECHNICAL, commonWord, perLine, withoutEnglish } from './name-shape.js';
import { technicalVocabulary } from './technical-vocabulary.js';

// Technical prose names products, tools and code (SpiderMonkey, LuaTeX-ko, Luaotfload, Specials) in the
// capitalised words a name detector feeds on. These tests say when such a word is no person, from the word's
// own shape and from how the same page writes it elsewhere (in lower case, as a heading).

/** Mc/Mac/O'/De… glue a capital inside real surnames (McCloskey, DeLuca, O'Brien, MacKenzie). */
const NAME_PREFIX = /^(?:Mc|Mac|O['’]|D['’]|De|Di|Da|Du|Del|Della|La|Le|Van|Von|Fitz|St)\p{Lu}\p{Ll}+$/u;

/** A word shaped like code or a product name: an inner capital, digits, dots or underscores inside, a hyphen to a lower-case or mixed part. */
export function codeShaped(word: string): boolean {
  const core = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/u, '');
  if (core.length === 0) return false;
  // A TeX command (\Bbb, \mathbb): the backslash goes with the leading punctuation stripped above.
  if (/\\\p{L}/u.test(word)) return true;
  // Initials run together (J.R.R.) are no code; a dot between words of letters is (Name.Builtin, os.path).
  if (/[\d_\\/@{}=<>#$%^*+|~]/u.test(core) || /\p{L}{2,}\.\p{L}|\p{L}\.\p{L}{2,}|\p{L}:\p{L}/u.test(core)) return true;
  // The minus sign and dashes of typeset manuals stand for the hyphen (Ctrl−D, perf−stat).
  if (/[-−‐–]/u.test(core)) {
    const parts = core.split(/[-−‐–]/u).filter((part) => part.length > 0);
    // JEAN-PIERRE in capitals, Jean-Pierre or Pégourié-Gonnard in title case; KOMA-Script, LuaTEX-ko, Kernel-level not.
    if (parts.every((part) => /^\p{Lu}[\p{Lu}'’]+$/u.test(part))) return false;
    return parts.some((part) => !/^\p{Lu}[\p{Ll}'’]+$/u.test(part));
  }
  // Camel case (MakeIndex, SpiderMonkey, LuaTeX, PFskip), but not the surname prefixes above.
  if (/\p{Ll}\p{Lu}/u.test(core) || /^\p{Lu}{2,}\p{Ll}/u.test(core)) return !NAME_PREFIX.test(core);
  return false;
}

/**
 * A token of code: a TeX or shell command, camel case, snake_case, a call, braces, a scope or an assignment
 * (not a handle, hashtag or URL), a command-line option (--output, −f), a file name with a source, data or
 * font extension.
 */
export const CODE_TOKEN =
  /^(?![@#])(?!.*(?:\/\/|www\.))(?:.*\\\p{L}|.*\p{Ll}\p{Lu}(?!\p{Ll}{2,}$)|.*\p{L}_\p{L}|.*\p{L}\.\p{Ll}\p{L}*\(|.*[{}]|.*\(\)|.*::|.*\p{L}=|\[?[-−–‐]{1,2}\p{L}[\p{L}\d-]*[\],.]?$|[\p{L}\d][\w.-]*\.(?:c|h|cc|cpp|py|js|ts|rb|pl|pm|lua|tex|sty|cls|dtx|ins|bib|bst|pdf|ps|eps|dvi|txt|md|json|xml|html?|css|sh|conf|cfg|ini|ya?ml|toml|log|tar|gz|xz|zip|png|jpe?g|svg|otf|ttf|pfb|afm|tfm|vf|map|enc|so|dll|exe|deb|rpm)[,.;:)]?$)/u;

/**
 * Head nouns that end the names of products, components and documents in technical writing ("General
 * Commands Manual", "Font Loader", "Lucida Console", "Page Fault Count"); a name ending in one is no person
 * unless the word is also a known surname. The last line (ninth round) holds the nouns of a document's parts
 * ("Dyndep Examples", "Front-Cover Texts", "Release Notes").
 */
const TERM_HEADS = new Set(
  `manual manuals guide handbook reference tutorial howto faq readme console parser loader archive archives kernel server servers client
  library libraries toolkit engine framework editor compiler interpreter debugger driver drivers shell terminal consortium standard
  standards format formats protocol script scripts font fonts typeface package packages module modules plugin plugins extension extensions
  system systems software hardware firmware count counts mode modes level levels table tables file files window windows message messages
  key keys command commands option options code codes data database network cloud platform service services api sdk studio suite tool
  tools utility utilities manager monitor viewer browser builder generator converter processor controller handler wizard explorer player
  edition version release specification specifications specials interface language languages machine algorithm fault error errors
  exception test tests memory cache buffer stack queue pipeline runtime device devices project projects directory repository storage
  character characters encoding encodings category categories set sets list lists field fields value values variable variables function
  functions parameter parameters argument arguments flag flags class classes object objects method methods type types array arrays string
  strings integer number numbers block blocks page pages section sections chapter figure graph chart node nodes roman sans serif italic
  bold oblique typewriter mono monospace fraktur gothic publisher publishers publishing press dictionary encyclopedia collaboration
  example examples text texts note notes overview introduction usage syntax`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words that end a typeface's name in technical text: its style, weight, width or size, or a font set's mark
 * ("Cambria Math", "Kurier Light", "Iwona Condensed", "Myriad Pro", "Helvetica Neue", "Zapf Dingbats"); written
 * from general knowledge of how type is named (eleventh round).
 */
const TYPEFACE_WORDS = new Set(
  `pro neue std math bright grande condensed compressed narrow extended expanded light thin medium regular semibold demibold heavy
  display caption titling chancery dingbats ornaments symbols oblique slanted upright roman sans serif italic bold mono typewriter
  grotesk grotesque antiqua`
    .split(/\s+/)
    .filter(Boolean),
);

/** Nouns that name what a product is, written in lower case after its name ("the Psyco compiler", "Huffman tables"). */
const PRODUCT_NOUNS =
  'compiler|compilers|interpreter|engine|browser|library|package|packages|framework|toolkit|editor|server|client|driver|module|plugin|extension|implementation|shell|program|programs|application|tool|tools|utility|format|font|fonts|typeface|language|system|project|coding|code|codes|tables|algorithm|protocol|parser|debugger|kernel|runtime|command|option|bindings|api';
const PRODUCT_USE = new RegExp(`(?<![\\p{L}\\p{N}_\\-])(\\p{Lu}\\p{Ll}{2,})[ \\t]+(?:(?:${PRODUCT_NOUNS})(?![\\p{L}\\p{N}_-])|v?\\d+\\.\\d+)`, 'gu');

/** A version number or a file extension right after a name (Unicode 15.0, Python 3.12, LuaTeX v1.10): a product. */
const VERSION_AFTER = /^[ \t]*(?:v(?:ersion)?[ \t]*)?(?!\d{1,2}\.\d{1,2}\.\d{2,4}\b)\d+(?:\.\d+)+[\p{L}\d-]*(?![\p{L}\d])|^[ \t]*v\d+\b|^\.(?:sty|cls|tex|lua|py|js|exe|dll|so|pdf|txt)\b/iu;

/** How technical writing cites a person by surname alone: "et al.", an author-year or bracketed reference. */
const CITATION_AFTER = /^(?:['’]s)?[ \t]*(?:et[ \t]+al\b|\(\d{4}[a-z]?\)|\[\d+(?:[,–-]\d+)*\]|,[ \t]*\d{4}[a-z]?\b|and[ \t]+\p{Lu}\p{Ll}+[ \t]*(?:\(\d{4}|\[\d|et al))/u;

/** Courtesy titles and abbreviated ranks: they back a name in any text. Spelled-out ranks and offices (General, Major, Chief, Agent) are also adjectives and nouns. */
const COURTESY_TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'madam', 'dame', 'rev', 'reverend', 'fr', 'hon', 'det', 'sgt', 'lt', 'capt', 'cpt', 'maj', 'col', 'gen', 'cpl', 'pvt', 'ofc', 'insp', 'atty', 'tpr', 'inv', 'sen', 'rep', 'gov', 'judge', 'senator', 'detective', 'sergeant', 'lieutenant', 'colonel', 'corporal']);

type WordSet = Pick<ReadonlySet<string>, 'has'>;

export interface TermContext {
  /** Words the text writes in lower case (code, common nouns: "lua", "python", "specials"). */
  lower: WordSet;
  /** Words of heading lines: a numbered heading ("3.2 Keys") or a line of one capitalised word ("Specials"). */
  headings: WordSet;
  /** Capitalised words written three times or more and never beside another capitalised word: a product or project ("Unicode", "Ghostscript"). */
  standalone: WordSet;
  /** Capitalised words the technical text puts right before a product noun or a version ("the Dynamo compiler", "Safari 4.0"). */
  products: WordSet;
  /** The text reads as technical: code-shaped tokens make 1% of it (at least three). */
  technical: boolean;
  /** Code-shaped tokens make 3% of it: a manual or a reference page (held-out prose of the NER corpora never gets there). */
  codeDense: boolean;
  /** In technical text, the words glued into the document's identifiers in camel case ("EpsonStylusPro", "LexmarkOptraR"): a product's or a setting's words. */
  camel: WordSet;
  /** The page has next to no English prose (another language, a code listing): `withoutEnglish`. Per page only. */
  noEnglish: boolean;
  /**
   * In technical text, capitalised words the text puts before the head noun of a method ("Huffman coding",
   * "Huffman tables"): with `standalone` (never beside another capitalised word), the name of a method, known
   * surname or not, wherever the document writes it ("Huffman decoding", "Huffman or arithmetic").
   */
  eponyms: WordSet;
  /**
   * In technical text, the words of the font names that font-selection macros take (`\fontspec{Patrick Hand}`,
   * `\setmainfont[…]{TeX Gyre Pagella}`, `\newfontfamily\x{Kristi}`): a typeface's words (tenth round).
   */
  fonts: WordSet;
  /**
   * In technical text, capitalised words that are no known name and that the text puts right before two or more
   * different capitalised words that are no known names, and that it also writes alone ("Adobe seems", "of Adobe.")
   * or puts before a word of a thing ("Lucida Bright"): a maker's or a family's word ("Adobe Acrobat", "Adobe
   * Illustrator"; "Lucida Bright", "Lucida Console"). A given name stands before surnames, not alone (eleventh round).
   */
  makers: WordSet;
}

/** The context of a whole document (all its pages' text), built once per detection run. */
export type DocumentContext = TermContext;

const cache = new Map<string, TermContext>();

const either = (a: WordSet, b: WordSet): WordSet => ({ has: (word: string) => a.has(word) || b.has(word) });

/**
 * How a page, and the document it belongs to when the detector has all its pages, writes its words: a word
 * the document writes in lower case, as a heading or alone again and again on another page is as much a
 * term as on this one; the page is technical when it or its document is.
 */
export function termContext(text: string, document: DocumentContext | null = null): TermContext {
  const page = pageContext(text);
  if (!document) return page;
  return {
    lower: either(page.lower, document.lower),
    headings: either(page.headings, document.headings),
    standalone: either(page.standalone, document.standalone),
    products: either(page.products, document.products),
    camel: either(page.camel, document.camel),
    eponyms: either(page.eponyms, document.eponyms),
    fonts: either(page.fonts, document.fonts),
    makers: either(page.makers, document.makers),
    technical: page.technical || document.technical,
    codeDense: page.codeDense || document.codeDense,
    noEnglish: page.noEnglish,
  };
}

/** The context of a document from its pages' text. */
export function documentContext(pages: readonly string[]): DocumentContext {
  return buildContext(pages.join('\n'));
}

function pageContext(text: string): TermContext {
  const cached = cache.get(text);
  if (cached) return cached;
  const context = buildContext(text);
  if (cache.size > 8) cache.clear();
  cache.set(text, context);
  return context;
}

/** A font-selection macro of TeX (a command with "font" in its name: \fontspec, \setmainfont, \newfontfamily\name) and its font's name in braces. */
const FONT_MACRO = /\\[A-Za-z]*font[A-Za-z]*(?:[ \t]*\\[A-Za-z]+)?[ \t]*(?:\[[^\]\n]{0,80}\][ \t]*)?\{([^{}\\\n]{2,60})\}/g;

/** The login name after /home/ or /Users/ in a path. */
const HOME_DIRECTORY = /(\/(?:home|Users)\/)\p{Ll}[\p{Ll}\d._-]*/gu;

function buildContext(text: string): TermContext {
  const lower = new Set<string>();
  // A home directory's name in a path (/home/olaf/texmf) is a user's login, not a lower-case use of the word.
  for (const match of text.replace(HOME_DIRECTORY, '$1').matchAll(/(?<![\p{L}\p{N}_-])\p{Ll}[\p{Ll}'’]*(?![\p{L}\p{N}_-])/gu)) lower.add(match[0]);
  const headings = new Set<string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    // Numbered or lettered ("a. Kernel Magic"; lower-case letters only, "J. Smith" is an initial).
    const numbered = /^(?:\d{1,2}(?:\.\d{1,2})*\.?|[a-z][.)])\s+\p{Lu}[^.,;:!?]{0,60}$/u.test(trimmed) && trimmed.split(/\s+/).length <= 8;
    const single = /^\p{Lu}[\p{L}'’-]+$/u.test(trimmed);
    if (numbered || single) for (const word of trimmed.match(/\p{L}[\p{L}'’-]*/gu) ?? []) headings.add(word.toLowerCase());
  }
  // Capitalised words and whether one ever stands beside another (a person's given name and surname do).
  const counts = new Map<string, { total: number; paired: boolean }>();
  // The capitalised words glued right after each capitalised word ("Adobe Acrobat", "Adobe Illustrator").
  const followers = new Map<string, Set<string>>();
  // Capitalised words the text also writes alone: before a lower-case word or with punctuation after them ("of Adobe.", "Adobe seems").
  const alone = new Set<string>();
  let previous: { word: string; glued: boolean } | null = null;
  let last: string | null = null;
  for (const match of text.matchAll(/\S+/g)) {
    const raw = match[0];
    const bare = raw.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '');
    const capital = /^\p{Lu}\p{Ll}+$/u.test(bare);
    const word = bare.toLowerCase();
    const opensClean = /^\p{L}/u.test(raw);
    if (last !== null && /^\p{Ll}/u.test(raw)) alone.add(last);
    last = capital ? word : null;
    if (capital && /\p{L}['’]?s?[.,;:!?)]$/u.test(raw)) alone.add(word);
    if (capital) {
      const entry = counts.get(word) ?? { total: 0, paired: false };
      entry.total += 1;
      if (previous && previous.glued && opensClean) followers.set(previous.word, (followers.get(previous.word) ?? new Set()).add(word));
      if (previous && previous.glued && opensClean && !lower.has(previous.word) && !lower.has(word)) {
        entry.paired = true;
        const before = counts.get(previous.word);
        if (before) before.paired = true;
      }
      counts.set(word, entry);
    }
    const closesClean = /\p{L}$/u.test(raw) && !text.slice(match.index + raw.length, match.index + raw.length + 1).includes('\n');
    previous = capital ? { word, glued: closesClean } : null;
  }
  // Only in technical text (code-shaped tokens): in news a surname recurs alone as often.
  const tokens = text.match(/\S+/g) ?? [];
  const code = tokens.filter((token) => CODE_TOKEN.test(token)).length;
  const technical = code >= Math.max(3, tokens.length * 0.01) || technicalPaper(text);
  const codeDense = code >= Math.max(3, tokens.length * 0.03);
  const standalone = new Set(technical ? [...counts].filter(([, entry]) => entry.total >= 3 && !entry.paired).map(([word]) => word) : []);
  const products = new Set<string>();
  if (technical) for (const match of text.matchAll(PRODUCT_USE)) products.add((match[1] as string).toLowerCase());
  // Words glued into identifiers in camel case (EpsonStylusPro := …, LexmarkOptraR): in technical text, a product's
  // or a setting's words. Not surnames with a capital inside (McCloskey, MacKenzie), which codeShaped leaves out.
  const camel = new Set<string>();
  if (technical) for (const token of tokens) if (/^[^\p{L}]*\p{Lu}\p{Ll}+\p{Lu}/u.test(token) && codeShaped(token)) for (const part of token.match(/\p{Lu}\p{Ll}{2,}/gu) ?? []) camel.add(part.toLowerCase());
  // Capitalised words before a method's head noun (Huffman coding, Huffman tables): an eponym of the text.
  const eponyms = new Set<string>();
  if (technical) for (const match of text.matchAll(/(?<![\p{L}\p{N}_-])\p{Lu}\p{Ll}+(?=(?:['’]s)?[ \t\n])/gu)) if (EPONYM_IN_TECHNICAL.test(text.slice(match.index + match[0].length, match.index + match[0].length + 40))) eponyms.add(match[0].toLowerCase());
  // The font names that font-selection macros take (\fontspec{Patrick Hand}): a typeface's words.
  const fonts = new Set<string>();
  if (technical) for (const match of text.matchAll(FONT_MACRO)) for (const word of (match[1] as string).match(/\p{L}+/gu) ?? []) fonts.add(word.toLowerCase());
  // A maker's or a family's word: no known name nor common word ("See François Charette", "See Table 2") before two
  // or more different capitalised words that are no known names, and either written alone too ("Adobe seems") or
  // before a word of a thing (a typeface's style, a head noun, a common English word: "Lucida Bright"). A given name
  // that the lexicons miss stands before surnames only, and not alone (Johann Sebastian, Johann Christoph).
  const makers = new Set<string>();
  if (technical) {
    for (const [word, after] of followers) {
      const things = [...after].filter((next) => !known(next));
      if (!known(word) && !commonWord(word) && things.length >= 2 && (alone.has(word) || things.some((next) => TYPEFACE_WORDS.has(next) || TERM_HEADS.has(next) || commonWord(next)))) makers.add(word);
    }
  }
  return { lower, headings, standalone, products, camel, eponyms, fonts, makers, technical, codeDense, noEnglish: withoutEnglish(text) };
}

/**
 * A technical paper or prose manual with few code tokens: a text of 1,000 words or more (a document, not one
 * page of mail or news) of which 4 % are terms of technical writing (compiler, runtime, glyph, encoding, …).
 * Held-out NER text laid out five pages together stays at 2 % or under; records and mail are shorter.
 */
export function technicalPaper(text: string): boolean {
  const { share, words } = technicalVocabulary(text);
  return words >= 1000 && share >= 0.04;
}

const known = (word: string) => FIRST_NAMES.has(word) || SURNAMES.has(word);

/**
 * A word the document names a method with and never writes beside another capitalised word: "Huffman" of
 * "Huffman coding" written alone three times or more. A person the text names is given a full name somewhere.
 */
const methodWord = (word: string, context: TermContext) => context.eponyms.has(word) && context.standalone.has(word);

/** A word (lower-cased, bare) that the page uses as a term rather than a name. */
function termWord(word: string, context: TermContext): boolean {
  if (methodWord(word, context) || context.fonts.has(word)) return true;
  if (known(word)) return false;
  return context.lower.has(word) || context.headings.has(word) || context.standalone.has(word) || context.products.has(word) || context.camel.has(word);
}

/** A recurring name word (its name was found with evidence elsewhere) that this page uses as a heading or product name; lower-case uses do not count against a word so backed. */
export function termRecurrence(word: string, context: TermContext): boolean {
  const bare = word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '').toLowerCase();
  return codeShaped(word) || methodWord(bare, context) || context.fonts.has(bare) || (!known(bare) && (context.headings.has(bare) || context.standalone.has(bare) || context.products.has(bare)));
}

/** Whether the cues back a name: any cue but a spelled-out rank or office ("General", "Chief", "Agent"), which technical headings use as adjectives. */
export function backedBy(cues: readonly string[]): boolean {
  return cues.some((cue) => !TITLES.has(cue) || COURTESY_TITLES.has(cue));
}

/**
 * Whether a candidate sits on a line of capitalised words with nothing written in lower case between them: a
 * word list (German nouns, index entries, keywords), a title in title case, a table's header. Prose puts a
 * person's name among lower-case words; a list of people gives each person two or three words between commas,
 * "and" or "&" ("Frank Mittelbach, David Carlisle", "Manuel Pégourié-Gonnard & Élie Roux") and is not such a
 * line. Needs four words or more on the line, four in five of them capitalised, and one item (no commas,
 * ampersands, "and", tabs or wide gaps).
 */
export const capitalisedLine = perLine(lineOfCapitals);

function lineOfCapitals(line: string): boolean {
  const words = (line.match(/[^\s,;|]+/g) ?? []).filter((word) => /\p{L}/u.test(word));
  if (words.length < 4) return false;
  const capitals = words.filter((word) => /^[^\p{L}]*\p{Lu}/u.test(word)).length;
  if (capitals < words.length * 0.8) return false;
  const items = line.split(/[,;|\t&]|\s{2,}|\s(?:and|und|et|y|e|i|og|och|en)\s/u).filter((item) => /\p{L}/u.test(item));
  // Comma-separated single words may be a list of surnames ("Okonkwo, Zawadzka, Tiwari"): only a bare run counts.
  return items.length === 1;
}

/** Whether a candidate of unknown words with no cue is one of a line of capitalised words (`capitalisedLine`). */
export function listedWords(text: string, start: number, end: number, evidence: boolean): boolean {
  if (evidence) return false;
  const words = text.slice(start, end).split(/\s+/).map((word) => word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '').toLowerCase()).filter(Boolean);
  return words.length > 0 && !words.some(known) && capitalisedLine(text, start, end);
}

/**
 * Whether the text around a person candidate says it is a product: a version number or file extension
 * right after it; or, in technical text, a single unknown word with no cue that is not cited as an author.
 */
export function productAround(text: string, start: number, end: number, context: TermContext, evidence: boolean): boolean {
  const after = text.slice(end, end + 40);
  if (VERSION_AFTER.test(after)) return true;
  if (evidence || !context.technical) return false;
  const value = text.slice(start, end);
  const words = value.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length !== 1) return false;
  const bare = (words[0] as string).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '').toLowerCase();
  if (known(bare) || CITATION_AFTER.test(after)) return false;
  // A maker's name before a product written in camel case ("Apple ImageWriter", "Hallberg LaserJet"): a firm.
  const next = /^(?:['’]s)?[ \t]+(\S+)/u.exec(after);
  if (next && /^\p{Lu}/u.test(next[1] as string) && /\p{Ll}\p{Lu}/u.test(next[1] as string) && codeShaped(next[1] as string)) return true;
  // Two capitalised parts joined by a hyphen alone (Addison-Wesley) name a firm or a product more often than a person, whose full name has a second word.
  return context.codeDense || /^\p{Lu}\p{Ll}+[-–]\p{Lu}\p{Ll}+$/u.test((words[0] as string).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ''));
}

/**
 * Whether a person candidate is a product, tool or code name or a common word in this text. `evidence`: a
 * title or context cue backs the candidate; then only code-shaped words rule it out.
 */
export function termNotName(value: string, context: TermContext, evidence: boolean): boolean {
  const words = value.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length === 0) return false;
  if (words.some(codeShaped)) return true;
  if (evidence) return false;
  const bare = words.map((word) => word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '').toLowerCase());
  // A product, component or document name ends in a head noun ("Font Loader", "Commands Manual").
  const head = bare.at(-1) as string;
  if (words.length >= 2 && TERM_HEADS.has(head) && !SURNAMES.has(head)) return true;
  // In technical text a last word that the page writes in lower case ("Universal Ctags", "Kernel Magic") is
  // enough; not an initial or a particle (van, de la).
  if (context.codeDense && words.length >= 2 && head.length >= 3 && context.lower.has(head) && !known(head)) return true;
  // Short capitals alone are acronyms or numerals (XI, NL, CHI).
  if (words.length === 1 && /^\p{Lu}{1,3}$/u.test(words[0]?.replace(/[^\p{L}]/gu, '') ?? '') && !known(bare[0] as string)) return true;
  if (words.length === 1) return termWord(bare[0] as string, context);
  // Word lists, not names: more than six words, or one word inflecting another (Kaufleute Kaufleuten).
  if (words.length > 6) return true;
  if (bare.some((word, index) => word.length >= 5 && bare.some((other, at) => at !== index && other.length > word.length && other.startsWith(word)))) return true;
  // In technical text, short words in capitals that are no known name make an acronym's phrase (a standard, a format, a dialect: "ISO C").
  if (context.technical && bare.every((word, index) => !known(word) && /^\p{Lu}{1,4}$/u.test(words[index]?.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '') ?? ''))) return true;
  // A term of the document followed by a given name that is no surname: a product's release or code name (a
  // distribution's "Debian Jessie"); a person's name ends in a surname.
  if (context.technical && words.length === 2 && termWord(bare[0] as string, context) && FIRST_NAMES.has(bare[1] as string) && !SURNAMES.has(bare[1] as string)) return true;
  // In technical text, a typeface's name: a last word of a font's style, weight, width or size ("Cambria Math",
  // "Iwona Condensed", "Nimbus Roman"; a known surname such as Roman too) after a first word that is no known given
  // name; or a first word of a maker or family ("Adobe Acrobat" where the text also writes "Adobe Illustrator")
  // before a last word that is no known surname (eleventh round).
  if (context.technical && !FIRST_NAMES.has(bare[0] as string) && TYPEFACE_WORDS.has(head)) return true;
  if (context.technical && bare.slice(0, -1).some((word) => context.makers.has(word)) && !SURNAMES.has(head)) return true;
  // A word without a vowel (a variable, an abbreviation: "Ss", "Dn") counts as a term there too.
  return bare.every((word) => termWord(word, context) || (context.technical && !known(word) && /^[a-z]{2,}$/.test(word) && !/[aeiouy]/.test(word)));
}

/**
 * Whether a person candidate of technical text with no cue at all is one word that the name lists keep out of
 * names (a document, organisation, place or calendar word: "Appendix", "Section", "Committee"), which the
 * tagger reads as a name where it heads a line ("Appendix A"). A known name among them (Page, Ford) is left to
 * the other tests.
 */
export function nonNameWord(value: string, context: TermContext, cues: readonly string[]): boolean {
  if (!context.technical || cues.length > 0) return false;
  const words = value.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length !== 1) return false;
  const bare = (words[0] as string).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, '').toLowerCase();
  return NOT_NAME_WORDS.has(bare) && !known(bare);
}

/**
 * Whether an e-mail address is all that backs a word of one to three capitals that is no known name: an
 * acronym matches a mailbox's name ("TEX" beside tex-k@…, "CS" beside cs-help@…) as easily as a surname does
 * ("Gonzalez" beside m.gonzalez@…), and without that cue such a word is no name (termNotName).
 */
export function mailedAcronym(value: string, cues: readonly string[]): boolean {
  if (cues.length === 0 || !cues.every((cue) => cue === 'e-mail')) return false;
  const letters = value.replace(/[^\p{L}]/gu, '');
  return /^\p{Lu}{1,3}$/u.test(letters) && !known(letters.toLowerCase());
}

/**
 * Whether a person candidate of technical text with no cue is one word in quotation marks: a word mentioned,
 * not used ("the \u201cVal\u201d as in value", a program's 'Name'); a person is named, not quoted.
 */
export function quotedWord(text: string, start: number, end: number, context: TermContext, cues: readonly string[]): boolean {
  if (!context.technical || cues.length > 0) return false;
  const value = text.slice(start, end);
  if (!/^\p{L}[\p{L}'’-]*$/u.test(value)) return false;
  const open = text.charAt(start - 1);
  const close = text.charAt(end);
  return (open === '"' && close === '"') || (open === '“' && close === '”') || (open === '‘' && close === '’') || (open === "'" && close === "'") || (open === '«' && close === '»') || (open === '„' && close === '“');
}

/**
 * A publication's imprint as references print it, "(Place: Publisher, Year)": "(New York: Harper & Brothers,
 * 1869)", "(3rd edn., Oxford: Clarendon Press, 1991)". The place runs from the parenthesis, a semicolon or an
 * abbreviation's comma ("edn., ") to the colon and holds only capitalised words; the publisher runs from the colon
 * to the year that closes the parenthesis.
 */
// Each word of the place is followed by a separator before the next, so a run of capitals ("TEXMFCNF") splits one
// way only: with the separator optional the engine tried every split of such a run, exponentially (a 54-page manual
// took over 40 minutes).
const IMPRINT = /(?:\(|;[ \t\n]*|\.,[ \t\n]*)(\p{Lu}[\p{L}.’'-]*(?:(?:[ \t\n]*[,&–][ \t\n]*|[ \t\n]+)\p{Lu}[\p{L}.’'-]*)*(?:[ \t\n]*[,&–])?[ \t\n]*):[ \t\n]+([^():;]{2,120}?),[ \t\n]*(?:1[5-9]|20)\d{2}[a-z]?\)/gu;

/**
 * Whether a person candidate of technical text lies in a publication's imprint (`IMPRINT`): a place or a
 * publisher, named after a person or not (Harper, William Heinemann, Cambridge), is no person there.
 */
export function inImprint(text: string, start: number, end: number, context: TermContext): boolean {
  if (!context.technical) return false;
  const from = Math.max(0, start - 200);
  for (const match of text.slice(from, Math.min(text.length, end + 200)).matchAll(IMPRINT)) {
    const open = from + match.index + match[0].indexOf(match[1] as string);
    const close = from + match.index + match[0].length;
    if (start >= open && end <= close) return true;
  }
  return false;
}

/**
 * Whether a person candidate of technical text stands right after a capitalised word's possessive: the work or
 * thing of a person ("Caesar’s Gallic War", "Knuth’s Computer Modern", "Shakespeare’s Sonnets"); one person is
 * not written as another's ("Mozart’s father Leopold" puts a noun between them).
 */
export function afterPossessive(text: string, start: number, context: TermContext): boolean {
  return context.technical && /(?<![\p{L}\p{N}_-])\p{Lu}[\p{L}-]*\p{L}['’]s?[ \t]+[("“‘]?$/u.test(text.slice(Math.max(0, start - 40), start));
}

// Twelfth round (issue 28): a word broken at a line's end, a word shaped like an adverb, a work cited after its
// author.

/**
 * Whether a one-word candidate of technical text is the first piece of a word broken by hyphenation: a hyphen
 * glued to it, then white space and a lower-case letter ("Li-\ngatures", "this Li- tions" of text set in
 * columns). A name broken across lines goes on with its other words; a fragment alone is no name.
 */
export function brokenWord(text: string, start: number, end: number, context: TermContext): boolean {
  if (!context.technical || /\s/u.test(text.slice(start, end).trim())) return false;
  return /^[-‐\u00ad][ \t]*\n?[ \t]*\p{Ll}/u.test(text.slice(end, end + 6));
}

/** The suffixes of English adverbs ("Assumably", "Interestingly", "Hopefully", "Contrariwise"; "Conversely" not: -ly alone is also a name's end: Emily, Kelly). */
const ADVERB = /^\p{L}{3,}(?:ably|ibly|ously|ively|edly|ingly|fully|ically|lessly|ionally|wise)$/u;

/** Whether a word (bare, lower-cased) has the shape of an English adverb and is no known name (twelfth round). */
export const adverbShaped = (word: string) => ADVERB.test(word) && !known(word);

/**
 * Whether a candidate of technical text holds a word shaped like an adverb ("Assumably, the lacuna …",
 * "Conjectured Lacuna Assumably"): no name is.
 */
export function adverbInside(value: string, context: TermContext): boolean {
  return context.technical && (value.match(/\p{L}+/gu) ?? []).some((word) => adverbShaped(word.toLowerCase()));
}

/** A reference's author written before a work's title: a capitalised word and a comma ("Caesar, ", "Waitz, "). */
const AUTHOR_BEFORE = /(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’-]+,[^\S\n]+$/u;
/**
 * What follows a cited work's title: its editor, translator, volume or book ("ed.", "transl.", "vol.", "Book IV"), a
 * book and chapter in Roman numerals ("VI, XIII.1"), a volume and page ("i. 86"), after an optional bracket
 * ("Gallic War (Guerre des Gaules), ed.").
 */
const WORK_AFTER =
  /^(?:[^\S\n]*\([^()\n]{1,80}\))?,\s*(?:(?:ed|eds|edn|trans|transl|tr|vol|vols|bk|lib|cap|chap)\.|(?:[Bb]ook|[Vv]olume|[Cc]anto|[Ll]iber|[Tt]omus)\b|[IVXLC]{1,6}(?![\p{L}\p{N}])|[ivxlc]{1,5}\.[^\S\n]*\d)/u;
/** A work's title followed by its book in Roman numerals ("Epidemiarum liber II", "Aeneid book IV"). */
const BOOK_AFTER = /^\s+(?:liber|book|tomus|canto)[^\S\n]+[IVXLC]{1,6}(?![\p{L}\p{N}])/u;

/**
 * Whether a candidate of technical text of two words or more, the first no known given name, is the title of a
 * work cited after its author ("Caesar, Gallic War, ed. …", "Waitz, Deutsche Verfassungs Geschichte, i. 86",
 * "C. J. Caesar, Gallic War, VI, XIII.1") or before its book ("Hippocratis Epidemiarum liber II"). An author
 * written surname first has a known given name after the comma ("Lopez, Maria, ed.").
 */
export function citedWork(text: string, start: number, end: number, context: TermContext): boolean {
  if (!context.technical) return false;
  const words = (text.slice(start, end).match(/\p{L}[\p{L}'’-]*/gu) ?? []).map((word) => word.toLowerCase());
  if (words.length < 2 || FIRST_NAMES.has(words[0] as string)) return false;
  const after = text.slice(end, end + 100);
  if (BOOK_AFTER.test(after)) return true;
  return AUTHOR_BEFORE.test(text.slice(Math.max(0, start - 40), start)) && WORK_AFTER.test(after);
}

