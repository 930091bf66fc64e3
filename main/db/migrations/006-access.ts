// Access: roles and their assignment, invitations, key rotation, exemptions and redaction templates.
// Idempotency records are re-keyed by principal (an API key or a signed-in user) instead of api_key_id,
// because /api/v1 also accepts the app's session.
// Built-in roles and the federal exemptions are seeded here for organizations that already exist; new
// organizations get them from services/bootstrap.ts. The lists below are this migration's snapshot.

const ALL = [
  'cases:read', 'cases:write', 'documents:read', 'documents:write', 'processing:read', 'processing:write',
  'redactions:read', 'redactions:write', 'comments:read', 'comments:write', 'exports:read', 'exports:write',
  'templates:read', 'users:read', 'users:write', 'roles:read', 'roles:write', 'credentials:read',
  'credentials:write', 'webhooks:read', 'webhooks:write',
];
const REDACTOR = [
  'cases:read', 'cases:write', 'documents:read', 'documents:write', 'processing:read', 'processing:write',
  'redactions:read', 'redactions:write', 'comments:read', 'comments:write', 'exports:read', 'exports:write', 'templates:read',
];
const REVIEWER = [
  'cases:read', 'cases:write', 'documents:read', 'processing:read', 'redactions:read', 'redactions:write',
  'comments:read', 'comments:write', 'exports:read', 'templates:read',
];
const VIEWER = ['cases:read', 'documents:read', 'processing:read', 'redactions:read', 'comments:read', 'exports:read', 'templates:read'];

const BUILT_IN_ROLES: [string, string, string[]][] = [
  ['admin', 'Administers the organization: every scope', ALL],
  ['redactor', 'Prepares cases: uploads, processing, redactions, exports', REDACTOR],
  ['reviewer', 'Reviews and approves redactions and cases', REVIEWER],
  ['viewer', 'Reads everything, changes nothing', VIEWER],
];

const FEDERAL_EXEMPTIONS: [string, string, string, string | null][] = [
  ['(b)(1)', 'National security', 'Classified national defense or foreign policy information', 'B1'],
  ['(b)(2)', 'Internal agency rules', 'Related solely to internal personnel rules and practices of an agency', 'B2'],
  ['(b)(3)', 'Statutory exemption', 'Specifically exempted from disclosure by another federal statute', 'B3'],
  ['(b)(4)', 'Confidential business information', 'Trade secrets and privileged or confidential commercial or financial information', 'B4'],
  ['(b)(5)', 'Privileged communications', 'Inter- or intra-agency memoranda or letters protected by a legal privilege', 'B5'],
  ['(b)(6)', 'Personal privacy', 'Personnel, medical and similar files whose release would be a clearly unwarranted invasion of personal privacy', 'B6'],
  ['(b)(7)', 'Law enforcement', 'Records or information compiled for law enforcement purposes, to the extent release would cause a harm in (A)–(F)', 'B7'],
  ['(b)(7)(A)', 'Enforcement proceedings', 'Could reasonably be expected to interfere with enforcement proceedings', 'B7'],
  ['(b)(7)(B)', 'Fair trial', 'Would deprive a person of a right to a fair trial or an impartial adjudication', 'B7'],
  ['(b)(7)(C)', 'Law enforcement privacy', 'Could reasonably be expected to constitute an unwarranted invasion of personal privacy', 'B7'],
  ['(b)(7)(D)', 'Confidential source', 'Could reasonably be expected to disclose the identity of a confidential source, or information it furnished', 'B7'],
  ['(b)(7)(E)', 'Techniques and procedures', 'Would disclose techniques, procedures or guidelines for law enforcement investigations or prosecutions', 'B7'],
  ['(b)(7)(F)', 'Physical safety', 'Could reasonably be expected to endanger the life or physical safety of any individual', 'B7'],
  ['(b)(8)', 'Financial institutions', 'Contained in or related to examination, operating or condition reports about financial institutions', null],
  ['(b)(9)', 'Geological information', 'Geological and geophysical information and data, including maps, concerning wells', null],
];

