import { DomainError } from '../../common/errors.js';

// Cursors are opaque to clients: base64url JSON naming the list they belong to and the last id seen.
// Keyset (not offset) paging means rows inserted mid-iteration cause no duplicates or gaps.

export function encodeCursor(list: string, afterId: number | null): string | null {
  if (afterId === null) return null;
  return Buffer.from(JSON.stringify({ l: list, a: afterId }), 'utf8').toString('base64url');
}

export function decodeCursor(list: string, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const invalid = () => new DomainError('validation_error', 'cursor is not valid for this list', [{ field: 'cursor', location: 'querystring', message: 'pass back a cursor returned by this list' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!parsed || typeof parsed !== 'object') throw invalid();
  const { l, a } = parsed as { l?: unknown; a?: unknown };
  if (l !== list || typeof a !== 'number' || !Number.isSafeInteger(a) || a < 0) throw invalid();
  return a;
}
