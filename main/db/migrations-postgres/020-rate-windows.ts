// PostgreSQL twin of migrations/020-rate-windows.ts (translation rules in index.ts). UNLOGGED: a count is
// written without WAL or fsync (a crash forgets at most one window of counting, which is harmless), so
// counting each request costs a row update, not a disk flush.
export const rateWindows = `
CREATE UNLOGGED TABLE rate_windows (
  bucket TEXT COLLATE "C" PRIMARY KEY,
  window_start BIGINT NOT NULL,
  hits BIGINT NOT NULL
);
CREATE INDEX rate_windows_start ON rate_windows(window_start);
`;
