import type { Executor } from '../../db/queries/executor.js';
import { listAllSearchPages, searchPagesFingerprint } from '../../db/queries/search-pages.js';

// The indexed pages of recently searched cases, kept in memory: a clerk searches the same case again and
// again, and reading 10,000 pages of text out of SQLite is most of a query's time. An entry is used only
// while the case's fingerprint (count, max and sum of its page ids, which are never reused) is unchanged.

export interface CachedPage {
  document_id: number;
  page_number: number;
  unit: 'pdf_points' | 'image_pixels';
  text: string;
  folded: string;
}

interface Entry {
  fingerprint: string;
  pages: CachedPage[];
  chars: number;
}

/** Code units of text held across all cached cases (about 2 bytes each). */
const MAX_CHARS = 48 * 1024 * 1024;

// Keyed by the database handle, so two databases open in one process (tests) never share entries.
const caches = new WeakMap<Executor, Map<string, Entry>>();

/** The case's pages from memory or the database (a case too large to hold is read every time); null inside a transaction. */
export async function cachedCasePages(db: Executor, organizationId: number, caseId: number): Promise<CachedPage[] | null> {
  if (db.isTransaction) return null;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const key = `${organizationId}:${caseId}`;
  const fingerprint = await searchPagesFingerprint(db, organizationId, caseId);
  const hit = cache.get(key);
  if (hit && hit.fingerprint === fingerprint) {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, hit);
    return hit.pages;
  }
  cache.delete(key);
  const pages = await listAllSearchPages(db, organizationId, caseId);
  const chars = pages.reduce((sum, page) => sum + page.text.length + page.folded.length, 0);
  if (chars > MAX_CHARS) return pages;
  let held = [...cache.values()].reduce((sum, entry) => sum + entry.chars, 0);
  for (const [oldest, entry] of cache) {
    if (held + chars <= MAX_CHARS) break;
    cache.delete(oldest);
    held -= entry.chars;
  }
  cache.set(key, { fingerprint, pages, chars });
  return pages;
}
