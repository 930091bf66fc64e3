import { useState, type FormEvent } from 'react';
import { addClockEvent, getCaseClock } from '../../api/cases.js';
import type { Case, ClockEventBody } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { useIdempotentAction } from '../../hooks/useIdempotentAction.js';
import { useLoad } from '../../hooks/useLoad.js';
import { clockSummary } from '../../domain/clock.js';
import { formatDay } from '../../domain/format.js';

const EVENT_LABELS = { toll: 'Paused', resume: 'Resumed', extend: 'Extended' } as const;

/** The request's statutory clock: where it stands, pause/resume with a reason, extensions, and its history. */
export function RequestClockPanel({ value, onChanged }: { value: Case; onChanged: () => void }) {
  const clock = value.clock;
  const history = useLoad((signal) => getCaseClock(value.id, signal), [value.id, value.updated_at, clock.due_date, clock.state]);
  const [form, setForm] = useState<'toll' | 'resume' | 'extend' | null>(null);
  const summary = clockSummary(value);
  const running = clock.state === 'running' || clock.state === 'tolled';

  return (
    <section className="panel clock-panel" aria-labelledby="clock-title">
      <h2 id="clock-title">Request clock</h2>
      {clock.state === 'none' ? (
        <p className="muted">No received date, so no statutory clock. Set “Request received” under Edit details.</p>
      ) : (
        <>
          <p className={`clock-status clock-${summary.tone}`} data-testid="clock-status">
            <strong>{summary.label}</strong> <span>{summary.detail}</span>
          </p>
          <dl className="facts compact">
            <div>
              <dt>Received</dt>
              <dd>{formatDay(clock.received_date)}</dd>
            </div>
            <div>
              <dt>Time limit</dt>
              <dd>
                {clock.time_limit_days} business days{clock.extension_days ? ` + ${clock.extension_days} extension` : ''}
              </dd>
            </div>
            <div>
              <dt>Due</dt>
              <dd>{clock.state === 'tolled' ? 'When resumed' : formatDay(clock.due_date)}</dd>
            </div>
            {(clock.tolled_days ?? 0) > 0 && (
              <div>
                <dt>Paused so far</dt>
                <dd>{clock.tolled_days} business days</dd>
              </div>
            )}
          </dl>
          {running && (
            <div className="actions" role="group" aria-label="Clock actions">
              {clock.state === 'running' ? (
                <button type="button" className="button" onClick={() => setForm('toll')} aria-expanded={form === 'toll'}>
                  Pause clock…
                </button>
              ) : (
                <button type="button" className="button" onClick={() => setForm('resume')} aria-expanded={form === 'resume'}>
                  Resume clock…
                </button>
              )}
              <button type="button" className="button" onClick={() => setForm('extend')} aria-expanded={form === 'extend'}>
                Extend…
              </button>
            </div>
          )}
          {form && <ClockEventForm kind={form} caseId={value.id} onDone={() => { setForm(null); onChanged(); }} onCancel={() => setForm(null)} />}
          {history.data && history.data.events.length > 0 && (
            <ol className="clock-history" aria-label="Clock history">
              {history.data.events.map((event) => (
                <li key={event.id}>
                  <strong>{EVENT_LABELS[event.kind]}</strong> {event.kind === 'extend' ? `by ${event.days} business days` : `on ${formatDay(event.on_date)}`}
                  {event.reason && <span className="muted"> — {event.reason}</span>}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function ClockEventForm({ kind, caseId, onDone, onCancel }: { kind: 'toll' | 'resume' | 'extend'; caseId: string; onDone: () => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const [onDate, setOnDate] = useState('');
  const [days, setDays] = useState(10);
  const action = useIdempotentAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: ClockEventBody =
      kind === 'extend'
        ? { kind, days, reason: reason.trim() }
        : kind === 'toll'
          ? { kind, reason: reason.trim(), ...(onDate && { on_date: onDate }) }
          : { kind, ...(reason.trim() && { reason: reason.trim() }), ...(onDate && { on_date: onDate }) };
    if (await action.run(body, (key) => addClockEvent(caseId, body, key))) onDone();
  };

  const title = kind === 'toll' ? 'Pause the clock' : kind === 'resume' ? 'Resume the clock' : 'Extend the time limit';
  return (
    <form className="form clock-form" onSubmit={submit} aria-label={title}>
      {kind === 'extend' ? (
        <label className="field">
          <span>Business days</span>
          <input type="number" min={1} max={250} value={days} onChange={(event) => setDays(Number(event.target.value))} required />
        </label>
      ) : (
        <label className="field">
          <span>{kind === 'toll' ? 'Paused from' : 'Resumed on'} (blank: today)</span>
          <input type="date" value={onDate} onChange={(event) => setOnDate(event.target.value)} />
        </label>
      )}
      <label className="field">
        <span>Reason{kind === 'resume' ? ' (optional)' : ''}</span>
        <input value={reason} onChange={(event) => setReason(event.target.value)} required={kind !== 'resume'} maxLength={1000} placeholder={kind === 'toll' ? 'e.g. Asked the requester to clarify' : ''} />
      </label>
      <ErrorBanner error={action.error} onDismiss={action.clearError} />
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={action.busy}>
          {action.busy ? 'Saving…' : title}
        </button>
      </div>
    </form>
  );
}
