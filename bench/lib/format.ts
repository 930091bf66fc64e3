/** Renders rows as an aligned text table; the first row is the header. Numeric-looking cells align right. */
export function renderTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  const numeric = /^[-+]?[\d.,]+( ?[a-z/%×x]+)?$/i;
  const line = (row: string[]) =>
    row.map((cell, index) => (index > 0 && numeric.test(cell) ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0))).join('  ').trimEnd();
  const [header, ...body] = rows;
  if (!header) return '';
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

export function fmt(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function fmtInt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}
