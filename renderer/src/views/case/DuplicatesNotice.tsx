import { useState } from 'react';
import { deleteDocument } from '../../api/documents.js';
import type { Document } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { documentName } from '../../domain/format.js';

// Uploads that repeat a document already in the case (same SHA-256, `duplicate_of`): never silently a second
// copy. The clerk skips the copy (it is deleted) or keeps both.

interface Props {
  documents: Document[];
  onRemoved: (documentId: string) => void;
}

export function DuplicatesNotice({ documents, onRemoved }: Props) {
  const [kept, setKept] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const names = new Map(documents.map((document) => [document.id, document.fileName]));
  const copies = documents.filter((document) => document.duplicate_of !== null && !kept.has(document.id));
  if (copies.length === 0) return null;

  const skip = async (document: Document) => {
    setBusy(document.id);
    setError(null);
    try {
      await deleteDocument(document.id);
      onRemoved(document.id);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="banner banner-warning duplicates" aria-label="Duplicate uploads">
      <ul>
        {copies.map((document) => (
          <li key={document.id} data-document-id={document.id}>
            <span>
              “{document.fileName}” is the same file as “{documentName(document.duplicate_of, names)}”, already in this case.
            </span>{' '}
            <button type="button" className="button small" disabled={busy !== null} onClick={() => void skip(document)}>
              {busy === document.id ? 'Removing…' : 'Skip the copy'}
            </button>{' '}
            <button type="button" className="button small ghost" disabled={busy !== null} onClick={() => setKept((previous) => new Set(previous).add(document.id))}>
              Keep both
            </button>
          </li>
        ))}
      </ul>
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
    </section>
  );
}
