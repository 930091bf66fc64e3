import type { SearchMatchResult, SearchMatchTask } from '../main/common/search-tasks.js';
import { compileSearch, type TextMatch } from '../main/services/search/matcher.js';

/** Matches page by page until done or past the deadline (checked between pages; the pool stops a page that runs on). */
export function searchMatch(task: SearchMatchTask): SearchMatchResult {
  const compiled = compileSearch(task.spec);
  const matches: TextMatch[][] = [];
  for (const page of task.pages) {
    if (Date.now() > task.deadline) return { kind: 'search-match', matches: null };
    matches.push(compiled.find(page.text, page.folded));
  }
  return { kind: 'search-match', matches };
}
