// PostgreSQL twin of migrations/020-rate-windows.ts (translation rules in index.ts).
export const rateWindows = `
CREATE TABLE rate_windows (
  bucket TEXT COLLATE "C" PRIMARY KEY,
  window_start BIGINT NOT NULL,
  hits BIGINT NOT NULL
);
CREATE INDEX rate_windows_start ON rate_windows(window_start);
`;
