import { useState, type FormEvent } from 'react';
import { getClockSettings, updateClockSettings } from '../../api/cases.js';
import { getLetterSettings, saveLetterSettings } from '../../api/releases.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useCan } from '../../session.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The office's statutory time limit and holidays, and the cover letter's letterhead and appeal-rights text. */
export function OfficeSection() {
  const canWrite = useCan('roles:write');
  const canReadLetters = useCan('exports:read');
  const clock = useLoad((signal) => getClockSettings(signal), []);
  const letters = useLoad((signal) => (canReadLetters ? getLetterSettings(signal) : Promise.resolve(null)), [canReadLetters]);
  const action = useAction();
  const [limit, setLimit] = useState<string | null>(null);
  const [holidays, setHolidays] = useState<string | null>(null);
  const [letterhead, setLetterhead] = useState<string | null>(null);
  const [appeal, setAppeal] = useState<string | null>(null);
  const [saved, setSaved] = useState('');

  const shownLimit = limit ?? String(clock.data?.time_limit_days ?? '');
  const shownHolidays = holidays ?? (clock.data?.holidays ?? []).join('\n');
  const days = shownHolidays.split(/[\s,]+/).filter(Boolean);
  const badDays = days.filter((day) => !DAY.test(day));

  const saveClock = async (event: FormEvent) => {
    event.preventDefault();
    const body = { time_limit_days: Number(shownLimit), holidays: days };
    const next = await action.run('clock', (key) => updateClockSettings(body, key), body);
    if (next) {
      clock.setData(next);
      setLimit(null);
      setHolidays(null);
      setSaved('Time limit and holidays saved; due dates were recomputed.');
    }
  };

  const saveLetters = async (event: FormEvent) => {
    event.preventDefault();
    const body = { letterhead: (letterhead ?? letters.data?.letterhead ?? '').trim() || null, appeal_rights: (appeal ?? letters.data?.appeal_rights ?? '').trim() || null };
    const next = await action.run('letters', (key) => saveLetterSettings(body, key), body);
    if (next) {
      letters.setData(next);
      setLetterhead(null);
      setAppeal(null);
      setSaved('Cover letter wording saved.');
    }
  };

  return (
    <SettingsSection titleId="office-title" title="Request clock & letters" loadError={clock.error ?? letters.error} onRetry={() => { clock.reload(); letters.reload(); }} action={action}>
      {!canWrite && <p className="muted">Only an administrator changes these settings.</p>}
      <form className="form" onSubmit={saveClock} aria-label="Request clock">
        <h3>Statutory time limit</h3>
        <label className="field">
          <span>Business days to answer a request</span>
          <input type="number" min={1} max={250} value={shownLimit} onChange={(event) => setLimit(event.target.value)} disabled={!canWrite} required />
        </label>
        <label className="field">
          <span>Office holidays (one date per line, YYYY-MM-DD)</span>
          <textarea rows={5} value={shownHolidays} onChange={(event) => setHolidays(event.target.value)} disabled={!canWrite} aria-invalid={badDays.length > 0} />
        </label>
        {badDays.length > 0 && <p className="field-error">Not a date: {badDays.join(', ')}. Write each as YYYY-MM-DD.</p>}
        {canWrite && (
          <div className="actions">
            <button type="submit" className="button primary" disabled={action.busy !== null || badDays.length > 0}>
              Save time limit and holidays
            </button>
          </div>
        )}
      </form>
      {letters.data && (
        <form className="form" onSubmit={saveLetters} aria-label="Cover letter">
          <h3>Cover letter</h3>
          <label className="field">
            <span>Letterhead (office name and address, up to 6 lines)</span>
            <textarea rows={4} value={letterhead ?? letters.data.letterhead ?? ''} onChange={(event) => setLetterhead(event.target.value)} disabled={!canWrite} />
          </label>
          <label className="field">
            <span>Appeal rights (printed at the end of every cover letter)</span>
            <textarea rows={5} value={appeal ?? letters.data.appeal_rights ?? ''} onChange={(event) => setAppeal(event.target.value)} disabled={!canWrite} />
          </label>
          {canWrite && (
            <div className="actions">
              <button type="submit" className="button primary" disabled={action.busy !== null}>
                Save cover letter wording
              </button>
            </div>
          )}
        </form>
      )}
      {saved && (
        <p role="status" className="muted">
          {saved}
        </p>
      )}
    </SettingsSection>
  );
}
