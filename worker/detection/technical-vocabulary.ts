// The vocabulary of technical writing: words that papers, manuals and specifications of computing and
// typesetting use as terms, and that letters, records, mail and news seldom use. Written for this project
// from general knowledge of technical writing (not drawn from any evaluation or held-out text). Everyday
// words that records and mail also use often (file, data, page, text, user, system, table, value, version,
// section, document, application, process, standard, input) are left out on purpose.

/** Lower-case stems; a word counts when it is one of them or one of them plus a regular ending (-s, -es, -ed, -ing, -er…). */
const STEMS = `
algorithm algorithmic compiler compile compilation interpreter interpret runtime bytecode executable opcode
implementation implement instruction processor cpu gpu cache   heap stack pointer buffer thread
kernel subroutine function variable parameter   integer float boolean string array   matrix
struct tuple hash hashing scalar iterator iterate iteration loop recursion recursive recursively
syntax semantics semantic grammar parser parse parsing lexer token tokenizer macro preprocessor
  operand       identifier namespace     lambda callback
compile-time polymorphic polymorphism inheritance subclass superclass method
object-oriented dynamically statically typed typing
optimization optimize optimizer optimizing inline inlining speedup overhead latency throughput benchmark
profiler profiling       interpreter jit
encoding encoder decoder unicode ascii utf byte bytes bitmap   hexadecimal octal
library libraries api module namespace plugin toolkit framework backend frontend
configuration configure config directory directories subdirectory filename pathname
command-line       stdin stdout stderr
debug debugger debugging
typeset typesetting typesetter glyph glyphs font fonts typeface kerning ligature hyphenation hyphenate
postscript pdf dvi tex latex metafont bitmap   raster   dpi
markup html xml css json yaml
protocol tcp udp http socket packet router bandwidth
database sql     schema
graph   vertex vertices   acyclic traversal
theorem lemma corollary   equation polynomial logarithmic asymptotic
heuristic heuristics deterministic nondeterministic
specification specifications spec
     
`.split(/\s+/).filter((word) => word.length > 0);

const VOCABULARY = new Set(STEMS);

const ENDINGS = /(?:s|es|ed|d|ing|er|ers|ly)$/;

/** Whether a lower-case word is a term of technical writing. */
export function technicalTerm(word: string): boolean {
  if (VOCABULARY.has(word)) return true;
  const match = ENDINGS.exec(word);
  if (!match) return false;
  const stem = word.slice(0, match.index);
  return VOCABULARY.has(stem) || VOCABULARY.has(`${stem}e`) || (/(\p{L})\1$/u.test(stem) && VOCABULARY.has(stem.slice(0, -1)));
}

/** The share of a text's lower-case words (two letters or more) that are terms of technical writing, and how many words were read. */
export function technicalVocabulary(text: string): { share: number; words: number; terms: number } {
  let words = 0;
  let terms = 0;
  // Addresses are no prose: URLs (https://t.co/…) and e-mail addresses leave the text first. Token by token:
  // one pattern around the whole run (\S*…\S*) backtracked cubically over a long run without spaces.
  const prose = text.toLowerCase().replace(/\S+/g, (token) => (token.includes('://') || token.includes('www.') || token.includes('@') ? ' ' : token));
  for (const match of prose.matchAll(/(?<![\p{L}\p{N}_])\p{L}[\p{L}-]*\p{L}(?![\p{L}\p{N}_])/gu)) {
    words += 1;
    if (technicalTerm(match[0])) terms += 1;
  }
  return { share: words === 0 ? 0 : terms / words, words, terms };
}
