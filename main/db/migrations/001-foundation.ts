// Organizations, credentials, cases, documents, uploads, and the rows every
// mutation writes beside its effect (audit log, outbox, idempotency keys).
export const foundation = `
CREATE TABLE organizations (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  display_name TEXT NOT NULL,
  email TEXT,
  password_hash TEXT,
  is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX users_organization ON users(organization_id, id);

CREATE TABLE service_accounts (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  max_scopes TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX service_accounts_organization ON service_accounts(organization_id, id);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  service_account_id INTEGER NOT NULL REFERENCES service_accounts(id),
  name TEXT NOT NULL,
  lookup_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT
) STRICT;
CREATE INDEX api_keys_service_account ON api_keys(service_account_id, id);

CREATE TABLE cases (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  priority TEXT NOT NULL,
  due_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
) STRICT;
CREATE INDEX cases_organization ON cases(organization_id, id);

CREATE TABLE blobs (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE documents (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  file_name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  sha256 TEXT NOT NULL REFERENCES blobs(sha256),
  size INTEGER NOT NULL,
  media_type TEXT NOT NULL,
  document_type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
) STRICT;
CREATE INDEX documents_case ON documents(case_id, id);
CREATE INDEX documents_organization ON documents(organization_id, id);

CREATE TABLE upload_sessions (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  completed_at TEXT
) STRICT;

CREATE TABLE upload_files (
  id INTEGER PRIMARY KEY,
  upload_session_id INTEGER NOT NULL REFERENCES upload_sessions(id),
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  sha256 TEXT REFERENCES blobs(sha256),
  media_type TEXT,
  document_type TEXT,
  last_attempt_bytes INTEGER NOT NULL DEFAULT 0,
  uploaded_at TEXT,
  document_id INTEGER REFERENCES documents(id),
  UNIQUE (upload_session_id, position)
) STRICT;

CREATE TABLE download_tokens (
  token_hash TEXT PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  resource_type TEXT NOT NULL,
  resource_id INTEGER NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE idempotency_keys (
  api_key_id INTEGER NOT NULL REFERENCES api_keys(id),
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  status_code INTEGER,
  response_body TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (api_key_id, idempotency_key)
) STRICT;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  actor_type TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  action TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  request_id TEXT,
  details TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_organization ON audit_log(organization_id, id);

CREATE TABLE outbox_events (
  id INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  type TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX outbox_events_organization ON outbox_events(organization_id, id);
`;
