// Request rate-limit windows shared by every process on the database (issue 21): one fixed window per tier
// and key, opened by its first request. `bucket` is "tier:key"; `window_start` epoch ms. Counted only on
// PostgreSQL (db/dialect.ts sharesRateWindows); SQLite counts in memory and has the table for the same schema.
export const rateWindows = `
CREATE TABLE rate_windows (
  bucket TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX rate_windows_start ON rate_windows(window_start);
`;
