import { createHash } from 'node:crypto';

/**
 * Near-duplicate signatures. Text is normalised (lower case, quoted-reply markers and punctuation dropped,
 * whitespace collapsed), cut into 5-word shingles (a Han or Kana character is a word), and each shingle
 * hashed by 64 seeded 32-bit hashes; the signature keeps each hash's minimum. The share of equal minima estimates the Jaccard similarity of the
 * two shingle sets (standard error about 1/sqrt(64) = 0.125 at 0.5, less near 1).
 */
export const MINHASH_PERMUTATIONS = 64;
const SHINGLE_WORDS = 5;

export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .replace(/^[ \t]*(>[ \t]?)+/gm, '')
    .replace(/[^\p{L}\p{N}@.]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function textHash(text: string): string {
  return createHash('sha256').update(normaliseText(text)).digest('hex');
}

/** FNV-1a over the shingle, then 64 cheap seeded remixes (murmur3's finaliser). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mix(value: number, seed: number): number {
  let h = (value ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Han and Kana are written without spaces: each character counts as a word, so shingles are 5 characters. */
const UNSPACED = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/** Null when the text has no words (nothing to compare). */
export function minhash(text: string): number[] | null {
  const words = normaliseText(text).replace(UNSPACED, ' $1 ').split(' ').filter(Boolean);
  if (words.length === 0) return null;
  const shingles = new Set<number>();
  const count = Math.max(1, words.length - SHINGLE_WORDS + 1);
  for (let index = 0; index < count; index += 1) shingles.add(fnv1a(words.slice(index, index + SHINGLE_WORDS).join(' ')));
  const signature = new Array<number>(MINHASH_PERMUTATIONS).fill(0xffffffff);
  for (const shingle of shingles) {
    for (let seed = 0; seed < MINHASH_PERMUTATIONS; seed += 1) {
      const value = mix(shingle, seed + 1);
      if (value < (signature[seed] as number)) signature[seed] = value;
    }
  }
  return signature;
}

/** Subject for the threading fallback: Re:/Fwd:/AW:/WG: prefixes and [list] tags off, spaces collapsed. */
export function subjectKey(subject: string): string | null {
  let key = subject.trim();
  for (;;) {
    const next = key.replace(/^(\[[^\]]*\]\s*|(re|fw|fwd|aw|wg|sv|vs|tr|antw)\s*(\[\d+\])?\s*:\s*)/i, '');
    if (next === key) break;
    key = next;
  }
  key = key.replace(/\s+/g, ' ').toLowerCase();
  return key === '' ? null : key;
}
