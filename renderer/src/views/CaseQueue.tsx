import { useMemo, useState } from 'react';
import { listCases } from '../api/cases.js';
import type { Case, CaseStatus } from '../api/types.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { ErrorBanner } from '../components/ErrorBanner.js';
import { PriorityBadge, StatusBadge } from '../components/StatusBadge.js';
import { clockSummary } from '../domain/clock.js';
import { formatDateTime, formatDay } from '../domain/format.js';
import { filterCases, isOverdue, localDay, sortCases, type DueFilter, type QueueFilter, type SortDirection, type SortKey } from '../domain/queue.js';
import { STATUS_LABELS } from '../domain/workflow.js';
import { navigate } from '../hooks/useHashRoute.js';
import { useLoad } from '../hooks/useLoad.js';
import { NewCaseDialog } from './NewCaseDialog.js';

// Being worked: everything not yet answered by a release, approved included (approved is not yet sent).
const WORKING_STATUSES: CaseStatus[] = ['open', 'in_progress', 'in_review', 'rejected', 'approved'];
const ALL_STATUSES: CaseStatus[] = ['open', 'in_progress', 'in_review', 'rejected', 'approved', 'cancelled'];

const SORT_COLUMNS: { key: SortKey; label: string; className?: string }[] = [
  { key: 'id', label: 'No.', className: 'num' },
  { key: 'name', label: 'Case' },
  { key: 'status', label: 'Status' },
  { key: 'priority', label: 'Priority' },
  { key: 'dueDate', label: 'Due' },
  { key: 'daysLeft', label: 'Clock' },
  { key: 'updated_at', label: 'Last change' },
];

export function CaseQueue() {
  const cases = useLoad((signal) => listCases(signal), []);
  const [filter, setFilter] = useState<QueueFilter>({ search: '', statuses: WORKING_STATUSES, priority: 'any', due: 'any', released: false });
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({ key: 'dueDate', direction: 'asc' });
  const [creating, setCreating] = useState(false);
  const today = localDay(new Date());

  const rows = useMemo(() => sortCases(filterCases(cases.data ?? [], filter, today), sort.key, sort.direction), [cases.data, filter, sort, today]);
  const overdueCount = useMemo(() => (cases.data ?? []).filter((item) => isOverdue(item)).length, [cases.data]);

  const toggleSort = (key: SortKey) =>
    setSort((previous) => (previous.key === key ? { key, direction: previous.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: key === 'updated_at' ? 'desc' : 'asc' }));

  const columns: Column[] = SORT_COLUMNS.map((column) => {
    const direction = sort.key === column.key ? sort.direction : null;
    return {
      className: column.className,
      sort: direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none',
      header: (
        <button type="button" className="sort" onClick={() => toggleSort(column.key)}>
          {column.label}
          <span className="sort-mark" aria-hidden="true">
            {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
          </span>
        </button>
      ),
    };
  });

  const statusPreset = filter.released === true ? 'released' : filter.statuses === WORKING_STATUSES ? 'working' : filter.statuses.length === 0 ? 'all' : filter.statuses[0];

  const onCreated = (created: Case) => {
    cases.setData((previous) => [...(previous ?? []), created]);
    setCreating(false);
    navigate({ name: 'case', caseId: created.id });
  };

  return (
    <section className="page" aria-labelledby="queue-title">
      <div className="page-header">
        <h1 id="queue-title">Case queue</h1>
        <span className="muted">
          {cases.data ? `${rows.length} of ${cases.data.length} cases` : ''}
          {overdueCount > 0 && <span className="overdue-count"> · {overdueCount} overdue</span>}
        </span>
        <div className="spacer" />
        <button type="button" className="button" onClick={cases.reload} disabled={cases.loading}>
          Refresh
        </button>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          New case
        </button>
      </div>

      <div className="filters" role="search">
        <label className="field inline grow">
          <span>Search</span>
          <input type="search" placeholder="Name, number or description" value={filter.search} onChange={(event) => setFilter({ ...filter, search: event.target.value })} />
        </label>
        <label className="field inline">
          <span>Status</span>
          <select
            value={statusPreset}
            onChange={(event) => {
              const value = event.target.value;
              const statuses = value === 'working' ? WORKING_STATUSES : value === 'all' || value === 'released' ? [] : [value as CaseStatus];
              setFilter({ ...filter, statuses, released: value === 'working' ? false : value === 'released' ? true : undefined });
            }}
          >
            <option value="working">Being worked</option>
            <option value="released">Released</option>
            <option value="all">All</option>
            {ALL_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </label>
        <label className="field inline">
          <span>Priority</span>
          <select value={filter.priority} onChange={(event) => setFilter({ ...filter, priority: event.target.value as QueueFilter['priority'] })}>
            <option value="any">Any</option>
            <option value="urgent">Urgent</option>
            <option value="high">High</option>
            <option value="normal">Normal</option>
            <option value="low">Low</option>
          </select>
        </label>
        <label className="field inline">
          <span>Due</span>
          <select value={filter.due} onChange={(event) => setFilter({ ...filter, due: event.target.value as DueFilter })}>
            <option value="any">Any time</option>
            <option value="overdue">Overdue</option>
            <option value="week">Within 7 days</option>
            <option value="none">No due date</option>
          </select>
        </label>
      </div>

      <ErrorBanner error={cases.error} onRetry={cases.reload} />

      <DataTable
        label="Cases"
        busy={cases.loading}
        columns={columns}
        rows={cases.data ? rows : null}
        empty={cases.data?.length === 0 ? 'No cases yet. Create the first one with “New case”.' : 'No case matches these filters.'}
        rowProps={(item) => ({ className: isOverdue(item) ? 'overdue' : undefined, 'data-case-id': item.id })}
        cells={(item) => {
          const overdue = isOverdue(item);
          const clock = clockSummary(item);
          return (
            <>
              <td className="num">{item.id}</td>
              <td>
                <a href={`#/cases/${item.id}`} className="row-link">
                  {item.name}
                </a>
                {item.description && <div className="cell-sub">{item.description}</div>}
              </td>
              <td>
                <StatusBadge status={item.status} />
                {item.release && (
                  <span className="badge released" title={`Release ${item.release.number} went out ${formatDateTime(item.release.released_at)}`}>
                    Released #{item.release.number} · {formatDay(item.release.released_at)}
                  </span>
                )}
              </td>
              <td>
                <PriorityBadge priority={item.priority} />
              </td>
              <td className={overdue ? 'due overdue-text' : 'due'}>{formatDay(item.dueDate)}</td>
              <td>{clock.label && <span className={`clock-tag clock-${clock.tone}`} title={clock.detail}>{clock.label}</span>}</td>
              <td className="muted">{formatDateTime(item.updated_at)}</td>
            </>
          );
        }}
      />
      {creating && <NewCaseDialog onClose={() => setCreating(false)} onCreated={onCreated} />}
    </section>
  );
}
