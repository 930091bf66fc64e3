// The request's statutory clock and requester contact (issue 27). `received_date` starts the clock; the due
// date is computed (services/request-clock) and stored in `due_date` so lists filter and sort on it in SQL.
// Tolling and extensions are kept as events, never edited, so the clock can always be recomputed and audited.
// `last_release_*` mirror the case's latest completed release for the queue's "Released" filter and badge.
export const requestClock = `
ALTER TABLE cases ADD COLUMN received_date TEXT;
ALTER TABLE cases ADD COLUMN time_limit_days INTEGER;
ALTER TABLE cases ADD COLUMN requester TEXT;
ALTER TABLE cases ADD COLUMN tolled_since TEXT;
ALTER TABLE cases ADD COLUMN last_release_number INTEGER;
ALTER TABLE cases ADD COLUMN last_released_at TEXT;
UPDATE cases SET
  last_release_number = (SELECT MAX(e.release_number) FROM exports e WHERE e.case_id = cases.id AND e.status = 'completed' AND e.release_number IS NOT NULL),
  last_released_at = (SELECT e.finished_at FROM exports e WHERE e.case_id = cases.id AND e.status = 'completed' AND e.release_number IS NOT NULL ORDER BY e.release_number DESC LIMIT 1);
CREATE INDEX cases_org_due ON cases(organization_id, due_date, id);

CREATE TABLE case_clock_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  case_id INTEGER NOT NULL REFERENCES cases(id),
  kind TEXT NOT NULL CHECK (kind IN ('toll', 'resume', 'extend')),
  on_date TEXT NOT NULL,
  days INTEGER,
  reason TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX case_clock_events_case ON case_clock_events(case_id, id);

CREATE TABLE request_clock_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  time_limit_days INTEGER NOT NULL,
  holidays TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
`;
