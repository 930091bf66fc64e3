// CSV as spreadsheets open it safely: the export records, the redaction log and the withholding index.

const PLAIN_NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: a value a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a
 * leading apostrophe, unless it is a plain number; then RFC 4180 quoting when needed.
 */
export function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
