import type { AuditEntry } from '../../common/schemas/audit.js';

// RFC 4180 CSV of audit entries: one row per entry, and one more per redaction change with its before/after.

const HEADER = ['id', 'at', 'actor', 'actor_name', 'action', 'resource_type', 'resource_id', 'document_id', 'redaction_id', 'change', 'before', 'after', 'details'];

function cell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  // A leading = + - @ would make a spreadsheet run the cell as a formula.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = [HEADER.join(',')];
  for (const entry of entries) {
    const base = [entry.id, entry.at, `${entry.actor.type}:${entry.actor.id}`, entry.actor.name, entry.action, entry.resource_type, entry.resource_id, entry.document_id];
    if (entry.changes && entry.changes.length > 0) {
      for (const change of entry.changes) lines.push([...base, change.redaction_id, change.change, change.before, change.after, entry.details].map(cell).join(','));
    } else {
      lines.push([...base, null, null, null, null, entry.details].map(cell).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
