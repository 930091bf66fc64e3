// PostgreSQL twin of migrations/004-document-pages.ts (translation rules in index.ts).
// What was read from each page of a document (text layer, OCR or a transcript): the words with their boxes,
// so that detection, summaries, the OCR text endpoint and burn-in's invisible text layer all read one store.
// A page row is written once per (document, page) and replaced by a later run, so a job resumed after a
// crash never doubles a page.
export const documentPages = `
CREATE TABLE document_pages (
  organization_id BIGINT NOT NULL REFERENCES organizations(id),
  document_id BIGINT NOT NULL REFERENCES documents(id),
  page_number BIGINT NOT NULL CHECK (page_number >= 1),
  source TEXT COLLATE "C" NOT NULL CHECK (source IN ('text_layer', 'ocr', 'transcript')),
  job_id BIGINT REFERENCES jobs(id),
  unit TEXT COLLATE "C" NOT NULL CHECK (unit IN ('pdf_points', 'image_pixels', 'seconds')),
  width DOUBLE PRECISION NOT NULL,
  height DOUBLE PRECISION NOT NULL,
  rotation BIGINT NOT NULL DEFAULT 0 CHECK (rotation IN (0, 90, 180, 270)),
  text TEXT COLLATE "C" NOT NULL,
  words TEXT COLLATE "C" NOT NULL DEFAULT '[]',
  mean_confidence DOUBLE PRECISION,
  created_at TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (document_id, page_number)
);
CREATE INDEX document_pages_job ON document_pages(job_id);
`;
