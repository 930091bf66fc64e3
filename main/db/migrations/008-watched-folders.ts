// Watched folders: a folder's settings, and one row per file taken from it recording every step of its way
// (seen, stored, document, pipeline jobs, output, disposal), each step committed before the next starts, so
// a process killed at any point resumes every file exactly where it stopped.
export const watchedFolders = `
CREATE TABLE watched_folders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('api', 'config')),
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  settings TEXT NOT NULL,
  watch_state TEXT NOT NULL DEFAULT 'stopped' CHECK (watch_state IN ('watching', 'starting', 'unavailable', 'stopped')),
  watch_error TEXT,
  last_scan_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
) STRICT;
-- Two live folders on one path would take each file twice.
CREATE UNIQUE INDEX watched_folders_live_path ON watched_folders(path) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX watched_folders_live_config_name ON watched_folders(name) WHERE deleted_at IS NULL AND origin = 'config';
CREATE INDEX watched_folders_organization ON watched_folders(organization_id, id);

CREATE TABLE watched_files (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  folder_id INTEGER NOT NULL REFERENCES watched_folders(id),
  relative_path TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'storing', 'processing', 'disposing', 'done', 'failing', 'failed', 'vanished')),
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  sha256 TEXT,
  case_id INTEGER REFERENCES cases(id),
  document_id INTEGER REFERENCES documents(id),
  duplicate_of INTEGER REFERENCES watched_files(id),
  pipeline TEXT,
  steps TEXT NOT NULL DEFAULT '[]',
  output_path TEXT,
  output_written_at TEXT,
  disposition TEXT NOT NULL CHECK (disposition IN ('move', 'leave', 'delete')),
  disposed_path TEXT,
  source_kept INTEGER NOT NULL DEFAULT 0 CHECK (source_kept IN (0, 1)),
  error_step TEXT,
  error_message TEXT,
  seen_at TEXT NOT NULL,
  stored_at TEXT,
  finished_at TEXT,
  updated_at TEXT NOT NULL
) STRICT;
-- At most one file in flight per path: a second sighting of a file being processed can never start it again.
CREATE UNIQUE INDEX watched_files_one_active ON watched_files(folder_id, relative_path)
  WHERE state NOT IN ('done', 'failed', 'vanished');
CREATE INDEX watched_files_path ON watched_files(folder_id, relative_path, id);
CREATE INDEX watched_files_state ON watched_files(folder_id, state, id);
CREATE INDEX watched_files_content ON watched_files(folder_id, sha256) WHERE sha256 IS NOT NULL;
CREATE INDEX watched_files_folder ON watched_files(folder_id, id);
CREATE INDEX watched_files_output ON watched_files(output_path) WHERE output_path IS NOT NULL;

-- The case made for each sub-folder (target case_per_subfolder), so later files of it join the same case.
CREATE TABLE watched_folder_cases (
  folder_id INTEGER NOT NULL REFERENCES watched_folders(id),
  subfolder TEXT NOT NULL,
  case_id INTEGER NOT NULL REFERENCES cases(id),
  PRIMARY KEY (folder_id, subfolder)
) STRICT;
`;
