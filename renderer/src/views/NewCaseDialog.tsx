import { useState, type FormEvent } from 'react';
import { createCase } from '../api/cases.js';
import { newIdempotencyKey } from '../api/http.js';
import type { Case } from '../api/types.js';
import { ErrorBanner } from '../components/ErrorBanner.js';
import { Modal } from '../components/Modal.js';
import { PriorityField } from '../components/PriorityField.js';
import { localDay } from '../domain/queue.js';
import { RequesterFields, requesterOf, type RequesterDraft } from './case/RequesterFields.js';

interface Props {
  onClose: () => void;
  onCreated: (created: Case) => void;
}

export function NewCaseDialog({ onClose, onCreated }: Props) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState<Case['priority']>('normal');
  const [dueDate, setDueDate] = useState('');
  // A request is received today unless the clerk says otherwise; its due date then follows the statutory clock.
  const [receivedDate, setReceivedDate] = useState(() => localDay(new Date()));
  const [requester, setRequester] = useState<RequesterDraft>({ name: '', email: '', phone: '', address: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // One key for this dialog's one case: pressing Create again after a failure cannot create two.
  const [key] = useState(newIdempotencyKey);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const contact = requesterOf(requester);
      onCreated(
        await createCase(
          {
            name: name.trim(),
            description: description.trim(),
            priority,
            ...(receivedDate ? { receivedDate } : dueDate && { dueDate }),
            ...(contact && { requester: contact }),
          },
          key,
        ),
      );
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <Modal
      title="New case"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="new-case-form" className="button primary" disabled={busy || !name.trim()}>
            {busy ? 'Creating…' : 'Create case'}
          </button>
        </>
      }
    >
      <form id="new-case-form" className="form" onSubmit={submit}>
        <label className="field">
          <span>Case name</span>
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={500} placeholder="e.g. FOIA-2026-0142 — Smith request" />
        </label>
        <label className="field">
          <span>Description</span>
          <textarea value={description} onChange={(event) => setDescription(event.target.value)} rows={3} />
        </label>
        <div className="row">
          <PriorityField value={priority} onChange={setPriority} />
          <label className="field">
            <span>Request received</span>
            <input type="date" value={receivedDate} onChange={(event) => setReceivedDate(event.target.value)} aria-describedby="received-hint" />
          </label>
          {!receivedDate && (
            <label className="field">
              <span>Due date</span>
              <input type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
            </label>
          )}
        </div>
        <p id="received-hint" className="hint">
          {receivedDate ? 'The due date is counted in business days from this date, by the office’s time limit and holidays.' : 'Without a received date the case has no statutory clock; set a due date by hand.'}
        </p>
        <fieldset className="fieldset">
          <legend>Requester (internal, never released)</legend>
          <RequesterFields value={requester} onChange={setRequester} />
        </fieldset>
        <ErrorBanner error={error} />
      </form>
    </Modal>
  );
}
