import type { ProcessingEntry } from '../../api/processing.js';
import { listTemplates, type RedactionTemplate } from '../../api/templates.js';
import type { Document } from '../../api/types.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { formatBytes, formatDateTime } from '../../domain/format.js';
import { entryLabel, isRunning } from '../../domain/processing.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import type { JobTracker } from '../../hooks/useJobTracker.js';
import { useLoad } from '../../hooks/useLoad.js';
import { JobControls } from './JobControls.js';

const COLUMNS: readonly Column[] = ['Document', 'Type', { header: 'Size', className: 'num' }, 'Added', 'Processing'];

interface Props {
  documents: readonly Document[];
  loading: boolean;
  caseId: string;
  tracker: JobTracker;
  selected: string | null;
  onSelect: (documentId: string) => void;
  /** Automatic processing per document id (GET …/processing). */
  automatic?: ReadonlyMap<string, ProcessingEntry>;
  /** The server lets this user start processing. */
  canProcess?: boolean;
}

export function DocumentsTable({ documents, loading, caseId, tracker, selected, onSelect, automatic, canProcess = true }: Props) {
  // Templates are optional: without the permission or the route the detection button runs every kind.
  const templates = useLoad((signal) => listTemplates(signal).catch((): RedactionTemplate[] => []), []);
  return (
    <DataTable
      label="Documents"
      className="documents"
      busy={loading}
      columns={COLUMNS}
      rows={documents}
      // Rows stay in place while a reload runs; only the empty message waits for it.
      empty={loading ? undefined : 'No documents yet. Drop files above to add them to this case.'}
      rowProps={(document) => ({
        className: selected === document.id ? 'selected' : undefined,
        onClick: () => onSelect(document.id),
        'data-document-id': document.id,
      })}
      cells={(document) => (
        <>
          <td>
            <a href={`#/documents/${document.id}?case=${caseId}`} className="row-link" onFocus={() => onSelect(document.id)}>
              {document.fileName}
            </a>
            {document.description && <div className="cell-sub">{document.description}</div>}
          </td>
          {/* What it came in as: an e-mail stays "email" once converted to PDF. */}
          <td className="upper">{document.document_type === 'pdf' && document.source_type !== 'pdf' ? document.source_type : document.document_type}</td>
          <td className="num">{formatBytes(document.size)}</td>
          <td className="muted">{formatDateTime(document.created_at)}</td>
          <td>
            <JobControls document={document} tracker={tracker} templates={templates.data ?? []} canStart={canProcess} />
            <AutomaticState entry={automatic?.get(document.id)} />
          </td>
        </>
      )}
    />
  );
}

/** A document's automatic processing in its row: the running step with its progress, done, or why it failed. */
function AutomaticState({ entry }: { entry: ProcessingEntry | undefined }) {
  if (!entry || entry.state === 'not_started') return null;
  const tone = entry.state === 'failed' || entry.state === 'needs_password' ? 'failed' : entry.state === 'done' ? 'completed' : 'running';
  return (
    <div className={`auto-state ${tone}`} data-auto-state={entry.state} title={entry.error ?? undefined}>
      <span>{entry.state === 'needs_password' ? 'Needs its password' : `Automatic: ${entryLabel(entry)}`}</span>
      {isRunning(entry) && <ProgressBar value={entry.job?.status === 'running' ? entry.job.progress : null} label={`Automatic ${entry.state} progress`} />}
    </div>
  );
}
