import { listTemplates, type RedactionTemplate } from '../../api/templates.js';
import type { Document } from '../../api/types.js';
import { formatBytes, formatDateTime } from '../../domain/format.js';
import type { JobTracker } from '../../hooks/useJobTracker.js';
import { useLoad } from '../../hooks/useLoad.js';
import { JobControls } from './JobControls.js';

interface Props {
  documents: readonly Document[];
  loading: boolean;
  caseId: string;
  tracker: JobTracker;
  selected: string | null;
  onSelect: (documentId: string) => void;
}

export function DocumentsTable({ documents, loading, caseId, tracker, selected, onSelect }: Props) {
  // Templates are optional: without the permission or the route the detection button runs every kind.
  const templates = useLoad((signal) => listTemplates(signal).catch((): RedactionTemplate[] => []), []);
  return (
    <div className="table-wrap">
      <table className="grid documents" aria-label="Documents" aria-busy={loading}>
        <thead>
          <tr>
            <th>Document</th>
            <th>Type</th>
            <th className="num">Size</th>
            <th>Added</th>
            <th>Processing</th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr
              key={document.id}
              className={selected === document.id ? 'selected' : undefined}
              onClick={() => onSelect(document.id)}
              data-document-id={document.id}
            >
              <td>
                <a href={`#/documents/${document.id}?case=${caseId}`} className="row-link" onFocus={() => onSelect(document.id)}>
                  {document.fileName}
                </a>
                {document.description && <div className="cell-sub">{document.description}</div>}
              </td>
              <td className="upper">{document.document_type}</td>
              <td className="num">{formatBytes(document.size)}</td>
              <td className="muted">{formatDateTime(document.created_at)}</td>
              <td>
                <JobControls document={document} tracker={tracker} templates={templates.data ?? []} />
              </td>
            </tr>
          ))}
          {!loading && documents.length === 0 && (
            <tr>
              <td colSpan={5} className="empty">
                No documents yet. Drop files above to add them to this case.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
