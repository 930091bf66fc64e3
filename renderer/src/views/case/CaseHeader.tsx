import { useState, type FormEvent } from 'react';
import { runCaseAction, updateCase } from '../../api/cases.js';
import { ApiError } from '../../api/errors.js';
import { newIdempotencyKey } from '../../api/http.js';
import type { Case, CaseAction } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { PriorityField } from '../../components/PriorityField.js';
import { PriorityBadge, StatusBadge } from '../../components/StatusBadge.js';
import { formatDateTime, formatDay } from '../../domain/format.js';
import { isOverdue, localDay } from '../../domain/queue.js';
import { WORKFLOW, allowedActions } from '../../domain/workflow.js';

interface Props {
  value: Case;
  onChanged: (updated: Case) => void;
  /** The case changed elsewhere (an action was refused for its status): load it again. */
  onStale: () => void;
  onExport: () => void;
}

/** Case facts, the workflow actions its status allows, and editing of its details. */
export function CaseHeader({ value, onChanged, onStale, onExport }: Props) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<CaseAction | 'edit' | null>(null);
  const [editing, setEditing] = useState(false);
  // A failed action keeps its key, so trying it again cannot run it twice.
  const [actionKeys, setActionKeys] = useState<Partial<Record<CaseAction, string>>>({});
  const overdue = isOverdue(value, localDay(new Date()));

  const act = async (action: CaseAction) => {
    const key = actionKeys[action] ?? newIdempotencyKey();
    setActionKeys((previous) => ({ ...previous, [action]: key }));
    setBusy(action);
    setError(null);
    try {
      onChanged(await runCaseAction(value.id, action, key));
      setActionKeys({});
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiError && failure.code === 'invalid_transition') {
        setActionKeys({});
        onStale();
      }
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="case-header">
      <div className="case-title-row">
        <h1 id="case-title">{value.name}</h1>
        <StatusBadge status={value.status} />
        <PriorityBadge priority={value.priority} />
        <div className="spacer" />
        <div className="actions" role="group" aria-label="Workflow actions">
          {allowedActions(value.status).map((action) => (
            <button
              key={action}
              type="button"
              className={action === 'cancel' || action === 'reject' ? 'button' : 'button primary'}
              disabled={busy !== null}
              onClick={() => act(action)}
              data-action={action}
            >
              {busy === action ? 'Working…' : WORKFLOW[action].label}
            </button>
          ))}
        </div>
        <button type="button" className="button" onClick={() => setEditing((open) => !open)} aria-expanded={editing}>
          Edit details
        </button>
        <button type="button" className="button" onClick={onExport}>
          Export…
        </button>
        <a className="button" href={`#/cases/${value.id}/release`}>
          Release…
        </a>
      </div>
      <dl className="facts">
        <div>
          <dt>Case no.</dt>
          <dd>{value.id}</dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd className={overdue ? 'overdue-text' : undefined}>
            {formatDay(value.dueDate)}
            {overdue && <span className="tag-overdue">Overdue</span>}
          </dd>
        </div>
        <div>
          <dt>Opened</dt>
          <dd>{formatDateTime(value.created_at)}</dd>
        </div>
        <div>
          <dt>Last change</dt>
          <dd>{formatDateTime(value.updated_at)}</dd>
        </div>
      </dl>
      {value.description && <p className="case-description">{value.description}</p>}
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
      {editing && (
        <EditDetails
          value={value}
          busy={busy === 'edit'}
          onSave={async (changes, key) => {
            setBusy('edit');
            setError(null);
            try {
              onChanged(await updateCase(value.id, changes, key));
              setEditing(false);
            } catch (failure) {
              setError(failure);
            } finally {
              setBusy(null);
            }
          }}
        />
      )}
    </div>
  );
}

interface EditProps {
  value: Case;
  busy: boolean;
  onSave: (changes: Parameters<typeof updateCase>[1], key: string) => Promise<void>;
}

function EditDetails({ value, busy, onSave }: EditProps) {
  const [name, setName] = useState(value.name);
  const [description, setDescription] = useState(value.description);
  const [priority, setPriority] = useState(value.priority);
  const [dueDate, setDueDate] = useState(value.dueDate ? value.dueDate.slice(0, 10) : '');
  const [key] = useState(newIdempotencyKey);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: Parameters<typeof updateCase>[1] = {};
    if (name.trim() !== value.name) changes.name = name.trim();
    if (description !== value.description) changes.description = description;
    if (priority !== value.priority) changes.priority = priority;
    const due = dueDate || null;
    if (due !== (value.dueDate ? value.dueDate.slice(0, 10) : null)) changes.dueDate = due;
    if (Object.keys(changes).length === 0) return;
    void onSave(changes, key);
  };

  return (
    <form className="edit-details" onSubmit={submit} aria-label="Edit case details">
      <label className="field grow">
        <span>Name</span>
        <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={500} />
      </label>
      <PriorityField value={priority} onChange={setPriority} />
      <label className="field">
        <span>Due date</span>
        <input type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
      </label>
      <label className="field grow">
        <span>Description</span>
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save details'}
      </button>
    </form>
  );
}
