// upsertById: how the settings sections put a changed entry back into a loaded list.
import { describe, expect, it } from 'vitest';
import { upsertById } from '../../renderer/src/domain/collections.js';

const list = [
  { id: 'a', name: 'first' },
  { id: 'b', name: 'second' },
  { id: 'c', name: 'third' },
];

describe('upsertById', () => {
  it('replaces the entry with the same id in place, keeping the order and the others', () => {
    const result = upsertById(list, { id: 'b', name: 'changed' });
    expect(result).toEqual([
      { id: 'a', name: 'first' },
      { id: 'b', name: 'changed' },
      { id: 'c', name: 'third' },
    ]);
    expect(result[0]).toBe(list[0]);
    expect(list[1]).toEqual({ id: 'b', name: 'second' });
  });

  it('appends an entry whose id is new', () => {
    expect(upsertById(list, { id: 'd', name: 'fourth' }).map((entry) => entry.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(list).toHaveLength(3);
  });

  it('starts a list that was not loaded yet', () => {
    expect(upsertById(null, { id: 'a', name: 'first' })).toEqual([{ id: 'a', name: 'first' }]);
  });

  it('leaves the list as it was when there is no entry (a failed action)', () => {
    expect(upsertById(list, undefined)).toBe(list);
    expect(upsertById(null, undefined)).toEqual([]);
  });
});
