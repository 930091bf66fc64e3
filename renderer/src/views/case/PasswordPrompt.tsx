import { useId, useState, type FormEvent } from 'react';
import { newIdempotencyKey } from '../../api/http.js';
import { supplyPassword } from '../../api/processing.js';
import type { Document } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';

// Password-protected PDFs wait for their password: the prompt names the file, sends the password once to
// decrypt a working copy (never stored), and shows the server's own reason when it does not open the file.

interface FormProps {
  document: Document;
  onUnlocked: (document: Document) => void;
}

export function PasswordForm({ document, onUnlocked }: FormProps) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fieldId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Each attempt is its own action (a different password), so each gets its own Idempotency-Key.
      const unlocked = await supplyPassword(document.id, password, newIdempotencyKey());
      setPassword('');
      onUnlocked(unlocked);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="password-form" onSubmit={(event) => void submit(event)} data-document-id={document.id} aria-label={`Unlock ${document.fileName}`}>
      <p className="banner-text">
        “{document.fileName}” is password-protected. Enter its password to open and process it; the password decrypts a working copy once and
        is not stored.
      </p>
      <div className="row">
        <label htmlFor={fieldId}>Password for {document.fileName}</label>
        <input id={fieldId} type="password" autoComplete="off" value={password} onChange={(event) => setPassword(event.target.value)} disabled={busy} required />
        <button type="submit" className="button small primary" disabled={busy || password === ''}>
          {busy ? 'Unlocking…' : 'Unlock'}
        </button>
      </div>
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
    </form>
  );
}

interface NoticeProps {
  documents: readonly Document[];
  onUnlocked: (document: Document) => void;
}

/** Every document of the case waiting for its password, each with its prompt. */
export function PasswordNotice({ documents, onUnlocked }: NoticeProps) {
  const locked = documents.filter((document) => document.password_state === 'needs_password');
  if (locked.length === 0) return null;
  return (
    <section className="banner banner-warning password-notice" aria-label="Password-protected documents">
      {locked.map((document) => (
        <PasswordForm key={document.id} document={document} onUnlocked={onUnlocked} />
      ))}
    </section>
  );
}
