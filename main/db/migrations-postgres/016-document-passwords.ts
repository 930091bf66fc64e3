// PostgreSQL twin of migrations/016-document-passwords.ts (translation rules in index.ts).
// Password-protected PDFs (issue 18): a document whose file does not open without a password waits in
// 'needs_password'; once one is supplied the document points at a decrypted working copy ('decrypted') and
// original_sha256 keeps the encrypted upload as the source of record. The password itself is never stored.
export const documentPasswords = `
ALTER TABLE documents ADD COLUMN password_state TEXT COLLATE "C" CHECK (password_state IS NULL OR password_state IN ('needs_password', 'decrypted'));
ALTER TABLE documents ADD COLUMN original_sha256 TEXT COLLATE "C" REFERENCES blobs(sha256);
`;

// Automatic processing (issue 18): an organization setting (on by default) and, per document, where its
// scan → OCR → detection chain stands; the job scheduler's outcomes move it on.
export const autoProcessing = `
ALTER TABLE organizations ADD COLUMN auto_process BIGINT NOT NULL DEFAULT 1 CHECK (auto_process IN (0, 1));
CREATE TABLE auto_processing (
  document_id BIGINT PRIMARY KEY REFERENCES documents(id),
  organization_id BIGINT NOT NULL REFERENCES organizations(id),
  case_id BIGINT NOT NULL REFERENCES cases(id),
  step TEXT COLLATE "C" NOT NULL CHECK (step IN ('waiting', 'scan', 'ocr', 'detection', 'done', 'failed')),
  job_id BIGINT REFERENCES jobs(id),
  error TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX auto_processing_case ON auto_processing (case_id);
CREATE INDEX auto_processing_job ON auto_processing (job_id);
`;
