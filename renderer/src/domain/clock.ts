// How a request's statutory clock reads in the queue and on the case (pure; tested under Node).
import type { Case } from '../api/types.js';
import { formatDay } from './format.js';

export type ClockTone = 'none' | 'ok' | 'soon' | 'overdue' | 'paused' | 'done';

export interface ClockSummary {
  /** Short: "3 days left", "Due today", "2 days overdue", "Paused", "Answered". */
  label: string;
  tone: ClockTone;
  /** A sentence for a tooltip or screen reader. */
  detail: string;
}

function days(count: number): string {
  return `${count} business day${count === 1 ? '' : 's'}`;
}

export function clockSummary(item: Pick<Case, 'clock' | 'dueDate' | 'release'>): ClockSummary {
  const clock = item.clock;
  switch (clock.state) {
    case 'none':
      return clock.overdue
        ? { label: 'Overdue', tone: 'overdue', detail: `Past its due date, ${formatDay(item.dueDate)}` }
        : { label: '', tone: 'none', detail: 'No statutory clock: no received date' };
    case 'closed':
      return { label: 'Closed', tone: 'done', detail: 'The case is closed; its clock no longer runs' };
    case 'answered':
      return { label: 'Answered', tone: 'done', detail: item.release ? `Answered by release ${item.release.number}` : 'Answered' };
    case 'tolled':
      return { label: 'Paused', tone: 'paused', detail: `Paused since ${formatDay(clock.tolled_since)}${clock.toll_reason ? `: ${clock.toll_reason}` : ''}; ${days(clock.days_left ?? 0)} left when it resumes` };
    case 'running': {
      const left = clock.days_left ?? 0;
      if (clock.overdue) return { label: `${days(-left)} overdue`.replace('business ', ''), tone: 'overdue', detail: `Overdue since ${formatDay(clock.due_date)} (${days(-left)})` };
      if (left === 0) return { label: 'Due today', tone: 'soon', detail: `Due today, ${formatDay(clock.due_date)}` };
      return { label: `${left} day${left === 1 ? '' : 's'} left`, tone: left <= 5 ? 'soon' : 'ok', detail: `${days(left)} left; due ${formatDay(clock.due_date)}` };
    }
  }
}
