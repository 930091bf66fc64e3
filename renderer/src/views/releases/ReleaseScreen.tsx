import { useRef, useState, type FormEvent } from 'react';
import { getCase, getCasePermissions, listCaseDocuments } from '../../api/cases.js';
import { exportDownloadUrl, getExport, type Export } from '../../api/exports.js';
import { request, type Page } from '../../api/http.js';
import { AttemptKeys } from '../../api/idempotency.js';
import { blocksOf, getReleaseCheck, getReleaseDetails, listWithholdings, previewIndex, reapprove, saveReleaseDetails, startRelease } from '../../api/releases.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { useLoad } from '../../hooks/useLoad.js';
import { ConfirmAction } from '../case/CaseHeader.js';
import { SafeguardChecklist } from './SafeguardChecklist.js';
import { WithholdingsPanel } from './WithholdingsPanel.js';

type Position = 'bottom_left' | 'bottom_center' | 'bottom_right';

async function loadAll(caseId: string, signal: AbortSignal) {
  const [value, details, check, withholdings, documents, index, exemptions, permissions] = await Promise.all([
    getCase(caseId, signal),
    getReleaseDetails(caseId, signal),
    getReleaseCheck(caseId, signal),
    listWithholdings(caseId, signal),
    listCaseDocuments(caseId, signal),
    previewIndex(caseId, signal),
    request<Page<{ code: string }>>('/api/v1/exemptions', { query: { limit: 100 }, signal }),
    getCasePermissions(caseId, signal),
  ]);
  return { value, details, check, withholdings, documents, index, permissions, codes: exemptions.data.map((entry) => entry.code) };
}

