// PostgreSQL twin of migrations/017-shared-server.ts (translation rules in index.ts). runner_locks and
// shared_epochs exist on both so the row types match; on PostgreSQL singleton runners hold advisory locks, and
// instead of bumping a shared_epochs row (one row every writer of cases would fight over) the triggers send
// NOTIFY obscura_epochs, delivered at commit to every listening process (main/db/shared-epochs.ts).
export const sharedServer = `
ALTER TABLE jobs ADD COLUMN lease_owner TEXT COLLATE "C";
ALTER TABLE jobs ADD COLUMN lease_expires_at TEXT COLLATE "C";
ALTER TABLE exports ADD COLUMN lease_owner TEXT COLLATE "C";
ALTER TABLE exports ADD COLUMN lease_expires_at TEXT COLLATE "C";
CREATE INDEX jobs_lease_owner ON jobs(lease_owner) WHERE status = 'running';
CREATE INDEX exports_lease_owner ON exports(lease_owner) WHERE status = 'processing';
ALTER TABLE idempotency_keys ADD COLUMN claimed_by TEXT COLLATE "C";
CREATE TABLE runner_locks (
  name TEXT COLLATE "C" PRIMARY KEY,
  owner TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL
);
CREATE TABLE shared_epochs (
  name TEXT COLLATE "C" PRIMARY KEY,
  epoch BIGINT NOT NULL
);
INSERT INTO shared_epochs (name, epoch) VALUES ('credentials', 0), ('cases', 0);
-- PostgreSQL tells the other processes with NOTIFY (delivered at commit) instead of bumping the row, which
-- would make every transaction that writes cases wait for the previous one.
CREATE FUNCTION obscura_bump_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('obscura_epochs', TG_ARGV[0]);
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_epoch AFTER INSERT OR UPDATE OR DELETE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION obscura_bump_epoch('credentials');
CREATE TRIGGER service_accounts_epoch AFTER INSERT OR UPDATE OR DELETE ON service_accounts FOR EACH STATEMENT EXECUTE FUNCTION obscura_bump_epoch('credentials');
CREATE TRIGGER cases_epoch AFTER INSERT OR UPDATE OR DELETE ON cases FOR EACH STATEMENT EXECUTE FUNCTION obscura_bump_epoch('cases');
CREATE TABLE throttle_entries (
  scope TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  failures BIGINT NOT NULL,
  blocked_until BIGINT NOT NULL,
  last_failure BIGINT NOT NULL,
  locked BIGINT NOT NULL CHECK (locked IN (0, 1)),
  PRIMARY KEY (scope, name)
);
`;
