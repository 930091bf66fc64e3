// The form texts are compared in by the release check (worker/release-check/strings.ts fold): NFKC, lower case,
// without whitespace or zero-width characters. Shared so the runner folds package wording as the worker does.

const IGNORED = /[\s\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/gu;

const PLAIN = /^[\x21-\x7e]*$/u;

/** Printable ASCII without spaces: NFKC leaves it as it is, and it holds nothing to ignore or strip (a fast path). */
export function plainAscii(text: string): boolean {
  return PLAIN.test(text);
}

export function foldText(text: string): string {
  if (plainAscii(text)) return text.toLowerCase();
  return text.normalize('NFKC').toLowerCase().normalize('NFKC').replace(IGNORED, '');
}
