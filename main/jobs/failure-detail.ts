import fs from 'node:fs';

/**
 * An error's message as a job's or export's `error_message`. Paths inside the data directory are shown
 * relative to it (`<data dir>/blobs/…`): still enough to tell what was missing, without telling API clients
 * where, or under which account, the office's records are kept.
 */
export function failureDetail(error: unknown, dataDir: string): string {
  const message = messageOf(error);
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

/**
 * The message of anything thrown. pdf.js throws its own exception classes, which reach the main thread from a
 * worker as plain objects ({name, message}): String() of those read "[object Object]" (issue 18).
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object') {
    const { message, name } = error as { message?: unknown; name?: unknown };
    const text = typeof message === 'string' && message !== '' ? message : null;
    const label = typeof name === 'string' && name !== '' && name !== 'Error' ? name : null;
    if (text && label) return `${label}: ${text}`;
    if (text ?? label) return (text ?? label) as string;
    try {
      return JSON.stringify(error);
    } catch {
      return 'an error without a message';
    }
  }
  return String(error);
}
