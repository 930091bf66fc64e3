import { useEffect, useState, type FormEvent } from 'react';
import { cancelExport, createExport, exportDownloadUrl, getExport, recentExports, retryExport, type Export, type ExportFormat } from '../../api/exports.js';
import { newIdempotencyKey } from '../../api/http.js';
import type { Case, Document, Layer } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { Modal } from '../../components/Modal.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { documentName, formatBytes, formatDateTime, formatStatus } from '../../domain/format.js';
import { useLoad } from '../../hooks/useLoad.js';
import { LAYERS, LAYER_INFO } from '../viewer/layers.js';

const FORMATS: { id: ExportFormat; label: string; description: string }[] = [
  { id: 'pdf', label: 'PDF', description: 'One redacted PDF of all selected documents' },
  { id: 'zip', label: 'ZIP', description: 'Each document redacted as its own file, in one archive' },
  { id: 'csv', label: 'CSV', description: 'A redaction log: one row per redaction' },
  { id: 'json', label: 'JSON', description: 'The redaction log as structured data' },
];

const POLL_MS = 1000;

interface Props {
  value: Case;
  documents: readonly Document[];
  onClose: () => void;
}

/** Export a case: choose format and filters, watch the progress, then save the file. */
export function ExportDialog({ value, documents, onClose }: Props) {
  const [format, setFormat] = useState<ExportFormat>('pdf');
  const [documentIds, setDocumentIds] = useState<string[]>(documents.map((document) => document.id));
  const [selectionTouched, setSelectionTouched] = useState(false);
  // The case's document list may arrive or refresh after the dialog opens: until the user picks documents
  // themselves, the selection follows the list (every document).
  useEffect(() => {
    if (!selectionTouched) setDocumentIds(documents.map((document) => document.id));
  }, [documents, selectionTouched]);
  const chooseDocuments = (ids: string[]) => {
    setSelectionTouched(true);
    setDocumentIds(ids);
  };
  const [layers, setLayers] = useState<Layer[]>([...LAYERS]);
  const [includePending, setIncludePending] = useState(false);
  const [coverSheet, setCoverSheet] = useState(false);
  const [labels, setLabels] = useState(true);
  // Some offices' policy is to release redacted pages as pictures only; the default keeps born-digital pages as text.
  const [flatten, setFlatten] = useState(false);
  const [current, setCurrent] = useState<Export | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);
  const history = useLoad(async (signal) => (await recentExports(signal)).filter((item) => item.case_id === value.id).slice(0, 5), [value.id]);

  // Live progress until the export settles.
  const running = current !== null && (current.status === 'pending' || current.status === 'processing');
  useEffect(() => {
    if (!running || !current) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      getExport(current.id, controller.signal).then(
        (fresh) => !controller.signal.aborted && setCurrent(fresh),
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [running, current?.id]);

  const burnsIn = format === 'pdf' || format === 'zip';
  const allDocuments = documentIds.length === documents.length;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createExport(
        {
          case_id: value.id,
          format,
          filters: {
            ...(!allDocuments && { document_ids: documentIds }),
            ...(layers.length < LAYERS.length && { layers }),
            include_pending: includePending,
          },
          ...(burnsIn && { options: { labels, ...(flatten && { method: 'raster' as const }), ...(format === 'pdf' && { cover_sheet: coverSheet }) } }),
        },
        key,
      );
      setCurrent(created);
      setKey(newIdempotencyKey());
      history.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const download = async (item: Export) => {
    setError(null);
    try {
      const { url } = await exportDownloadUrl(item.id);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = item.file?.name ?? `case-${value.id}-export.${item.format}`;
      anchor.rel = 'noopener';
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
    } catch (failure) {
      setError(failure);
    }
  };

  const change = async (action: 'cancel' | 'retry') => {
    if (!current) return;
    setError(null);
    try {
      setCurrent(await (action === 'cancel' ? cancelExport(current.id, newIdempotencyKey()) : retryExport(current.id, newIdempotencyKey())));
    } catch (failure) {
      setError(failure);
    }
  };

  const names = new Map(documents.map((document) => [document.id, document.fileName]));
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((entry) => entry !== item));
  const canSubmit = documentIds.length > 0 && layers.length > 0 && !busy && !running;

  return (
    <Modal
      title={`Export “${value.name}”`}
      onClose={onClose}
      wide
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" form="export-form" className="button primary" disabled={!canSubmit}>
            {busy ? 'Starting…' : current ? 'Start another export' : 'Start export'}
          </button>
        </>
      }
    >
      <form id="export-form" className="form export-form" onSubmit={submit}>
        <fieldset>
          <legend>Format</legend>
          <div className="choice-grid">
            {FORMATS.map((entry) => (
              <label key={entry.id} className={format === entry.id ? 'choice selected' : 'choice'}>
                <input type="radio" name="format" value={entry.id} checked={format === entry.id} onChange={() => setFormat(entry.id)} />
                <span className="choice-label">{entry.label}</span>
                <span className="choice-description">{entry.description}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="row top">
          <fieldset className="grow">
            <legend>Documents ({documentIds.length} of {documents.length})</legend>
            <label className="check">
              <input type="checkbox" checked={allDocuments} onChange={(event) => chooseDocuments(event.target.checked ? documents.map((document) => document.id) : [])} />
              All documents
            </label>
            <div className="check-list">
              {documents.map((document) => (
                <label key={document.id} className="check">
                  <input type="checkbox" checked={documentIds.includes(document.id)} onChange={(event) => chooseDocuments(toggle(documentIds, document.id, event.target.checked))} />
                  {/* The whole name, wrapped where it must: never cut. */}
                  <span className="file-name" title={document.fileName}>
                    {document.fileName}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Exemptions applied</legend>
            {LAYERS.map((layer) => (
              <label key={layer} className="check">
                <input type="checkbox" checked={layers.includes(layer)} onChange={(event) => setLayers(toggle(layers, layer, event.target.checked))} />
                {layer} {LAYER_INFO[layer].exemption} {LAYER_INFO[layer].label}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Options</legend>
            <label className="check">
              <input type="checkbox" checked={includePending} onChange={(event) => setIncludePending(event.target.checked)} />
              Also apply suggestions not yet reviewed
            </label>
            <label className="check">
              <input type="checkbox" checked={labels} disabled={!burnsIn} onChange={(event) => setLabels(event.target.checked)} />
              Print the exemption code in each box
            </label>
            <label className="check">
              <input type="checkbox" checked={flatten} disabled={!burnsIn} onChange={(event) => setFlatten(event.target.checked)} />
              Flatten redacted pages into images (slower, larger files)
            </label>
            <label className="check">
              <input type="checkbox" checked={coverSheet} disabled={format !== 'pdf'} onChange={(event) => setCoverSheet(event.target.checked)} />
              Cover sheet with counts per exemption (PDF)
            </label>
          </fieldset>
        </div>
      </form>
      <ErrorBanner error={error} onDismiss={() => setError(null)} />
      {current && <ExportStatus item={current} names={names} onDownload={() => void download(current)} onCancel={() => void change('cancel')} onRetry={() => void change('retry')} />}
      {history.data && history.data.some((item) => item.id !== current?.id) && (
        <section className="export-history" aria-label="Earlier exports of this case">
          <h3>Earlier exports</h3>
          <table className="grid compact">
            <tbody>
              {history.data
                .filter((item) => item.id !== current?.id)
                .map((item) => (
                  <tr key={item.id}>
                    <td className="upper">{item.format}</td>
                    <td>{formatStatus(item.status)}</td>
                    <td className="muted">{formatDateTime(item.created_at)}</td>
                    <td>{item.file ? formatBytes(item.file.size) : ''}</td>
                    <td>
                      {item.status === 'completed' && (
                        <button type="button" className="button tiny" onClick={() => void download(item)}>
                          Download
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      )}
    </Modal>
  );
}

function ExportStatus({ item, names, onDownload, onCancel, onRetry }: { item: Export; names: ReadonlyMap<string, string>; onDownload: () => void; onCancel: () => void; onRetry: () => void }) {
  const running = item.status === 'pending' || item.status === 'processing';
  return (
    <section className="export-status" aria-live="polite" data-testid="export-status" data-status={item.status}>
      <div className="export-status-row">
        <strong>
          {item.format.toUpperCase()} export: {item.status === 'pending' ? 'waiting to start' : formatStatus(item.status).toLowerCase()}
        </strong>
        {running && <ProgressBar value={item.status === 'pending' ? null : item.progress} label="Export progress" />}
        {running && (
          <button type="button" className="button small ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
        {item.status === 'failed' && (
          <button type="button" className="button small" onClick={onRetry}>
            Try again
          </button>
        )}
        {item.status === 'completed' && (
          <button type="button" className="button primary small" onClick={onDownload}>
            Download {item.file ? `(${formatBytes(item.file.size)})` : ''}
          </button>
        )}
      </div>
      {item.status === 'failed' && item.error_message && <p className="error-text">{item.error_message}</p>}
      {item.summary && (
        <p className="muted">
          {item.summary.documents} document{item.summary.documents === 1 ? '' : 's'}, {item.summary.pages} page{item.summary.pages === 1 ? '' : 's'},{' '}
          {item.summary.redactions} redaction{item.summary.redactions === 1 ? '' : 's'} applied
          {Object.keys(item.summary.by_exemption).length > 0 &&
            ` (${Object.entries(item.summary.by_exemption)
              .map(([code, count]) => `${code}: ${count}`)
              .join(', ')})`}
          {item.summary.skipped_documents.length > 0 && `; skipped: ${item.summary.skipped_documents.map((skipped) => `${skipped.file_name} (${skipped.reason})`).join(', ')}`}
        </p>
      )}
      {(item.summary?.burn?.grown?.length ?? 0) > 0 && (
        // Black drawn beyond a marked box covers whole letters the box cut: said per redaction.
        <ul className="muted grown-boxes" aria-label="Boxes grown to cover whole glyphs">
          {item.summary?.burn?.grown?.map((grown) => (
            <li key={`${grown.document_id}-${grown.page}-${grown.redaction_id}`}>
              {documentName(grown.document_id, names)}, page {grown.page}: box grown by {grown.growth_pt.toFixed(1)} pt to cover whole glyphs
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
