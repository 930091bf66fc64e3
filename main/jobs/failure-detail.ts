import fs from 'node:fs';

/**
 * An error's message as a job's or export's `error_message`. Paths inside the data directory are shown
 * relative to it (`<data dir>/blobs/…`): still enough to tell what was missing, without telling API clients
 * where, or under which account, the office's records are kept.
 */
export function failureDetail(error: unknown, dataDir: string): string {
  const message = error instanceof Error ? error.message : String(error);
  let real = dataDir;
  try {
    real = fs.realpathSync(dataDir);
  } catch {
    // a data directory that is gone is still named as configured
  }
  // The longer form first, so a path that contains the other is replaced whole.
  const forms = [...new Set([dataDir, real].map((form) => form.replace(/[\\/]+$/, '')))].filter((form) => form.length > 1).sort((a, b) => b.length - a.length);
  return forms.reduce((text, form) => text.split(form).join('<data dir>'), message);
}
