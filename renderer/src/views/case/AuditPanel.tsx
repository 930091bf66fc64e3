import { useState } from 'react';
import { caseAuditCsvUrl, listCaseAudit, type AuditChange, type AuditEntry, type AuditFilter } from '../../api/audit.js';
import type { Document } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { describeAction, documentName, formatDateTime } from '../../domain/format.js';
import { useLoad } from '../../hooks/useLoad.js';

// Who did what and when in this case, with each redaction box before and after; filters and a CSV download.

const ACTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Everything' },
  { value: 'redactions.', label: 'Redaction changes and decisions' },
  { value: 'case.', label: 'Case changes' },
  { value: 'document.', label: 'Documents' },
  { value: 'search.', label: 'Search redactions' },
  { value: 'export.', label: 'Exports' },
];

/** The filter with one field set, or removed when empty. */
function withField(filter: AuditFilter, field: keyof AuditFilter, value: string): AuditFilter {
  const next = { ...filter };
  if (value) next[field] = value;
  else delete next[field];
  return next;
}

function who(entry: AuditEntry): string {
  if (entry.actor.name) return entry.actor.name;
  if (entry.actor.type === 'api_key') return `API key ${entry.actor.id}`;
  if (entry.actor.type === 'system') return `System (${entry.actor.id})`;
  return `${entry.actor.type} ${entry.actor.id}`;
}

function boxState(value: Record<string, unknown> | null): string {
  if (!value) return '—';
  const page = value.page_number ?? '?';
  return `${String(value.state ?? '')} · ${String(value.layer ?? '')} · page ${String(page)}`;
}

function ChangeLine({ change }: { change: AuditChange }) {
  return (
    <li>
      {change.change} box: {boxState(change.before)} → {boxState(change.after)}
    </li>
  );
}

export function AuditPanel({ caseId, documents }: { caseId: string; documents: Document[] }) {
  const [filter, setFilter] = useState<AuditFilter>({});
  const [extra, setExtra] = useState<{ entries: AuditEntry[]; cursor: string | null } | null>(null);
  const first = useLoad(
    async (signal) => {
      setExtra(null);
      return listCaseAudit(caseId, filter, null, signal);
    },
    [caseId, filter.document_id, filter.action],
  );
  const [error, setError] = useState<unknown>(null);
  const entries = [...(first.data?.data ?? []), ...(extra?.entries ?? [])];
  const cursor = extra ? extra.cursor : (first.data?.cursor ?? null);
  const names = new Map(documents.map((document) => [document.id, document.fileName]));

  const more = async () => {
    if (!cursor) return;
    try {
      const page = await listCaseAudit(caseId, filter, cursor);
      setExtra({ entries: [...(extra?.entries ?? []), ...page.data], cursor: page.cursor });
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section className="panel audit-panel" aria-labelledby="audit-title">
      <h2 id="audit-title">History</h2>
      <div className="row audit-filters">
        <label className="field">
          <span>Document</span>
          <select value={filter.document_id ?? ''} onChange={(event) => setFilter(withField(filter, 'document_id', event.target.value))}>
            <option value="">All documents and the case</option>
            {documents.map((document) => (
              <option key={document.id} value={document.id}>
                {document.fileName}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>What</span>
          <select value={filter.action ?? ''} onChange={(event) => setFilter(withField(filter, 'action', event.target.value))}>
            {ACTIONS.map((action) => (
              <option key={action.value} value={action.value}>
                {action.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button small" onClick={first.reload}>
          Refresh
        </button>
        <a className="button small" href={caseAuditCsvUrl(caseId, filter)} download>
          Download CSV
        </a>
      </div>
      <ErrorBanner error={first.error ?? error} onRetry={first.reload} />
      <table className="audit-table" aria-label="History">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Document</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-action={entry.action}>
              <td>{formatDateTime(entry.at)}</td>
              <td>{who(entry)}</td>
              <td title={entry.action}>{describeAction(entry.action, entry.details)}</td>
              <td>{documentName(entry.document_id, names)}</td>
              <td>
                {entry.changes && entry.changes.length > 0 ? (
                  <ul className="audit-changes">
                    {entry.changes.slice(0, 5).map((change) => (
                      <ChangeLine key={change.redaction_id + change.change} change={change} />
                    ))}
                    {entry.changes.length > 5 && <li className="muted">and {entry.changes.length - 5} more</li>}
                  </ul>
                ) : (
                  ''
                )}
              </td>
            </tr>
          ))}
          {!first.loading && entries.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                Nothing recorded for this selection.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {cursor && (
        <button type="button" className="button small" onClick={() => void more()}>
          Show older
        </button>
      )}
    </section>
  );
}
