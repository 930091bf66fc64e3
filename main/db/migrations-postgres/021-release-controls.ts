// PostgreSQL twin of migrations/021-release-controls.ts (translation rules in index.ts).
export const releaseControls = `
ALTER TABLE watched_folders ADD COLUMN saved_by TEXT COLLATE "C";
`;
