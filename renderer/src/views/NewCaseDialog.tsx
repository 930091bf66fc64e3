import { useState, type FormEvent } from 'react';
import { createCase } from '../api/cases.js';
import { newIdempotencyKey } from '../api/http.js';
import type { Case } from '../api/types.js';
import { ErrorBanner } from '../components/ErrorBanner.js';
import { Modal } from '../components/Modal.js';
import { PriorityField } from '../components/PriorityField.js';

interface Props {
  onClose: () => void;
  onCreated: (created: Case) => void;
}

export function NewCaseDialog({ onClose, onCreated }: Props) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState<Case['priority']>('normal');
  const [dueDate, setDueDate] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // One key for this dialog's one case: pressing Create again after a failure cannot create two.
  const [key] = useState(newIdempotencyKey);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onCreated(await createCase({ name: name.trim(), description: description.trim(), priority, ...(dueDate && { dueDate }) }, key));
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
            <span>Due date</span>
            <input type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
          </label>
        </div>
        <ErrorBanner error={error} />
      </form>
    </Modal>
  );
}
