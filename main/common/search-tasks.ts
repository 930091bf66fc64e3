// Worker task for case search (issue 26): matching a pattern or a thousand terms over every page of a case is
// CPU work, so it runs on the worker pool with a deadline, never in the HTTP thread.

import type { SearchMode } from './schemas/search.js';

export interface SearchMatchTask {
  kind: 'search-match';
  spec: { query: string; mode: SearchMode; wholeWord: boolean; caseSensitive: boolean };
  /** Only the strings the query reads; the other is ''. */
  pages: { text: string; folded: string }[];
  /** Epoch ms after which the worker stops between pages and answers timed_out. */
  deadline: number;
}

export interface SearchMatchResult {
  kind: 'search-match';
  /** Matches per page, or null when the deadline passed first. */
  matches: { start: number; end: number }[][] | null;
}
