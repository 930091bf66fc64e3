import { RE2JS } from 're2js';

// Patterns that clerks and integrators write (templates, detection jobs) run on RE2 (re2js): matching takes
// time linear in the text whatever the pattern, so no pattern can stall a worker by backtracking. RE2 has no
// lookaround or backreferences; such patterns are refused with RE2's own message.

const FLAG_BITS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

export function compileLinearRegex(regex: string, flags = ''): RE2JS {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) throw new Error(`flag ${flag} is not supported (use i, m, s or u)`);
    bits |= bit;
  }
  return RE2JS.compile(regex, bits);
}

/** Every non-empty match as [start, end) in UTF-16 code units. */
export function linearMatches(compiled: RE2JS, text: string): [number, number][] {
  if (!compiled.test(text)) return [];
  const found: [number, number][] = [];
  const matcher = compiled.matcher(text);
  while (matcher.find()) {
    const start = matcher.start();
    const end = matcher.end();
    if (end > start) found.push([start, end]);
  }
  return found;
}
