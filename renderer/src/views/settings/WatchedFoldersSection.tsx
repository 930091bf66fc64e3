import { ApiError } from '../../api/errors.js';
import { listWatchedFolders } from '../../api/watched-folders.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { formatDateTime } from '../../domain/format.js';
import { useLoad } from '../../hooks/useLoad.js';

function targetText(target: { mode: string; case_id?: string }): string {
  if (target.mode === 'case') return `into case ${target.case_id ?? ''}`;
  if (target.mode === 'case_per_file') return 'a new case per file';
  return 'a case per sub-folder';
}

/** Watched folders (configured in config.json or through the API); listed here, managed in the next release. */
export function WatchedFoldersSection() {
  const folders = useLoad((signal) => listWatchedFolders(signal), []);
  const missing = folders.error instanceof ApiError && folders.error.status === 404;
  return (
    <SettingsSection titleId="folders-title" title="Watched folders">
      <p className="muted">Files dropped into a watched folder are added to cases and processed automatically. Folders are defined in config.json or through the integration API.</p>
      {missing ? <p className="placeholder">This server does not support watched folders yet.</p> : <ErrorBanner error={folders.error} onRetry={folders.reload} />}
      {folders.data && (
        <DataTable
          label="Watched folders"
          columns={['Folder', 'Files go', 'Patterns', 'Defined in', 'State', 'Changed']}
          rows={folders.data}
          empty="No watched folders."
          cells={(folder) => (
            <>
              <td>
                <strong>{folder.name}</strong>
                <div className="cell-sub">
                  <code>{folder.path}</code>
                </div>
              </td>
              <td>{targetText(folder.target)}</td>
              <td>{folder.patterns.join(' ')}</td>
              <td>{folder.origin === 'config' ? 'config.json' : 'API'}</td>
              <td>{folder.enabled ? 'Watching' : 'Paused'}</td>
              <td className="muted">{formatDateTime(folder.updated_at)}</td>
            </>
          )}
        />
      )}
    </SettingsSection>
  );
}
