import { useState, type FormEvent } from 'react';

// Whole pages withheld at once: one full-page box per page of the range, on the chosen layer (saved with the
// other unsaved boxes).

interface Props {
  pageCount: number;
  current: number;
  busy: boolean;
  onRedact: (from: number, to: number) => void;
}

export function PageRangeForm({ pageCount, current, busy, onRedact }: Props) {
  const [from, setFrom] = useState(String(current));
  const [to, setTo] = useState(String(current));
  const first = Number(from);
  const last = Number(to);
  const valid = Number.isInteger(first) && Number.isInteger(last) && first >= 1 && last >= first && last <= pageCount;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onRedact(first, last);
  };

  return (
    <form className="page-range" onSubmit={submit} aria-label="Redact whole pages">
      <h3>Whole pages</h3>
      <div className="row">
        <label className="field">
          <span>From page</span>
          <input inputMode="numeric" size={4} value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label className="field">
          <span>To page</span>
          <input inputMode="numeric" size={4} value={to} onChange={(event) => setTo(event.target.value)} />
        </label>
        <button type="submit" className="button small" disabled={!valid || busy}>
          {valid && last > first ? `Redact pages ${first}–${last}` : 'Redact page'}
        </button>
      </div>
      {!valid && <p className="muted">Pages 1 to {pageCount}, the first no later than the last.</p>}
    </form>
  );
}
