// Password-protected PDFs (issue 18): a document whose file does not open without a password waits in
// 'needs_password'; once one is supplied the document points at a decrypted working copy ('decrypted') and
// original_sha256 keeps the encrypted upload as the source of record. The password itself is never stored.
export const documentPasswords = `
ALTER TABLE documents ADD COLUMN password_state TEXT CHECK (password_state IS NULL OR password_state IN ('needs_password', 'decrypted'));
ALTER TABLE documents ADD COLUMN original_sha256 TEXT REFERENCES blobs(sha256);
`;

// Automatic processing (issue 18): an organization setting (on by default) and, per document, where its
// scan → OCR → detection chain stands; the job scheduler's outcomes move it on.
export const autoProcessing = `
ALTER TABLE organizations ADD COLUMN auto_process INTEGER NOT NULL DEFAULT 1 CHECK (auto_process IN (0, 1));
CREATE TABLE auto_processing (
  document_id INTEGER PRIMARY KEY REFERENCES documents(id),
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  step TEXT NOT NULL CHECK (step IN ('waiting', 'scan', 'ocr', 'detection', 'done', 'failed')),
  job_id INTEGER REFERENCES jobs(id),
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX auto_processing_case ON auto_processing (case_id);
CREATE INDEX auto_processing_job ON auto_processing (job_id);
`;

// Migration 12's triggers queue pages with INSERT OR IGNORE, but inside an upsert (a page OCR'd again while
// still queued) SQLite applies the outer statement's conflict policy and the insert fails; NOT EXISTS does not.
const staleTrigger = (name: string, event: string, row: 'new' | 'old') => `
DROP TRIGGER ${name};
CREATE TRIGGER ${name} AFTER ${event} ON document_pages BEGIN
  INSERT INTO search_stale (document_id, page_number) SELECT ${row}.document_id, ${row}.page_number
  WHERE NOT EXISTS (SELECT 1 FROM search_stale WHERE document_id = ${row}.document_id AND page_number = ${row}.page_number);
END;`;
export const searchStaleTriggers = [
  staleTrigger('document_pages_search_insert', 'INSERT', 'new'),
  staleTrigger('document_pages_search_update', 'UPDATE', 'new'),
  staleTrigger('document_pages_search_delete', 'DELETE', 'old'),
].join('\n');
