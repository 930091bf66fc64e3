import { useState, type FormEvent } from 'react';
import { newIdempotencyKey } from '../../api/http.js';
import { redactSearchHits, searchCase, type SearchHit, type SearchMode, type SearchQuery, type SearchRedactResult } from '../../api/search.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { routeHref } from '../../domain/routes.js';
import { LAYERS, layerTitle } from '../viewer/layers.js';

// Search the whole case, look at every hit in its context, untick the ones to leave, and redact the rest.

const MODES: { value: SearchMode; label: string }[] = [
  { value: 'text', label: 'Text' },
  { value: 'phrase', label: 'Exact phrase' },
  { value: 'terms', label: 'List of terms (one a line)' },
  { value: 'pattern', label: 'Pattern (RE2)' },
];

interface Results {
  query: SearchQuery;
  hits: SearchHit[];
  total: number;
  cursor: string | null;
}

/** The context with the matched text marked. */
function Context({ hit }: { hit: SearchHit }) {
  const at = hit.context.indexOf(hit.text);
  if (at < 0) return <span>{hit.context}</span>;
  return (
    <span>
      {hit.context.slice(0, at)}
      <mark>{hit.text}</mark>
      {hit.context.slice(at + hit.text.length)}
    </span>
  );
}

export function SearchPanel({ caseId }: { caseId: string }) {
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<SearchMode>('text');
  const [wholeWord, setWholeWord] = useState(false);
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [results, setResults] = useState<Results | null>(null);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [layer, setLayer] = useState<string>('B6');
  const [state, setState] = useState<'pending' | 'accepted'>('accepted');
  const [busy, setBusy] = useState<'search' | 'more' | 'redact' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<SearchRedactResult | null>(null);
  const [redactKey, setRedactKey] = useState(newIdempotencyKey);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    if (!query.trim()) return;
    const asked: SearchQuery = { query, mode, whole_word: wholeWord, case_sensitive: caseSensitive };
    setBusy('search');
    setError(null);
    setDone(null);
    try {
      const page = await searchCase(caseId, asked, null);
      setResults({ query: asked, ...page });
      setExcluded(new Set());
      setRedactKey(newIdempotencyKey());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const more = async () => {
    if (!results?.cursor) return;
    setBusy('more');
    try {
      const page = await searchCase(caseId, results.query, results.cursor);
      setResults({ ...results, hits: [...results.hits, ...page.hits], cursor: page.cursor, total: page.total });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const redact = async () => {
    if (!results) return;
    setBusy('redact');
    setError(null);
    try {
      setDone(await redactSearchHits(caseId, results.query, { layer, state, exclude: [...excluded] }, redactKey));
      setRedactKey(newIdempotencyKey());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const toggle = (ref: string) =>
    setExcluded((previous) => {
      const next = new Set(previous);
      if (next.has(ref)) next.delete(ref);
      else next.add(ref);
      return next;
    });
  const chosen = results ? results.total - excluded.size : 0;

  return (
    <section className="panel search-panel" aria-labelledby="search-title">
      <h2 id="search-title">Search this case</h2>
      <form className="search-form" onSubmit={run}>
        <label className="field grow">
          <span>{mode === 'terms' ? 'Terms, one a line' : 'Search for'}</span>
          {mode === 'terms' ? (
            <textarea value={query} rows={4} onChange={(event) => setQuery(event.target.value)} />
          ) : (
            <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
          )}
        </label>
        <div className="row search-options">
          <label className="field">
            <span>Mode</span>
            <select value={mode} onChange={(event) => setMode(event.target.value as SearchMode)}>
              {MODES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field inline">
            <input type="checkbox" checked={wholeWord} onChange={(event) => setWholeWord(event.target.checked)} /> Whole words
          </label>
          <label className="field inline">
            <input type="checkbox" checked={caseSensitive} onChange={(event) => setCaseSensitive(event.target.checked)} /> Match case
          </label>
          <button type="submit" className="button primary" disabled={busy !== null || !query.trim()}>
            {busy === 'search' ? 'Searching…' : 'Search'}
          </button>
        </div>
      </form>
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
      {results && (
        <>
          <p className="search-summary" aria-live="polite">
            {results.total === 0 ? 'No hits in this case.' : `${results.total} ${results.total === 1 ? 'hit' : 'hits'} in this case; ${chosen} chosen for redaction.`}
          </p>
          <ol className="search-hits" aria-label="Search hits">
            {results.hits.map((hit) => (
              <li key={hit.ref} data-hit-ref={hit.ref}>
                <label className="search-hit">
                  <input type="checkbox" checked={!excluded.has(hit.ref)} onChange={() => toggle(hit.ref)} aria-label={`Redact ${hit.text} on page ${hit.page} of ${hit.file_name}`} />
                  <span className="search-hit-where">
                    <a href={`${routeHref({ name: 'document', documentId: hit.document_id, caseId })}&page=${hit.page}`}>{hit.file_name}</a> · page {hit.page}
                  </span>
                  <span className="search-hit-context">
                    <Context hit={hit} />
                  </span>
                </label>
              </li>
            ))}
          </ol>
          {results.cursor && (
            <button type="button" className="button small" onClick={() => void more()} disabled={busy !== null}>
              {busy === 'more' ? 'Loading…' : `Show more (${results.hits.length} of ${results.total})`}
            </button>
          )}
          {results.total > 0 && (
            <div className="row search-redact">
              <label className="field">
                <span>Layer</span>
                <select value={layer} onChange={(event) => setLayer(event.target.value)}>
                  {LAYERS.map((value) => (
                    <option key={value} value={value}>
                      {layerTitle(value)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>As</span>
                <select value={state} onChange={(event) => setState(event.target.value as 'pending' | 'accepted')}>
                  <option value="accepted">Redactions</option>
                  <option value="pending">Suggestions to review</option>
                </select>
              </label>
              <button type="button" className="button primary" onClick={() => void redact()} disabled={busy !== null || chosen === 0}>
                {busy === 'redact' ? 'Redacting…' : `Redact ${chosen} ${chosen === 1 ? 'hit' : 'hits'}`}
              </button>
            </div>
          )}
          {done && (
            <p className="banner" role="status">
              {done.created} {done.created === 1 ? 'redaction' : 'redactions'} added for {done.hits} {done.hits === 1 ? 'hit' : 'hits'} in {done.documents}{' '}
              {done.documents === 1 ? 'document' : 'documents'}
              {done.created === 0 && done.hits > 0 ? ' (they were already redacted)' : ''}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
