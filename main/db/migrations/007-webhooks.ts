// Webhook endpoints, one delivery row per (event, endpoint) fanned out from the outbox, and one attempt row
// per HTTP request. An attempt row is written before its request is sent, so an attempt that a killed
// process left `in_flight` is found and retried at the next start.
export const webhooks = `
CREATE TABLE webhook_endpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  event_types TEXT NOT NULL,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at TEXT,
  secret_rotated_at TEXT,
  start_after_event_id INTEGER NOT NULL,
  failing_since TEXT,
  disabled_reason TEXT CHECK (disabled_reason IN ('manual', 'gone', 'failing')),
  disabled_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
) STRICT;
CREATE INDEX webhook_endpoints_organization ON webhook_endpoints(organization_id, id);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id),
  outbox_event_id INTEGER NOT NULL REFERENCES outbox_events(id),
  replay_of INTEGER REFERENCES webhook_deliveries(id),
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed')),
  attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  failure_count INTEGER NOT NULL DEFAULT 0 CHECK (failure_count >= 0),
  next_attempt_at TEXT,
  last_attempt_at TEXT,
  last_status_code INTEGER,
  failure_reason TEXT CHECK (failure_reason IN ('attempts_exhausted', 'endpoint_gone', 'endpoint_disabled', 'endpoint_deleted')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT
) STRICT;
-- The dispatcher looks for due pending deliveries; the API lists an endpoint's deliveries newest first.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
-- An event is fanned out to an endpoint once; replays are extra rows.
CREATE UNIQUE INDEX webhook_deliveries_fan_out ON webhook_deliveries(endpoint_id, outbox_event_id) WHERE replay_of IS NULL;

CREATE TABLE webhook_delivery_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id),
  number INTEGER NOT NULL CHECK (number >= 1),
  url TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'succeeded', 'failed', 'interrupted')),
  started_at TEXT NOT NULL,
  finished_at TEXT,
  duration_ms INTEGER,
  status_code INTEGER,
  response_excerpt TEXT,
  error TEXT,
  UNIQUE (delivery_id, number)
) STRICT;
CREATE INDEX webhook_delivery_attempts_in_flight ON webhook_delivery_attempts(outcome) WHERE outcome = 'in_flight';

-- How far the outbox has been fanned out. Starts at the newest existing event: endpoints only receive
-- events written after they were created.
CREATE TABLE webhook_outbox_cursor (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_event_id INTEGER NOT NULL
) STRICT;
INSERT INTO webhook_outbox_cursor (id, last_event_id) SELECT 1, COALESCE(MAX(id), 0) FROM outbox_events;
`;
