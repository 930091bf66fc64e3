// The case-wide search index. `search_pages` holds each page's text as search reads it (words joined by one
// space, line-end hyphenation joined) and the same text folded (lower case, no diacritics, same length), and
// an FTS5 trigram index over the folded text finds candidate pages for any substring of 3+ characters.
// Triggers on document_pages queue every stored, replaced or removed page in `search_stale`; the search
// service folds those into the index before it answers, so the index is never behind the page store.
export const searchIndex = `
CREATE TABLE search_pages (
  -- AUTOINCREMENT: a replaced page gets a new id, so (count, max, sum) of a case's ids changes with any change.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  page_number INTEGER NOT NULL,
  unit TEXT NOT NULL CHECK (unit IN ('pdf_points', 'image_pixels')),
  text TEXT NOT NULL,
  folded TEXT NOT NULL,
  UNIQUE (document_id, page_number)
) STRICT;
CREATE INDEX search_pages_case ON search_pages(organization_id, case_id, document_id, page_number);
CREATE VIRTUAL TABLE search_pages_fts USING fts5(folded, content='search_pages', content_rowid='id', tokenize='trigram');
CREATE TABLE search_stale (
  document_id INTEGER NOT NULL,
  page_number INTEGER NOT NULL,
  PRIMARY KEY (document_id, page_number)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER document_pages_search_insert AFTER INSERT ON document_pages BEGIN
  INSERT OR IGNORE INTO search_stale (document_id, page_number) VALUES (new.document_id, new.page_number);
END;
CREATE TRIGGER document_pages_search_update AFTER UPDATE ON document_pages BEGIN
  INSERT OR IGNORE INTO search_stale (document_id, page_number) VALUES (new.document_id, new.page_number);
END;
CREATE TRIGGER document_pages_search_delete AFTER DELETE ON document_pages BEGIN
  INSERT OR IGNORE INTO search_stale (document_id, page_number) VALUES (old.document_id, old.page_number);
END;
INSERT INTO search_stale (document_id, page_number) SELECT document_id, page_number FROM document_pages;
`;
