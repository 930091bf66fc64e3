/**
 * The list with `entry` in place of the one with its id (order kept), or with it appended when none has it.
 * No entry (a failed action) leaves the list as it was. For `setData` of a loaded list after a change.
 */
export function upsertById<T extends { id: string }>(list: T[] | null, entry: T | undefined): T[] {
  const entries = list ?? [];
  if (!entry) return entries;
  return entries.some((existing) => existing.id === entry.id) ? entries.map((existing) => (existing.id === entry.id ? entry : existing)) : [...entries, entry];
}

/** Attachments right under the message (or file) they came with, in their order; the rest as listed. */
export function familyOrder<Entry extends { depth: number; document: { id: string; parent_document_id: string | null; attachment_index: number | null } }>(entries: readonly Entry[]): Entry[] {
  const listed = new Set(entries.map((entry) => entry.document.id));
  const children = new Map<string, Entry[]>();
  for (const entry of entries) {
    const parent = entry.document.parent_document_id;
    if (parent && listed.has(parent)) children.set(parent, [...(children.get(parent) ?? []), entry]);
  }
  const ordered: Entry[] = [];
  const place = (entry: Entry, depth: number) => {
    ordered.push({ ...entry, depth });
    const attached = [...(children.get(entry.document.id) ?? [])].sort((a, b) => (a.document.attachment_index ?? 0) - (b.document.attachment_index ?? 0));
    for (const child of attached) place(child, depth + 1);
  };
  for (const entry of entries) {
    const parent = entry.document.parent_document_id;
    if (!parent || !listed.has(parent)) place(entry, 0);
  }
  return ordered;
}

