// What was read from each page of a document (text layer, OCR or a transcript): the words with their boxes,
// so that detection, summaries, the OCR text endpoint and burn-in's invisible text layer all read one store.
// A page row is written once per (document, page) and replaced by a later run, so a job resumed after a
// crash never doubles a page.
export const documentPages = `
CREATE TABLE document_pages (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  page_number INTEGER NOT NULL CHECK (page_number >= 1),
  source TEXT NOT NULL CHECK (source IN ('text_layer', 'ocr', 'transcript')),
  job_id INTEGER REFERENCES jobs(id),
  unit TEXT NOT NULL CHECK (unit IN ('pdf_points', 'image_pixels', 'seconds')),
  width REAL NOT NULL,
  height REAL NOT NULL,
  rotation INTEGER NOT NULL DEFAULT 0 CHECK (rotation IN (0, 90, 180, 270)),
  text TEXT NOT NULL,
  words TEXT NOT NULL DEFAULT '[]',
  mean_confidence REAL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (document_id, page_number)
) STRICT;
CREATE INDEX document_pages_job ON document_pages(job_id);
`;
