/**
 * The list with `entry` in place of the one with its id (order kept), or with it appended when none has it.
 * No entry (a failed action) leaves the list as it was. For `setData` of a loaded list after a change.
 */
export function upsertById<T extends { id: string }>(list: T[] | null, entry: T | undefined): T[] {
  const entries = list ?? [];
  if (!entry) return entries;
  return entries.some((existing) => existing.id === entry.id) ? entries.map((existing) => (existing.id === entry.id ? entry : existing)) : [...entries, entry];
}
