import { useState, type FormEvent } from 'react';
import { runCaseAction, updateCase } from '../../api/cases.js';
import { ApiError } from '../../api/errors.js';
import { reapprove } from '../../api/releases.js';
import type { Case, CaseAction, CasePermissions } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { Modal } from '../../components/Modal.js';
import { PriorityField } from '../../components/PriorityField.js';
import { PriorityBadge, StatusBadge } from '../../components/StatusBadge.js';
import { clockSummary } from '../../domain/clock.js';
import { changesSinceApproval, formatDateTime, formatDay, formatMessage } from '../../domain/format.js';
import { WORKFLOW, allowedActions } from '../../domain/workflow.js';
import { useAction } from '../../hooks/useAction.js';
import { RequesterFields, draftOf, requesterOf } from './RequesterFields.js';

interface Props {
  value: Case;
  /** The server's answer about what the signed-in user may do here; null while it loads. */
  permissions: CasePermissions | null;
  onChanged: (updated: Case) => void;
  /** The case changed elsewhere (an action was refused for its status): load it again. */
  onStale: () => void;
  onExport: () => void;
  /** File names of the case's documents, to say what changed since the approval. */
  names: ReadonlyMap<string, string>;
}

/** Actions final enough to confirm first, with an optional note kept in the case's history. */
const CONFIRMED: Partial<Record<CaseAction, { title: string; text: string }>> = {
  approve: { title: 'Approve this case?', text: 'Approval is final: it releases the case for the requester’s package. Another person checked the redactions; you confirm they are complete.' },
  reject: { title: 'Send this case back?', text: 'The case returns to the person preparing it. Say what needs to change.' },
  cancel: { title: 'Cancel this case?', text: 'A cancelled case stops its clock and cannot be worked any more.' },
};

/** Case facts, the workflow actions the server says this user may take, and editing of its details. */
export function CaseHeader({ value, permissions, onChanged, onStale, onExport, names }: Props) {
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<CaseAction | 'reapprove' | null>(null);
  const clock = clockSummary(value);
  const may = (name: keyof CasePermissions['actions']) => permissions?.actions[name].allowed === true;
  const offered = allowedActions(value.status).filter((name) => may(name));
  const approval = permissions?.approval ?? null;

  const act = async (name: CaseAction, note?: string) => {
    const send = async (key: string) => {
      try {
        return await runCaseAction(value.id, name, key, note);
      } catch (failure) {
        // The case moved on elsewhere: show it as it is now.
        if (failure instanceof ApiError && failure.code === 'invalid_transition') onStale();
        throw failure;
      }
    };
    const updated = await action.run(name, send, { name, note });
    if (updated) {
      onChanged(updated);
      setConfirming(null);
    }
  };

  return (
    <div className="case-header">
      <div className="case-title-row">
        <h1 id="case-title">{value.name}</h1>
        <StatusBadge status={value.status} />
        <PriorityBadge priority={value.priority} />
        {value.release && <span className="badge released">Released #{value.release.number} · {formatDay(value.release.released_at)}</span>}
        <div className="spacer" />
        <div className="actions" role="group" aria-label="Workflow actions">
          {offered.map((name) => (
            <button
              key={name}
              type="button"
              className={name === 'cancel' || name === 'reject' ? 'button' : 'button primary'}
              disabled={action.busy !== null}
              onClick={() => (CONFIRMED[name] ? setConfirming(name) : void act(name))}
              data-action={name}
            >
              {action.busy === name ? 'Working…' : WORKFLOW[name].label}
              {CONFIRMED[name] ? '…' : ''}
            </button>
          ))}
          {approval?.reopened && may('reapprove') && (
            <button type="button" className="button primary" data-action="reapprove" onClick={() => setConfirming('reapprove')}>
              Re-approve…
            </button>
          )}
        </div>
        {may('edit_case') && (
          <button type="button" className="button" onClick={() => setEditing((open) => !open)} aria-expanded={editing}>
            Edit details
          </button>
        )}
        <button type="button" className="button" onClick={onExport} title="An internal copy for the office: redacted PDFs or the case record. Never sent to the requester.">
          Export (internal)…
        </button>
        {may('release') && (
          <a className="button" href={`#/cases/${value.id}/release`} title="The package the requester gets: redacted PDFs, withholding index and cover letter.">
            Release to requester…
          </a>
        )}
      </div>
      {approval?.reopened && (
        <div className="banner banner-warning" role="status" data-testid="approval-reopened">
          <span className="banner-text">
            Approval of {formatDateTime(approval.approved_at)} is reopened: {changesSinceApproval(approval, names)} since then.
            {may('reapprove') ? ' Check the changes and re-approve.' : ` ${formatMessage(permissions?.actions.reapprove.reason ?? '')}`}
          </span>
        </div>
      )}
      <dl className="facts">
        <div>
          <dt>Case no.</dt>
          <dd>{value.id}</dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd className={value.clock.overdue ? 'overdue-text' : undefined}>
            {value.clock.state === 'tolled' ? 'Paused' : formatDay(value.dueDate)}
            {clock.label && <span className={`clock-tag clock-${clock.tone}`} title={clock.detail}>{clock.label}</span>}
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
        {approval && (
          <div>
            <dt>Approved</dt>
            <dd>
              {formatDateTime(approval.approved_at)}
              {approval.note && <span className="muted"> — “{approval.note}”</span>}
            </dd>
          </div>
        )}
      </dl>
      {value.description && <p className="case-description">{value.description}</p>}
      <ErrorBanner error={action.error} onDismiss={action.clearError} />
      {editing && (
        <EditDetails
          value={value}
          busy={action.busy === 'edit'}
          onSave={async (changes) => {
            const updated = await action.run('edit', (key) => updateCase(value.id, changes, key), changes);
            if (updated) {
              onChanged(updated);
              setEditing(false);
            }
          }}
        />
      )}
      {confirming && (
        <ConfirmAction
          kind={confirming}
          approval={approval}
          names={names}
          busy={action.busy !== null}
          error={action.error}
          onCancel={() => {
            setConfirming(null);
            action.clearError();
          }}
          onConfirm={async (note) => {
            if (confirming !== 'reapprove') return act(confirming, note);
            const done = await action.run('reapprove', (key) => reapprove(value.id, key, note), { note });
            if (done) {
              setConfirming(null);
              onStale();
            }
          }}
        />
      )}
    </div>
  );
}

export interface ConfirmProps {
  kind: CaseAction | 'reapprove';
  approval: CasePermissions['approval'];
  names: ReadonlyMap<string, string>;
  busy: boolean;
  error: unknown;
  onCancel: () => void;
  onConfirm: (note: string | undefined) => Promise<void>;
}

/** The confirmation of an approval, a re-approval, a send-back or a cancellation, with its optional note. */
export function ConfirmAction({ kind, approval, names, busy, error, onCancel, onConfirm }: ConfirmProps) {
  const [note, setNote] = useState('');
  const text =
    kind === 'reapprove'
      ? { title: 'Re-approve this case?', text: `Since the approval of ${formatDateTime(approval?.approved_at)}: ${approval ? changesSinceApproval(approval, names) : 'nothing changed'}. Check them, then approve the case as it stands now.` }
      : (CONFIRMED[kind] ?? { title: WORKFLOW[kind].label, text: '' });
  const label = kind === 'reapprove' ? 'Re-approve' : WORKFLOW[kind].label;
  return (
    <Modal
      title={text.title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Not now
          </button>
          <button type="submit" form="confirm-action" className="button primary" disabled={busy} data-action={`confirm-${kind}`}>
            {busy ? 'Working…' : label}
          </button>
        </>
      }
    >
      <form
        id="confirm-action"
        className="form"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void onConfirm(note.trim() || undefined);
        }}
      >
        <p>{text.text}</p>
        <label className="field">
          <span>Note for the case history (optional)</span>
          <textarea value={note} onChange={(event) => setNote(event.target.value)} rows={3} maxLength={2000} />
        </label>
        <ErrorBanner error={error} />
      </form>
    </Modal>
  );
}

