import { describe, expect, it } from 'vitest';
import { DomainError } from '../../main/common/errors.js';
import { decodeCursor, encodeCursor } from '../../main/http/shared/cursor.js';

function rejectionOf(list: string, cursor: string): unknown {
  try {
    decodeCursor(list, cursor);
    return null;
  } catch (error) {
    return error;
  }
}

const base64url = (value: string) => Buffer.from(value, 'utf8').toString('base64url');

describe('cursors', () => {
  it('round-trip the last id seen for the list they belong to', () => {
    for (const id of [0, 1, 25, 123_456, Number.MAX_SAFE_INTEGER]) {
      const cursor = encodeCursor('cases', id);
      expect(cursor).toEqual(expect.any(String));
      expect(decodeCursor('cases', cursor ?? undefined)).toBe(id);
    }
  });

  it('are opaque URL-safe strings', () => {
    const cursor = encodeCursor('case-documents:7', 42) ?? '';
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('42');
  });

  it('are null at the end of a list, and no cursor means the first page', () => {
    expect(encodeCursor('cases', null)).toBeNull();
    expect(decodeCursor('cases', undefined)).toBeUndefined();
  });

  it.each([
    ['a cursor of another list', 'cases', encodeCursor('case-documents:1', 5) ?? ''],
    ['a cursor of another case\'s documents', 'case-documents:2', encodeCursor('case-documents:1', 5) ?? ''],
    ['garbage', 'cases', 'not a cursor!'],
    ['base64 of non-JSON', 'cases', base64url('hello')],
    ['a JSON array', 'cases', base64url('[1,2]')],
    ['JSON null', 'cases', base64url('null')],
    ['a missing id', 'cases', base64url('{"l":"cases"}')],
    ['a string id', 'cases', base64url('{"l":"cases","a":"5"}')],
    ['a negative id', 'cases', base64url('{"l":"cases","a":-1}')],
    ['a fractional id', 'cases', base64url('{"l":"cases","a":1.5}')],
    ['an unsafe integer id', 'cases', base64url('{"l":"cases","a":1e300}')],
    ['an empty string', 'cases', ''],
  ])('reject %s with validation_error naming the cursor', (_label, list, cursor) => {
    const error = rejectionOf(list, cursor);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    expect((error as DomainError).details).toEqual([expect.objectContaining({ field: 'cursor' })]);
  });
});