const text = (value: string | null) => (value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`);

const seedRoles = BUILT_IN_ROLES.map(
  ([name, description, scopes]) => `
INSERT INTO roles (organization_id, name, description, scopes, built_in, created_at, updated_at)
SELECT id, ${text(name)}, ${text(description)}, ${text(JSON.stringify(scopes))}, ${text(name)}, created_at, created_at FROM organizations;`,
).join('');

const seedExemptions = FEDERAL_EXEMPTIONS.map(
  ([code, name, description, layer]) => `
INSERT INTO exemptions (organization_id, code, name, description, layer, jurisdiction, built_in, created_at, updated_at)
SELECT id, ${text(code)}, ${text(name)}, ${text(description)}, ${text(layer)}, 'federal', 1, created_at, created_at FROM organizations;`,
).join('');

// Existing admins get the admin role. Plain INSERT … SELECT: the PostgreSQL twin runs these same statements.
export const seedAccess = `${seedRoles}
INSERT INTO user_roles (user_id, role_id, organization_id, assigned_at)
  SELECT users.id, roles.id, users.organization_id, users.created_at
  FROM users JOIN roles ON roles.organization_id = users.organization_id AND roles.built_in = 'admin'
  WHERE users.is_admin = 1;
${seedExemptions}`;

export const access = `
CREATE TABLE idempotency_records (
  principal_type TEXT NOT NULL CHECK (principal_type IN ('api_key', 'user')),
  principal_id INTEGER NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  status_code INTEGER,
  response_body TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (principal_type, principal_id, idempotency_key)
) STRICT;
INSERT INTO idempotency_records
  SELECT 'api_key', api_key_id, idempotency_key, fingerprint, state, status_code, response_body, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_records RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

ALTER TABLE users ADD COLUMN deactivated_at TEXT;

ALTER TABLE service_accounts ADD COLUMN deleted_at TEXT;

-- Rotation keeps the key's id and lookup id; the replaced secret stays valid until previous_secret_expires_at.
ALTER TABLE api_keys ADD COLUMN previous_secret_hash TEXT;
ALTER TABLE api_keys ADD COLUMN previous_secret_expires_at TEXT;
ALTER TABLE api_keys ADD COLUMN rotated_at TEXT;

CREATE TABLE roles (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  scopes TEXT NOT NULL,
  built_in TEXT CHECK (built_in IS NULL OR built_in IN ('admin', 'redactor', 'reviewer', 'viewer')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, name),
  UNIQUE (organization_id, built_in)
) STRICT;

CREATE TABLE user_roles (
  user_id INTEGER NOT NULL REFERENCES users(id),
  role_id INTEGER NOT NULL REFERENCES roles(id),
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  assigned_at TEXT NOT NULL,
  PRIMARY KEY (user_id, role_id)
) STRICT;
CREATE INDEX user_roles_role ON user_roles(role_id, user_id);

CREATE TABLE user_invitations (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  superseded_at TEXT
) STRICT;
CREATE INDEX user_invitations_user ON user_invitations(user_id, id);

CREATE TABLE exemptions (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  code TEXT NOT NULL COLLATE NOCASE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  layer TEXT CHECK (layer IS NULL OR layer IN ('B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7')),
  jurisdiction TEXT NOT NULL,
  built_in INTEGER NOT NULL DEFAULT 0 CHECK (built_in IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, code)
) STRICT;

CREATE TABLE redaction_templates (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  entity_kinds TEXT NOT NULL DEFAULT '[]',
  custom_terms TEXT NOT NULL DEFAULT '[]',
  patterns TEXT NOT NULL DEFAULT '[]',
  layer TEXT NOT NULL CHECK (layer IN ('B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7')),
  exemption_id INTEGER REFERENCES exemptions(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, name)
) STRICT;
CREATE INDEX redaction_templates_exemption ON redaction_templates(exemption_id);
${seedAccess}
`;