/** The requester's release of a case: details, safeguards, withheld pages, stamps, the index, then the package. */
export function ReleaseScreen({ caseId }: { caseId: string }) {
  const loaded = useLoad((signal) => loadAll(caseId, signal), [caseId]);
  const [audience, setAudience] = useState<'release' | 'internal'>('release');
  const [stamps, setStamps] = useState(true);
  const [prefix, setPrefix] = useState('');
  const [position, setPosition] = useState<Position>('bottom_right');
  const [coverLetter, setCoverLetter] = useState(true);
  const [combined, setCombined] = useState(false);
  const [perRange, setPerRange] = useState(false);
  const [override, setOverride] = useState('');
  const [requestNumber, setRequestNumber] = useState<string | null>(null);
  const [title, setTitle] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [current, setCurrent] = useState<Export | null>(null);
  // A key per attempt: a refused build and the "Release anyway" that follows are two attempts (api/idempotency.ts).
  const attempts = useRef(new AttemptKeys());
  // Re-approval asks first, with an optional note: the case header's dialog.
  const [reapproving, setReapproving] = useState(false);
  const [reapproveError, setReapproveError] = useState<unknown>(null);

  if (loaded.error) return <ErrorBanner error={loaded.error} onRetry={loaded.reload} />;
  if (!loaded.data) return <div aria-busy="true">Loading the release…</div>;
  const { value, details, check, withholdings, documents, index, codes, permissions } = loaded.data;
  const names = new Map(documents.map((document) => [document.id, document.fileName]));
  const shownNumber = requestNumber ?? details.request_number ?? '';
  const shownTitle = title ?? details.requester_title ?? '';
  const refusedBlocks = blocksOf(error);

  const saveDetails = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const body = { request_number: shownNumber.trim() || null, requester_title: shownTitle.trim() || null };
      await attempts.current.send('details', body, (key) => saveReleaseDetails(caseId, body, key));
      loaded.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  const watch = async (started: Export) => {
    let latest = started;
    while (latest.status === 'pending' || latest.status === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, 500));
      latest = await getExport(latest.id);
      setCurrent(latest);
    }
  };

  const start = async (withOverride: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const options =
        audience === 'internal'
          ? { audience }
          : { audience, cover_letter: coverLetter, combined, placeholders: perRange ? 'per_range' : 'per_page', ...(stamps && { stamps: { prefix, position } }) };
      const body = { case_id: caseId, format: 'zip' as const, options, ...(withOverride && { override: { reason: override } }) };
      const started = await attempts.current.send('release', body, (key) => startRelease(body, key));
      setCurrent(started);
      await watch(started);
    } catch (failure) {
      setError(failure);
      loaded.reload();
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    if (!current) return;
    const { url } = await exportDownloadUrl(current.id);
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = current.file?.name ?? 'release.zip';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  };

  return (
    <div className="page release-screen">
      <p>
        <a href={`#/cases/${caseId}`}>← Back to the case</a>
      </p>
      <h1>Release of case {value.id}</h1>
      <p className="muted">The requester never sees the internal case name, its description, comments, notes or reviewers.</p>

      <section className="panel" aria-labelledby="requester-title">
        <h2 id="requester-title">For the requester</h2>
        <form className="form" onSubmit={saveDetails}>
          <div className="row">
          <label className="field">
            <span>Request number</span>
            <input value={shownNumber} onChange={(event) => setRequestNumber(event.target.value)} placeholder="e.g. FOIA-2026-0142" />
          </label>
          <label className="field">
            <span>Title the requester sees</span>
            <input value={shownTitle} onChange={(event) => setTitle(event.target.value)} placeholder="e.g. Parks budget records, 2024" />
          </label>
          </div>
          <div className="actions">
            <button type="submit" className="button">
              Save details
            </button>
          </div>
        </form>
      </section>

      <section className="panel" aria-labelledby="safeguards-title">
        <h2 id="safeguards-title">Safeguards {check.ready ? '— ready to release' : '— blocked'}</h2>
        <SafeguardChecklist
          caseId={caseId}
          check={check}
          names={names}
          reapproval={permissions.actions.reapprove}
          busy={busy}
          onReapprove={() => {
            setReapproveError(null);
            setReapproving(true);
          }}
        />
        {reapproving && (
          <ConfirmAction
            kind="reapprove"
            approval={permissions.approval}
            names={names}
            busy={busy}
            error={reapproveError}
            onCancel={() => setReapproving(false)}
            onConfirm={async (note) => {
              setBusy(true);
              try {
                await attempts.current.send('reapprove', { note }, (key) => reapprove(caseId, key, note));
                setReapproving(false);
                loaded.reload();
              } catch (failure) {
                setReapproveError(failure);
              } finally {
                setBusy(false);
              }
            }}
          />
        )}
      </section>

      <WithholdingsPanel caseId={caseId} documents={documents} withholdings={withholdings} exemptionCodes={codes} onChanged={loaded.reload} />

      <section className="panel" aria-labelledby="index-title">
        <h2 id="index-title">Withholding index (preview)</h2>
        <table className="table" aria-label="Withholding index preview">
          <thead>
            <tr>
              <th>Page</th>
              <th>Document</th>
              <th>Exemption</th>
              <th>Category</th>
              <th>Withheld</th>
              <th>Count</th>
            </tr>
          </thead>
          <tbody>
            {index.length === 0 && (
              <tr>
                <td colSpan={6}>Nothing is withheld yet.</td>
              </tr>
            )}
            {index.map((row, position) => (
              <tr key={position}>
                <td>{row.reference}</td>
                <td>{row.document}</td>
                <td>{row.exemptions}</td>
                <td>{row.category}</td>
                <td>{row.withheld}</td>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">In the release, each row cites the page stamps instead of document pages.</p>
      </section>

      <section className="panel" aria-labelledby="package-title">
        <h2 id="package-title">Package</h2>
        <fieldset className="audience">
          <legend>Audience</legend>
          <label className="check">
            <input type="radio" name="audience" checked={audience === 'release'} onChange={() => setAudience('release')} />
            <span>Release to the requester (redacted PDFs, index, cover letter)</span>
          </label>
          <label className="check">
            <input type="radio" name="audience" checked={audience === 'internal'} onChange={() => setAudience('internal')} />
            <span>Internal record (case record and redaction log; never for the requester)</span>
          </label>
        </fieldset>
        {audience === 'release' && (
          <div className="row">
            <label className="check">
              <input type="checkbox" checked={stamps} onChange={(event) => setStamps(event.target.checked)} />
              <span>Page stamps</span>
            </label>
            <label className="field">
              <span>Stamp prefix</span>
              <input value={prefix} onChange={(event) => setPrefix(event.target.value)} disabled={!stamps} maxLength={20} />
            </label>
            <label className="field">
              <span>Stamp position</span>
              <select value={position} onChange={(event) => setPosition(event.target.value as Position)} disabled={!stamps}>
                <option value="bottom_left">Bottom left</option>
                <option value="bottom_center">Bottom centre</option>
                <option value="bottom_right">Bottom right</option>
              </select>
            </label>
            <label className="check">
              <input type="checkbox" checked={coverLetter} onChange={(event) => setCoverLetter(event.target.checked)} />
              <span>Cover letter</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={combined} onChange={(event) => setCombined(event.target.checked)} />
              <span>One combined PDF</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={perRange} onChange={(event) => setPerRange(event.target.checked)} />
              <span>One placeholder per withheld range</span>
            </label>
          </div>
        )}
        <div className="actions">
          <button type="button" className="button primary" disabled={busy} onClick={() => start(false)}>
            {audience === 'release' ? 'Build the release' : 'Build the internal record'}
          </button>
        </div>
        {refusedBlocks && (
          <div className="banner banner-error" role="alert" data-testid="release-refused">
            <span className="banner-text">The release is blocked: {refusedBlocks.map((block) => block.message).join('; ')}</span>
            <label className="field">
              <span>Reason to release anyway (needs the override permission; recorded in the audit trail)</span>
              <textarea value={override} onChange={(event) => setOverride(event.target.value)} rows={2} />
            </label>
            <button type="button" className="button" disabled={busy || override.trim().length < 10} onClick={() => start(true)}>
              Release anyway
            </button>
          </div>
        )}
        {!refusedBlocks && <ErrorBanner error={error} />}
        {current && (
          <div className="release-status" data-testid="release-status" data-status={current.status}>
            <span>
              {current.status === 'completed' ? `Release ${current.release_number ?? ''} is ready` : current.status === 'failed' ? `Failed: ${current.error_message ?? ''}` : `Building… ${Math.round(current.progress * 100)}%`}
            </span>
            {current.status === 'completed' && (
              <button type="button" className="button" onClick={() => void download()}>
                Download {current.file?.name}
              </button>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
