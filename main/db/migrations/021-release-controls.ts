// Watched folders remember who saved them through the API (issue 26): the steps' scopes are checked against
// that principal when the folder is saved and again whenever a file runs. `type:id`; null for config.json folders.
export const releaseControls = `
ALTER TABLE watched_folders ADD COLUMN saved_by TEXT;
`;