interface EditProps {
  value: Case;
  busy: boolean;
  onSave: (changes: Parameters<typeof updateCase>[1]) => Promise<void>;
}

function EditDetails({ value, busy, onSave }: EditProps) {
  const [name, setName] = useState(value.name);
  const [description, setDescription] = useState(value.description);
  const [priority, setPriority] = useState(value.priority);
  const [receivedDate, setReceivedDate] = useState(value.receivedDate ?? '');
  const [timeLimit, setTimeLimit] = useState(value.timeLimitDays === null ? '' : String(value.timeLimitDays));
  const [dueDate, setDueDate] = useState(value.receivedDate === null && value.dueDate ? value.dueDate.slice(0, 10) : '');
  const [requester, setRequester] = useState(() => draftOf(value.requester));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: Parameters<typeof updateCase>[1] = {};
    if (name.trim() !== value.name) changes.name = name.trim();
    if (description !== value.description) changes.description = description;
    if (priority !== value.priority) changes.priority = priority;
    if ((receivedDate || null) !== value.receivedDate) changes.receivedDate = receivedDate || null;
    const limit = timeLimit.trim() ? Number(timeLimit) : null;
    if (limit !== value.timeLimitDays) changes.timeLimitDays = limit;
    if (!receivedDate) {
      const due = dueDate || null;
      if (due !== (value.dueDate ? value.dueDate.slice(0, 10) : null)) changes.dueDate = due;
    }
    const contact = requesterOf(requester);
    if (JSON.stringify(contact) !== JSON.stringify(value.requester === null ? null : requesterOf(draftOf(value.requester)))) changes.requester = contact;
    if (Object.keys(changes).length === 0) return;
    void onSave(changes);
  };

  return (
    <form className="edit-details" onSubmit={submit} aria-label="Edit case details">
      <label className="field grow">
        <span>Name</span>
        <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={500} />
      </label>
      <PriorityField value={priority} onChange={setPriority} />
      <label className="field">
        <span>Request received</span>
        <input type="date" value={receivedDate} onChange={(event) => setReceivedDate(event.target.value)} />
      </label>
      <label className="field">
        <span>Time limit (business days; blank: office default)</span>
        <input type="number" min={1} max={250} value={timeLimit} onChange={(event) => setTimeLimit(event.target.value)} disabled={!receivedDate} />
      </label>
      {!receivedDate && (
        <label className="field">
          <span>Due date</span>
          <input type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
        </label>
      )}
      <label className="field grow">
        <span>Description</span>
        <input value={description} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <fieldset className="fieldset grow">
        <legend>Requester (internal, never released)</legend>
        <RequesterFields value={requester} onChange={setRequester} />
      </fieldset>
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save details'}
      </button>
    </form>
  );
}
