// The release package a requester receives (issue 17): per-organization release settings (safeguards, index
// wording, stamp defaults), the requester-facing details of a case, pages and documents withheld in full, and
// the pages each release carried (their stamp numbers and what they showed) so a supplemental release continues
// the numbering and says what is new or changed.
export const releases = `
ALTER TABLE exports ADD COLUMN audience TEXT NOT NULL DEFAULT 'release' CHECK (audience IN ('release', 'internal'));
ALTER TABLE exports ADD COLUMN release_number INTEGER;
-- JSON {outcome: 'passed'|'overridden'|'not_checked', blocks: [...], reason}: internal only, never in a release.
ALTER TABLE exports ADD COLUMN safeguards TEXT;
UPDATE exports SET audience = 'internal' WHERE format IN ('csv', 'json');
CREATE UNIQUE INDEX exports_case_release_number ON exports(case_id, release_number) WHERE release_number IS NOT NULL;

CREATE TABLE release_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  settings TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE case_release_details (
  case_id INTEGER PRIMARY KEY REFERENCES cases(id),
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  request_number TEXT,
  requester_title TEXT,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE withholdings (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  -- NULL page_from and page_to: the whole document.
  page_from INTEGER,
  page_to INTEGER,
  exemption TEXT NOT NULL,
  category TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK ((page_from IS NULL AND page_to IS NULL) OR (page_from >= 1 AND page_to >= page_from))
) STRICT;
CREATE INDEX withholdings_document ON withholdings(document_id);
CREATE INDEX withholdings_case ON withholdings(case_id);

CREATE TABLE release_pages (
  export_id INTEGER NOT NULL REFERENCES exports(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  position INTEGER NOT NULL,
  document_id INTEGER NOT NULL,
  page_from INTEGER NOT NULL,
  page_to INTEGER NOT NULL,
  bates_number INTEGER,
  bates TEXT,
  fingerprint TEXT NOT NULL,
  PRIMARY KEY (export_id, position)
) STRICT;
CREATE INDEX release_pages_case ON release_pages(case_id, export_id);
`;
