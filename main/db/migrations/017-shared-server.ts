// Several processes on one database (issue 21). Jobs and exports carry the lease of the process running them:
// only a lease that expired (or whose holder is gone from this machine) is taken back, so a second process
// starting never steals live work. `runner_locks` gives singleton runners (watched folders, webhook delivery,
// intake) one owner at a time on SQLite (PostgreSQL uses advisory locks). `shared_epochs` tells every process
// that cached credentials or cases changed (bumped by triggers in the writing transaction); `throttle_entries` holds sign-in failure counts for every process.
export const sharedServer = `
ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE jobs ADD COLUMN lease_expires_at TEXT;
ALTER TABLE exports ADD COLUMN lease_owner TEXT;
ALTER TABLE exports ADD COLUMN lease_expires_at TEXT;
CREATE INDEX jobs_lease_owner ON jobs(lease_owner) WHERE status = 'running';
CREATE INDEX exports_lease_owner ON exports(lease_owner) WHERE status = 'processing';
ALTER TABLE idempotency_keys ADD COLUMN claimed_by TEXT;
CREATE TABLE runner_locks (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
CREATE TABLE shared_epochs (
  name TEXT PRIMARY KEY,
  epoch INTEGER NOT NULL
) STRICT;
INSERT INTO shared_epochs (name, epoch) VALUES ('credentials', 0), ('cases', 0);
CREATE TRIGGER api_keys_epoch_insert AFTER INSERT ON api_keys BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER api_keys_epoch_update AFTER UPDATE ON api_keys BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER api_keys_epoch_delete AFTER DELETE ON api_keys BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER service_accounts_epoch_insert AFTER INSERT ON service_accounts BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER service_accounts_epoch_update AFTER UPDATE ON service_accounts BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER service_accounts_epoch_delete AFTER DELETE ON service_accounts BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'credentials'; END;
CREATE TRIGGER cases_epoch_insert AFTER INSERT ON cases BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'cases'; END;
CREATE TRIGGER cases_epoch_update AFTER UPDATE ON cases BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'cases'; END;
CREATE TRIGGER cases_epoch_delete AFTER DELETE ON cases BEGIN UPDATE shared_epochs SET epoch = epoch + 1 WHERE name = 'cases'; END;
CREATE TABLE throttle_entries (
  scope TEXT NOT NULL,
  name TEXT NOT NULL,
  failures INTEGER NOT NULL,
  blocked_until INTEGER NOT NULL,
  last_failure INTEGER NOT NULL,
  locked INTEGER NOT NULL CHECK (locked IN (0, 1)),
  PRIMARY KEY (scope, name)
) STRICT;
`;
