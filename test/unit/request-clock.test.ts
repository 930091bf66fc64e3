import { describe, expect, it } from 'vitest';
import { addCountingDays, computeClock, parseDay, type ClockEventInput } from '../../main/services/request-clock/business-days.js';

const none = new Set<string>();
const clock = (receivedDate: string, today: string, options: { limit?: number; holidays?: string[]; events?: ClockEventInput[] } = {}) =>
  computeClock({ receivedDate, today, timeLimitDays: options.limit ?? 20, holidays: new Set(options.holidays ?? []), events: options.events ?? [] });

describe('business days of the request clock', () => {
  it('does not count the day of receipt nor weekends: 20 business days from Monday 2 November 2026', () => {
    expect(clock('2026-11-02', '2026-11-02').due_date).toBe('2026-11-30');
  });

  it('skips office holidays', () => {
    // Veterans Day (Wed 11 Nov) and Thanksgiving (Thu 26 Nov) push the due date two business days on.
    expect(clock('2026-11-02', '2026-11-02', { holidays: ['2026-11-11', '2026-11-26'] }).due_date).toBe('2026-12-02');
  });

  it('a holiday on a weekend changes nothing', () => {
    expect(clock('2026-11-02', '2026-11-02', { holidays: ['2026-11-07'] }).due_date).toBe('2026-11-30');
  });

  it('crosses month ends, weekends, leap days and year ends', () => {
    expect(addCountingDays('2026-01-30', 1, none)).toBe('2026-02-02'); // Friday → Monday, across the month end
    expect(addCountingDays('2026-01-31', 1, none)).toBe('2026-02-02'); // received on a Saturday
    expect(addCountingDays('2028-02-25', 3, none)).toBe('2028-03-01'); // 28 Feb, 29 Feb (leap), 1 Mar
    expect(addCountingDays('2026-12-24', 3, new Set(['2026-12-25', '2027-01-01']))).toBe('2026-12-30');
    expect(addCountingDays('2026-12-24', 5, new Set(['2026-12-25', '2027-01-01']))).toBe('2027-01-04');
    expect(addCountingDays('2026-10-30', 1, none)).toBe('2026-11-02'); // across the end of daylight saving time
  });

  it('tolling stops the clock from the toll date up to the resume date', () => {
    const events: ClockEventInput[] = [
      { kind: 'toll', on_date: '2026-11-09', days: null },
      { kind: 'resume', on_date: '2026-11-16', days: null },
    ];
    const figures = clock('2026-11-02', '2026-11-20', { events });
    expect(figures.due_date).toBe('2026-12-07'); // the five business days 9–13 November do not count
    expect(figures.tolled_days).toBe(5);
    expect(figures.tolled_since).toBeNull();
  });

  it('while tolled there is no due date and the days left stay where they were', () => {
    const events: ClockEventInput[] = [{ kind: 'toll', on_date: '2026-11-09', days: null }];
    const early = clock('2026-11-02', '2026-11-10', { events });
    const later = clock('2026-11-02', '2026-11-27', { events });
    expect(early).toMatchObject({ due_date: null, tolled_since: '2026-11-09', days_left: 16, overdue: false });
    expect(later.days_left).toBe(16);
    expect(later.tolled_days).toBe(15);
  });

  it('a toll and resume on the same day lose nothing', () => {
    const events: ClockEventInput[] = [
      { kind: 'toll', on_date: '2026-11-09', days: null },
      { kind: 'resume', on_date: '2026-11-09', days: null },
    ];
    expect(clock('2026-11-02', '2026-11-10', { events }).due_date).toBe('2026-11-30');
  });

  it('extensions add business days to the limit', () => {
    const events: ClockEventInput[] = [{ kind: 'extend', on_date: '2026-11-20', days: 10 }];
    expect(clock('2026-11-02', '2026-11-20', { events })).toMatchObject({ due_date: '2026-12-14', extension_days: 10 });
  });

  it('counts the days left in business days, zero on the due date, negative once past', () => {
    expect(clock('2026-11-02', '2026-11-25')).toMatchObject({ days_left: 3, overdue: false }); // 26, 27, 30 November
    expect(clock('2026-11-02', '2026-11-28')).toMatchObject({ days_left: 1, overdue: false }); // a Saturday
    expect(clock('2026-11-02', '2026-11-30')).toMatchObject({ days_left: 0, overdue: false });
    expect(clock('2026-11-02', '2026-12-02')).toMatchObject({ days_left: -2, overdue: true });
    const weekendAfter = clock('2026-10-30', '2026-10-31', { limit: 0 });
    expect(weekendAfter).toMatchObject({ due_date: '2026-10-30', overdue: true });
    expect(Object.is(weekendAfter.days_left, -0)).toBe(false);
  });

  it('the organization limit decides the length', () => {
    expect(clock('2026-11-02', '2026-11-02', { limit: 10 }).due_date).toBe('2026-11-16');
  });

  it('reads only real calendar days', () => {
    expect(parseDay('2026-02-28')).not.toBeNull();
    expect(parseDay('2026-02-29')).toBeNull();
    expect(parseDay('2026-13-01')).toBeNull();
    expect(parseDay('26-1-1')).toBeNull();
  });
});
