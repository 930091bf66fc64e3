import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { newIdempotencyKey } from '../../api/http.js';
import { submitReviewDecisions } from '../../api/redactions.js';
import { decideValue, listCaseSuggestions, type QueueItem } from '../../api/review-queue.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { routeHref } from '../../domain/routes.js';
import { useLoad } from '../../hooks/useLoad.js';

// Every pending suggestion of the case, worked from the keyboard: ↓/j and ↑/k move, a accepts, r rejects,
// Shift+A / Shift+R decide the same value everywhere in the case. Counts follow each decision.

type Decision = 'accept' | 'reject';

const fold = (value: string) => value.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().trim();

/** `refreshKey` changes when detection has finished somewhere in the case: the queue loads again. */
export function SuggestionsQueue({ caseId, refreshKey }: { caseId: string; refreshKey?: string }) {
  const queue = useLoad((signal) => listCaseSuggestions(caseId, signal), [caseId, refreshKey]);
  const [kind, setKind] = useState('');
  const [documentId, setDocumentId] = useState('');
  const [value, setValue] = useState('');
  const [current, setCurrent] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  const all = queue.data?.items ?? [];
  const items = all.filter((item) => (!kind || item.kind === kind) && (!documentId || item.document_id === documentId) && (!value || fold(item.text).includes(fold(value))));
  const kinds = new Map<string, { label: string; count: number }>();
  for (const item of all) kinds.set(item.kind, { label: item.label, count: (kinds.get(item.kind)?.count ?? 0) + 1 });
  const documents = new Map(all.map((item) => [item.document_id, item.file_name]));
  const selected = items[Math.min(current, items.length - 1)];

  // Keeps the selected row visible by scrolling the list alone: scrollIntoView would also scroll the page,
  // and the queue filling while the clerk works elsewhere on the case must not move what is under the pointer.
  useEffect(() => {
    const list = listRef.current;
    const row = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !row) return;
    const top = row.offsetTop; // the list is positioned, so this is within its scrolled content
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + row.offsetHeight - list.clientHeight;
  }, [current, items.length]);

  /** Removes decided items locally (the counts follow at once), then reloads what the server holds. */
  const settle = (decided: (item: QueueItem) => boolean, message: string) => {
    queue.setData((previous) => {
      const kept = (previous?.items ?? []).filter((item) => !decided(item));
      const byKind: Record<string, number> = {};
      for (const item of kept) byKind[item.kind] = (byKind[item.kind] ?? 0) + 1;
      return { items: kept, total: kept.length, by_kind: byKind };
    });
    setNotice(message);
  };

  const decideOne = async (item: QueueItem | undefined, decision: Decision) => {
    if (!item || busy) return;
    setBusy(true);
    setError(null);
    try {
      await submitReviewDecisions(item.document_id, [{ redactionRowId: item.id, decision }], newIdempotencyKey());
      settle((candidate) => candidate.id === item.id, `${decision === 'accept' ? 'Accepted' : 'Rejected'} “${item.text || item.label}” on page ${item.page} of ${item.file_name}.`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const decideEverywhere = async (item: QueueItem | undefined, decision: Decision) => {
    if (!item || !item.text || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await decideValue(caseId, { decision, value: item.text, kind: item.kind }, newIdempotencyKey());
      settle(
        (candidate) => candidate.kind === item.kind && fold(candidate.text) === fold(item.text),
        `${decision === 'accept' ? 'Accepted' : 'Rejected'} “${item.text}” everywhere in the case: ${result.decided} in ${result.documents} ${result.documents === 1 ? 'document' : 'documents'}.`,
      );
      queue.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const onKey = (event: KeyboardEvent<HTMLOListElement>) => {
    const key = event.key;
    if (key === 'ArrowDown' || key === 'j') setCurrent((index) => Math.min(items.length - 1, index + 1));
    else if (key === 'ArrowUp' || key === 'k') setCurrent((index) => Math.max(0, index - 1));
    else if (key === 'a') void decideOne(selected, 'accept');
    else if (key === 'r') void decideOne(selected, 'reject');
    else if (key === 'A') void decideEverywhere(selected, 'accept');
    else if (key === 'R') void decideEverywhere(selected, 'reject');
    else return;
    event.preventDefault();
  };

  return (
    <section className="panel queue-panel" aria-labelledby="queue-title">
      <h2 id="queue-title">
        Suggestions to review <span className="muted" data-testid="queue-count">({all.length})</span>
      </h2>
      <div className="row queue-filters">
        <label className="field">
          <span>Kind</span>
          <select value={kind} onChange={(event) => (setKind(event.target.value), setCurrent(0))}>
            <option value="">All kinds ({all.length})</option>
            {[...kinds].map(([name, info]) => (
              <option key={name} value={name}>
                {info.label} ({info.count})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Document</span>
          <select value={documentId} onChange={(event) => (setDocumentId(event.target.value), setCurrent(0))}>
            <option value="">All documents</option>
            {[...documents].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Text</span>
          <input type="search" value={value} onChange={(event) => (setValue(event.target.value), setCurrent(0))} />
        </label>
      </div>
      <ErrorBanner error={queue.error ?? error} onRetry={queue.reload} />
      {notice && (
        <p className="muted" role="status">
          {notice}
        </p>
      )}
      {items.length === 0 ? (
        <p className="muted">{queue.loading ? 'Loading…' : 'No suggestions waiting here.'}</p>
      ) : (
        <>
          <p className="muted queue-keys">Keys: ↓/j next · ↑/k previous · a accept · r reject · Shift+A / Shift+R the same text everywhere</p>
          <ol ref={listRef} className="queue-list" role="listbox" tabIndex={0} aria-label="Suggestions" aria-activedescendant={selected ? `queue-${selected.id}` : undefined} onKeyDown={onKey}>
            {items.map((item, index) => (
              <li key={item.id} id={`queue-${item.id}`} role="option" aria-selected={item === selected} data-redaction-id={item.id} onClick={() => setCurrent(index)}>
                <strong className="queue-text">{item.text || '(no text under the box)'}</strong>
                <span className="queue-kind">{item.label}</span>
                <span className="queue-where">
                  {item.file_name} · page {item.page}
                </span>
                <span className="queue-context muted">{item.context}</span>
              </li>
            ))}
          </ol>
          <div className="row queue-actions">
            {selected && (
              // A row only selects; this link, for the selected suggestion, opens the document at it.
              <a className="button small" href={`${routeHref({ name: 'document', documentId: selected.document_id, caseId })}&page=${selected.page}&redaction=${encodeURIComponent(selected.redaction_id)}`}>
                Open {selected.file_name} · page {selected.page}
              </a>
            )}
            <button type="button" className="button small primary" disabled={busy || !selected} onClick={() => void decideOne(selected, 'accept')}>
              Accept
            </button>
            <button type="button" className="button small" disabled={busy || !selected} onClick={() => void decideOne(selected, 'reject')}>
              Reject
            </button>
            <button type="button" className="button small" disabled={busy || !selected?.text} onClick={() => void decideEverywhere(selected, 'accept')}>
              Accept this text everywhere
            </button>
            <button type="button" className="button small ghost" disabled={busy || !selected?.text} onClick={() => void decideEverywhere(selected, 'reject')}>
              Reject this text everywhere
            </button>
          </div>
        </>
      )}
    </section>
  );
}
