// PostgreSQL twin of migrations/013-intake.ts (translation rules in index.ts).
// Intake of e-mail and Office files (issue 19): what each such document was before it became a PDF, how its
// conversion went, and the facts de-duplication and threading compare. The document row itself points at the
// rendered PDF once converted (so OCR, the viewer and exports need nothing new); the original stays a blob.
export const intake = `
CREATE TABLE document_intake (
  document_id BIGINT PRIMARY KEY REFERENCES documents(id),
  organization_id BIGINT NOT NULL,
  case_id BIGINT NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'converting', 'converted', 'needs_libreoffice', 'failed')),
  error TEXT COLLATE "C",
  warnings TEXT COLLATE "C" NOT NULL DEFAULT '[]',
  original_sha256 TEXT COLLATE "C" NOT NULL,
  original_media_type TEXT COLLATE "C" NOT NULL,
  original_size BIGINT NOT NULL,
  original_format TEXT COLLATE "C" NOT NULL,
  depth BIGINT NOT NULL DEFAULT 0,
  attempts BIGINT NOT NULL DEFAULT 0,
  pages BIGINT,
  message_id TEXT COLLATE "C",
  body_hash TEXT COLLATE "C",
  subject_key TEXT COLLATE "C",
  minhash TEXT COLLATE "C",
  near_duplicate_of BIGINT REFERENCES documents(id),
  near_duplicate_score DOUBLE PRECISION,
  thread_inclusive BIGINT NOT NULL DEFAULT 0,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX document_intake_status ON document_intake(status);
CREATE INDEX document_intake_case ON document_intake(case_id, message_id);
CREATE INDEX documents_awaiting_intake ON documents(id) WHERE document_type IN ('email', 'office', 'text');
`;
