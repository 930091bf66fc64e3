// PostgreSQL twin of migrations/009-document-families.ts (translation rules in index.ts).
// Where a document came from and how it relates to others: e-mail families (a message and its attachments,
// nested to any depth), exact duplicates recorded against the first copy, threads of messages, and the
// conversion state of files that must become PDF before review (Office, e-mail). Shared by upload, watched
// folders and intake, so every path records the same facts.
export const documentFamilies = `
ALTER TABLE documents ADD COLUMN source_type TEXT COLLATE "C" NOT NULL DEFAULT 'pdf'
  CHECK (source_type IN ('pdf', 'image', 'email', 'office', 'text', 'audio'));
ALTER TABLE documents ADD COLUMN parent_document_id BIGINT REFERENCES documents(id);
ALTER TABLE documents ADD COLUMN attachment_index BIGINT;
ALTER TABLE documents ADD COLUMN duplicate_of BIGINT REFERENCES documents(id);
ALTER TABLE documents ADD COLUMN thread_id TEXT COLLATE "C";
-- JSON {from, to, cc, bcc, date, subject, message_id, in_reply_to, references} for messages; NULL otherwise.
ALTER TABLE documents ADD COLUMN email TEXT COLLATE "C";
CREATE INDEX documents_parent ON documents(parent_document_id, attachment_index) WHERE parent_document_id IS NOT NULL;
CREATE INDEX documents_case_sha256 ON documents(case_id, sha256);
CREATE INDEX documents_case_thread ON documents(case_id, thread_id) WHERE thread_id IS NOT NULL;
UPDATE documents SET source_type = 'image' WHERE document_type IN ('png', 'jpeg', 'tiff');
UPDATE documents SET source_type = 'audio' WHERE document_type IN ('audio', 'video');
`;
