// Filtering and sorting of the case queue (pure; tested under Node).
import type { Case, CaseStatus } from '../api/types.js';

export type SortKey = 'id' | 'name' | 'status' | 'priority' | 'dueDate' | 'daysLeft' | 'updated_at';
export type SortDirection = 'asc' | 'desc';
export type DueFilter = 'any' | 'overdue' | 'week' | 'none';

export interface QueueFilter {
  search: string;
  statuses: readonly CaseStatus[];
  priority: Case['priority'] | 'any';
  due: DueFilter;
  /** true: only released cases; false: only cases not yet answered by a release; undefined: either. */
  released?: boolean | undefined;
}

export const PRIORITY_RANK: Readonly<Record<Case['priority'], number>> = { low: 0, normal: 1, high: 2, urgent: 3 };
const STATUS_RANK: Readonly<Record<CaseStatus, number>> = { open: 0, in_progress: 1, rejected: 2, in_review: 3, approved: 4, cancelled: 5, deleted: 6 };

/** The day (YYYY-MM-DD, local time) a due date falls on; date-only values are taken as they are. */
export function dueDay(dueDate: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) return dueDate;
  const date = new Date(dueDate);
  return Number.isNaN(date.getTime()) ? dueDate.slice(0, 10) : localDay(date);
}

export function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Overdue as the server reads it against its day (statutory clock or hand-set due date; docs/api.md, Request clock). */
export function isOverdue(item: Pick<Case, 'clock'>): boolean {
  return item.clock.overdue;
}

function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(year, month - 1, date + days));
}

export function filterCases(cases: readonly Case[], filter: QueueFilter, today: string): Case[] {
  const terms = filter.search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const weekEnd = addDays(today, 7);
  return cases.filter((item) => {
    if (filter.statuses.length > 0 && !filter.statuses.includes(item.status)) return false;
    if (filter.priority !== 'any' && item.priority !== filter.priority) return false;
    if (filter.released !== undefined && (item.release !== null) !== filter.released) return false;
    if (filter.due === 'overdue' && !isOverdue(item)) return false;
    if (filter.due === 'none' && item.dueDate !== null) return false;
    if (filter.due === 'week' && (item.dueDate === null || dueDay(item.dueDate) < today || dueDay(item.dueDate) > weekEnd)) return false;
    if (terms.length > 0) {
      const haystack = `${item.id} ${item.name} ${item.description}`.toLowerCase();
      if (!terms.every((term) => haystack.includes(term))) return false;
    }
    return true;
  });
}

function compare(a: Case, b: Case, key: SortKey): number {
  switch (key) {
    case 'id':
      return Number(a.id) - Number(b.id);
    case 'name':
      return a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
    case 'status':
      return STATUS_RANK[a.status] - STATUS_RANK[b.status];
    case 'priority':
      return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority];
    case 'dueDate':
    case 'daysLeft':
      // Sorted in sortCases: cases without a figure sort after every other, whichever the direction.
      return 0;
    case 'updated_at':
      return a.updated_at.localeCompare(b.updated_at);
  }
}

export function sortCases(cases: readonly Case[], key: SortKey, direction: SortDirection): Case[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...cases].sort((a, b) => {
    if (key === 'dueDate') {
      if (a.dueDate === null || b.dueDate === null) {
        if (a.dueDate === b.dueDate) return Number(a.id) - Number(b.id);
        return a.dueDate === null ? 1 : -1;
      }
      const byDay = dueDay(a.dueDate).localeCompare(dueDay(b.dueDate));
      return byDay !== 0 ? sign * byDay : Number(a.id) - Number(b.id);
    }
    if (key === 'daysLeft') {
      const left = (item: Case) => (item.clock.state === 'running' || item.clock.state === 'tolled' ? item.clock.days_left : null);
      const [x, y] = [left(a), left(b)];
      if (x === null || y === null) return x === y ? Number(a.id) - Number(b.id) : x === null ? 1 : -1;
      return x !== y ? sign * (x - y) : Number(a.id) - Number(b.id);
    }
    const result = compare(a, b, key);
    return result !== 0 ? sign * result : Number(a.id) - Number(b.id);
  });
}
