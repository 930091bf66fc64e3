import { addDays, format, isValid, isWeekend, parseISO } from 'date-fns';

// Business-day arithmetic of the request's statutory clock (pure; docs/api.md, Request clock). Calendar
// arithmetic (month ends, leap years, weekdays) is date-fns's; this module only says which days count.
// Rules: the day of receipt does not count; Saturdays, Sundays and office holidays do not count; a day on
// which the clock is tolled (from a toll's date up to, not including, its resume date) does not count.

export type ClockEventKind = 'toll' | 'resume' | 'extend';

export interface ClockEventInput {
  kind: ClockEventKind;
  /** YYYY-MM-DD the event took effect. */
  on_date: string;
  /** Business days added (extensions only). */
  days: number | null;
}

export interface ClockInput {
  receivedDate: string;
  timeLimitDays: number;
  holidays: ReadonlySet<string>;
  /** In the order they were recorded. */
  events: readonly ClockEventInput[];
  today: string;
}

export interface ClockFigures {
  extension_days: number;
  /** Business days during which the clock stood still, up to today. */
  tolled_days: number;
  tolled_since: string | null;
  /** The last day to answer; null while tolled (it moves every business day the clock stands still). */
  due_date: string | null;
  /** Business days left, 0 on the due date, negative once past it; while tolled, what is left when it resumes. */
  days_left: number;
  overdue: boolean;
}

/** A YYYY-MM-DD string as a local date, or null when it is not a real calendar day (2026-02-30). */
export function parseDay(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = parseISO(value);
  return isValid(date) && format(date, 'yyyy-MM-dd') === value ? date : null;
}

export function formatDay(date: Date): string {
  return format(date, 'yyyy-MM-dd');
}

function day(value: string): Date {
  const date = parseDay(value);
  if (!date) throw new Error(`not a calendar day: ${value}`);
  return date;
}

export function isBusinessDay(date: Date, holidays: ReadonlySet<string>): boolean {
  return !isWeekend(date) && !holidays.has(formatDay(date));
}

/** Tolled spans as [from, to) day strings; `to` null while the clock stands still. */
export function tolledSpans(events: readonly ClockEventInput[]): { from: string; to: string | null }[] {
  const spans: { from: string; to: string | null }[] = [];
  for (const event of events) {
    if (event.kind === 'toll') spans.push({ from: event.on_date, to: null });
    else if (event.kind === 'resume') {
      const open = spans.at(-1);
      if (open && open.to === null) open.to = event.on_date;
    }
  }
  return spans;
}

function isTolled(value: string, spans: readonly { from: string; to: string | null }[]): boolean {
  return spans.some((span) => value >= span.from && (span.to === null || value < span.to));
}

// A limit is at most a few hundred business days; this bounds every walk below even with a malformed input.
const MAX_WALK = 20_000;

/** Counting days in (from, to]: business days on which the clock ran. */
function countingDaysBetween(from: string, to: string, holidays: ReadonlySet<string>, spans: readonly { from: string; to: string | null }[]): number {
  let count = 0;
  let cursor = day(from);
  for (let step = 0; step < MAX_WALK; step += 1) {
    cursor = addDays(cursor, 1);
    const value = formatDay(cursor);
    if (value > to) break;
    if (isBusinessDay(cursor, holidays) && !isTolled(value, spans)) count += 1;
  }
  return count;
}

/** Business days lost to tolling in (from, to]. */
function tolledBusinessDays(from: string, to: string, holidays: ReadonlySet<string>, spans: readonly { from: string; to: string | null }[]): number {
  if (spans.length === 0) return 0;
  let count = 0;
  let cursor = day(from);
  for (let step = 0; step < MAX_WALK; step += 1) {
    cursor = addDays(cursor, 1);
    const value = formatDay(cursor);
    if (value > to) break;
    if (isBusinessDay(cursor, holidays) && isTolled(value, spans)) count += 1;
  }
  return count;
}

/** The n-th counting day after `from` (n ≥ 1), with every span closed. */
export function addCountingDays(from: string, n: number, holidays: ReadonlySet<string>, spans: readonly { from: string; to: string | null }[] = []): string {
  let cursor = day(from);
  let left = n;
  for (let step = 0; step < MAX_WALK && left > 0; step += 1) {
    cursor = addDays(cursor, 1);
    if (isBusinessDay(cursor, holidays) && !isTolled(formatDay(cursor), spans)) left -= 1;
  }
  if (left > 0) throw new Error('time limit too long to compute');
  return formatDay(cursor);
}

export function computeClock(input: ClockInput): ClockFigures {
  const { receivedDate, holidays, events, today } = input;
  const spans = tolledSpans(events);
  const extension = events.reduce((sum, event) => sum + (event.kind === 'extend' ? (event.days ?? 0) : 0), 0);
  const allowed = input.timeLimitDays + extension;
  const open = spans.at(-1)?.to === null ? spans.at(-1) : undefined;
  const tolled_days = tolledBusinessDays(receivedDate, today, holidays, spans);
  if (open) {
    // Frozen: what had run before the pause is used up; the rest waits for the resume.
    const used = countingDaysBetween(receivedDate, open.from, holidays, spans);
    return { extension_days: extension, tolled_days, tolled_since: open.from, due_date: null, days_left: allowed - used, overdue: false };
  }
  const due = allowed > 0 ? addCountingDays(receivedDate, allowed, holidays, spans) : receivedDate;
  // `0 - n` rather than `-n`: no negative zero when today is a weekend right after the due date.
  const days_left = today <= due ? countingDaysBetween(today, due, holidays, spans) : 0 - countingDaysBetween(due, today, holidays, spans);
  return { extension_days: extension, tolled_days, tolled_since: null, due_date: due, days_left, overdue: today > due };
}
