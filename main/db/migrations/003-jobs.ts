// The durable processing queue: one row per job, written only by the main process (the scheduler and the
// services), read by the API. Workers never see the database.
export const jobs = `
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  kind TEXT NOT NULL CHECK (kind IN ('scan', 'ocr', 'detection', 'transcription', 'summary')),
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  options TEXT NOT NULL DEFAULT '{}',
  progress REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  result TEXT,
  error_message TEXT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  updated_at TEXT NOT NULL
) STRICT;
-- The scheduler takes the oldest queued job; recovery finds running ones.
CREATE INDEX jobs_status ON jobs(status, id);
CREATE INDEX jobs_document ON jobs(document_id, id);
`;
