import { useState, type FormEvent } from 'react';
import { newIdempotencyKey } from '../../api/http.js';
import { addWithholding, removeWithholding, type Withholding } from '../../api/releases.js';
import type { Document } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';

interface Props {
  caseId: string;
  documents: Document[];
  withholdings: Withholding[];
  exemptionCodes: string[];
  onChanged: () => void;
}

/** Pages, ranges or whole documents withheld in full: the release carries a placeholder page instead. */
export function WithholdingsPanel({ caseId, documents, withholdings, exemptionCodes, onChanged }: Props) {
  const [documentId, setDocumentId] = useState('');
  const [whole, setWhole] = useState(false);
  const [from, setFrom] = useState('1');
  const [to, setTo] = useState('1');
  const [exemption, setExemption] = useState('(b)(6)');
  const [category, setCategory] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [key, setKey] = useState(newIdempotencyKey());
  const nameOf = (id: string) => documents.find((document) => document.id === id)?.fileName ?? `Document ${id}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const chosen = documentId || documents[0]?.id || '';
      await addWithholding(caseId, { document_id: chosen, pages: whole ? null : { from: Number(from), to: Number(to) }, exemption, ...(category.trim() && { category: category.trim() }) }, key);
      setKey(newIdempotencyKey());
      setCategory('');
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };

  const remove = async (id: string) => {
    setError(null);
    try {
      await removeWithholding(id);
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section className="panel" aria-labelledby="withheld-title">
      <h2 id="withheld-title">Withheld in full</h2>
      {withholdings.length === 0 ? (
        <p className="muted">Nothing is withheld in full.</p>
      ) : (
        <ul className="withholdings">
          {withholdings.map((entry) => (
            <li key={entry.id} data-withholding={entry.id}>
              <span>
                {nameOf(entry.document_id)}, {entry.pages ? (entry.pages.from === entry.pages.to ? `page ${entry.pages.from}` : `pages ${entry.pages.from}–${entry.pages.to}`) : 'whole document'}: {entry.exemption}
                {entry.category ? ` (${entry.category})` : ''}
              </span>
              <button type="button" className="button small ghost" onClick={() => remove(entry.id)} aria-label={`Remove withholding ${entry.id}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form withhold-form" onSubmit={submit} aria-label="Withhold in full">
        <div className="row">
          <label className="field">
            <span>Document</span>
            <select value={documentId} onChange={(event) => setDocumentId(event.target.value)}>
              {documents.map((document) => (
                <option key={document.id} value={document.id}>
                  {document.fileName}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={whole} onChange={(event) => setWhole(event.target.checked)} />
            <span>Whole document</span>
          </label>
          {!whole && (
            <>
              <label className="field">
                <span>From page</span>
                <input type="number" min={1} value={from} onChange={(event) => setFrom(event.target.value)} />
              </label>
              <label className="field">
                <span>To page</span>
                <input type="number" min={1} value={to} onChange={(event) => setTo(event.target.value)} />
              </label>
            </>
          )}
          <label className="field">
            <span>Exemption</span>
            <input list="exemption-codes" value={exemption} onChange={(event) => setExemption(event.target.value)} required />
            <datalist id="exemption-codes">
              {exemptionCodes.map((code) => (
                <option key={code} value={code} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span>Category (optional)</span>
            <input value={category} onChange={(event) => setCategory(event.target.value)} placeholder="e.g. medical record" />
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={documents.length === 0}>
            Withhold in full
          </button>
        </div>
        <ErrorBanner error={error} />
      </form>
    </section>
  );
}
