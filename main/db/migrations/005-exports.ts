// Export requests of a case and their outcome. The queue is this table: the export runner takes pending rows
// oldest first, and a row left `processing` by a dead process is found again at the next start. The finished
// file is a blob (content-addressed store), so a row points at bytes that are complete and verified.
export const exportRequests = `
CREATE TABLE exports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  format TEXT NOT NULL CHECK (format IN ('pdf', 'csv', 'json', 'zip')),
  filters TEXT NOT NULL DEFAULT '{}',
  options TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled')),
  progress REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  error_message TEXT,
  result_sha256 TEXT REFERENCES blobs(sha256),
  result_size INTEGER,
  result_media_type TEXT,
  result_file_name TEXT,
  summary TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT
) STRICT;
CREATE INDEX exports_organization ON exports(organization_id, id);
-- The runner takes the oldest pending export; recovery finds processing ones.
CREATE INDEX exports_status ON exports(status, id);
`;
