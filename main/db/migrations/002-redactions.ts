// Redactions shared by both API surfaces, per-layer immutable versions and locks, review decisions,
// comments, and the sessions of the application API.
export const redactions = `
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
CREATE INDEX sessions_user ON sessions(user_id);

ALTER TABLE documents ADD COLUMN owner_user_id INTEGER REFERENCES users(id);

-- AUTOINCREMENT: redaction ids are public and review decisions name them, so a deleted box's id must
-- never be handed to a new box (SQLite would otherwise reuse the largest id after it is deleted).
CREATE TABLE redactions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  redaction_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('pdf', 'image')),
  layer TEXT NOT NULL CHECK (layer IN ('B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7')),
  kind TEXT NOT NULL,
  page_number INTEGER NOT NULL CHECK (page_number >= 1),
  x1 REAL NOT NULL,
  y1 REAL NOT NULL,
  x2 REAL NOT NULL,
  y2 REAL NOT NULL,
  points TEXT NOT NULL DEFAULT '[]',
  reason TEXT,
  classification_type TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'accepted', 'rejected')),
  pending_reason TEXT,
  version_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  UNIQUE (document_id, redaction_id)
) STRICT;
CREATE INDEX redactions_document_layer ON redactions(document_id, layer, id);
CREATE INDEX redactions_organization ON redactions(organization_id, id);

CREATE TABLE layer_versions (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  layer TEXT NOT NULL,
  version INTEGER NOT NULL,
  version_id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  origin TEXT NOT NULL,
  summary TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  UNIQUE (document_id, layer, version)
) STRICT;

CREATE TABLE layer_locks (
  document_id INTEGER NOT NULL REFERENCES documents(id),
  layer TEXT NOT NULL,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  acquired_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (document_id, layer)
) STRICT;

CREATE TABLE review_decisions (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  redaction_row_id INTEGER NOT NULL,
  decision TEXT NOT NULL CHECK (decision IN ('accept', 'reject')),
  reason TEXT,
  actor_type TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX review_decisions_redaction ON review_decisions(redaction_row_id, id);

CREATE TABLE comments (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  document_id INTEGER NOT NULL REFERENCES documents(id),
  text TEXT NOT NULL,
  author_type TEXT NOT NULL,
  author_id TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX comments_document ON comments(document_id, id);
`;
