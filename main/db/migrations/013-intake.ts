// Intake of e-mail and Office files (issue 19): what each such document was before it became a PDF, how its
// conversion went, and the facts de-duplication and threading compare. The document row itself points at the
// rendered PDF once converted (so OCR, the viewer and exports need nothing new); the original stays a blob.
export const intake = `
CREATE TABLE document_intake (
  document_id INTEGER PRIMARY KEY REFERENCES documents(id),
  organization_id INTEGER NOT NULL,
  case_id INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'converting', 'converted', 'needs_libreoffice', 'failed')),
  error TEXT,
  warnings TEXT NOT NULL DEFAULT '[]',
  original_sha256 TEXT NOT NULL,
  original_media_type TEXT NOT NULL,
  original_size INTEGER NOT NULL,
  original_format TEXT NOT NULL,
  depth INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  pages INTEGER,
  message_id TEXT,
  body_hash TEXT,
  subject_key TEXT,
  minhash TEXT,
  near_duplicate_of INTEGER REFERENCES documents(id),
  near_duplicate_score REAL,
  thread_inclusive INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX document_intake_status ON document_intake(status);
CREATE INDEX document_intake_case ON document_intake(case_id, message_id);
CREATE INDEX documents_awaiting_intake ON documents(id) WHERE document_type IN ('email', 'office', 'text');
`;
