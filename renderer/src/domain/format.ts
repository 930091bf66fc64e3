// Display formatting (pure).

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : new Date(value);
  if (Number.isNaN(day.getTime())) return value;
  return day.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatPercent(fraction: number): string {
  return `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
}

export function capitalise(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1).replaceAll('_', ' ') : text;
}

const STATUS_WORDS: Readonly<Record<string, string>> = {
  open: 'Open',
  in_progress: 'In progress',
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Sent back',
  cancelled: 'Cancelled',
  deleted: 'Deleted',
  pending: 'Waiting',
  processing: 'Running',
  completed: 'Done',
  failed: 'Failed',
  queued: 'Queued',
  running: 'Running',
};

/** A status as a clerk reads it: "In progress", never `in_progress`. */
export function formatStatus(status: string | null | undefined): string {
  if (!status) return '—';
  return STATUS_WORDS[status] ?? capitalise(status);
}

/**
 * A sentence from the server (a refusal, a safeguard's block, a permission's reason) as a clerk reads it:
 * capitalised, its timestamps and dates shown as dates, no snake_case words.
 */
export function formatMessage(text: string): string {
  const dated = text
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?/g, (iso) => formatDateTime(iso))
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, (day) => formatDay(day));
  return capitalise(dated);
}

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** What changed since a case's approval, by document name: "redactions changed in memo.pdf and 1 withholding change". */
export function changesSinceApproval(approval: { changed_document_ids: readonly string[]; withholding_changes: number }, names: ReadonlyMap<string, string>): string {
  const documents = approval.changed_document_ids.map((id) => documentName(id, names));
  const withholdings = approval.withholding_changes;
  return [documents.length > 0 && `redactions changed in ${listWords(documents)}`, withholdings > 0 && `${withholdings} withholding change${withholdings === 1 ? '' : 's'}`].filter(Boolean).join(' and ') || 'nothing changed';
}

/** A document by its file name; the id only when the name is not known. */
export function documentName(id: string | number | null | undefined, names: ReadonlyMap<string, string>): string {
  if (id === null || id === undefined) return '—';
  return names.get(String(id)) ?? `document ${id}`;
}

const ACTION_WORDS: Readonly<Record<string, string>> = {
  'case.create': 'Case created',
  'case.update': 'Details changed',
  'case.delete': 'Case deleted',
  'case.status_change': 'Status changed',
  'case.release_reapprove': 'Re-approved after changes',
  'case.release_details_update': 'Requester details changed',
  'case.clock_toll': 'Clock paused',
  'case.clock_resume': 'Clock resumed',
  'case.clock_extend': 'Time limit extended',
  'redactions.write': 'Redactions saved',
  'redactions.delete': 'Redactions removed',
  'review.decide': 'Suggestions decided',
  'document.upload': 'Document added',
  'document.update': 'Document changed',
  'document.delete': 'Document removed',
  'comment.create': 'Comment added',
  'export.create': 'Export started',
  'withholding.create': 'Withheld in full',
  'withholding.delete': 'Withholding removed',
};

function value(text: unknown): string {
  if (text === null || text === undefined || text === '') return '—';
  if (typeof text === 'string' && /^\d{4}-\d{2}-\d{2}(T|$)/.test(text)) return text.length === 10 ? formatDay(text) : formatDateTime(text);
  return typeof text === 'string' ? formatStatus(text) : String(text);
}

/** A history record in words: what happened, with from → to where the record says it. */
export function describeAction(action: string, details: Record<string, unknown> | null): string {
  const head = ACTION_WORDS[action] ?? capitalise(action.replaceAll('.', ' '));
  if (!details) return head;
  if (action === 'case.status_change') {
    const note = typeof details.note === 'string' ? ` — “${details.note}”` : '';
    return `${head}: ${formatStatus(String(details.from ?? ''))} → ${formatStatus(String(details.to ?? ''))}${note}`;
  }
  if (action === 'case.update' && details.changes && typeof details.changes === 'object') {
    const parts = Object.entries(details.changes as Record<string, { from: unknown; to: unknown }>).map(([field, change]) => `${capitalise(field.replace(/([A-Z])/g, ' $1').toLowerCase())} ${value(change.from)} → ${value(change.to)}`);
    const named = Array.isArray(details.fields) ? details.fields.filter((field) => !(field in (details.changes as object))).map(String) : [];
    return `${head}: ${[...parts, ...named.map((field) => capitalise(field))].join('; ')}`;
  }
  if (action === 'case.release_reapprove') return `${head}${typeof details.note === 'string' ? ` — “${details.note}”` : ''}`;
  if (action.startsWith('case.clock_')) {
    const days = typeof details.days === 'number' ? ` by ${details.days} business days` : ` on ${value(details.on_date)}`;
    return `${head}${days}${details.reason ? ` — ${String(details.reason)}` : ''}`;
  }
  return head;
}
