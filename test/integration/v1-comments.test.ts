import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../main/common/scopes.js';
import { Comment } from '../../main/common/schemas/redactions.js';
import type { TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, pageOf } from '../helpers/integration-support.js';
import { apiKeyIdOf } from '../helpers/rows.js';
import { everyScopeBut, keyWithScopes, newDocument, startUnlimitedInstance, storeCounts } from '../helpers/v1-redactions-support.js';

let instance: TestInstance;
let documentId: string;
let actorId: string;

beforeAll(async () => {
  instance = await startUnlimitedInstance();
  documentId = await newDocument(instance);
  actorId = String(await apiKeyIdOf(instance.runtime.db, keyOf(instance, 0)));
});
afterAll(() => instance.close());

function addComment(document: string, body: unknown, key?: string) {
  return instance.request({ method: 'POST', url: `/api/v1/documents/${document}/comments`, body, ...(key && { key }) });
}

async function comment(document: string, text: string): Promise<Comment> {
  return dataOf(await addComment(document, { text }), Comment, 201);
}

describe('comments', () => {
  it('creates (201) and reads back one comment with its author', async () => {
    const created = await comment(documentId, 'Check page 3 for a phone number');
    expect(created).toMatchObject({ document_id: documentId, text: 'Check page 3 for a phone number', author: { type: 'api_key', id: actorId } });
    const read = dataOf(await instance.request({ method: 'GET', url: `/api/v1/comments/${created.id}` }), Comment);
    expect(read).toEqual(created);
  });

  it.each([
    ['empty text', { text: '' }, 'text'],
    ['blank text', { text: '   ' }, 'text'],
    ['missing text', {}, 'text'],
    ['text that is not a string', { text: 42 }, 'text'],
  ])('400 validation_error for %s; nothing written', async (_name, body, field) => {
    const before = await storeCounts(instance);
    const error = errorOf(await addComment(documentId, body), 400, 'validation_error');
    expect(detailFields(error)).toContain(field);
    expect(await storeCounts(instance)).toEqual(before);
  });

  it('lists a document’s comments page by page, oldest first, each once', async () => {
    const document = await newDocument(instance);
    const texts = ['one', 'two', 'three', 'four', 'five'];
    for (const text of texts) await comment(document, text);
    await comment(documentId, 'on another document');
    const seen: Comment[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `limit=2&cursor=${encodeURIComponent(cursor)}` : 'limit=2';
      const page = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${document}/comments?${query}` }), Comment);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((item) => item.text)).toEqual(texts);
    expect(new Set(seen.map((item) => item.document_id))).toEqual(new Set([document]));
  });

  it('an empty list has a null cursor; a limit over 100 is refused', async () => {
    const document = await newDocument(instance);
    const page = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${document}/comments` }), Comment);
    expect(page).toEqual({ data: [], cursor: null });
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${document}/comments?limit=101` }), 400, 'validation_error');
  });

  it('404 for an unknown comment or document', async () => {
    errorOf(await instance.request({ method: 'GET', url: '/api/v1/comments/999999' }), 404, 'resource_not_found');
    errorOf(await instance.request({ method: 'GET', url: '/api/v1/documents/999999/comments' }), 404, 'resource_not_found');
    errorOf(await addComment('999999', { text: 'hello' }), 404, 'resource_not_found');
  });

  it('writes an audit record and a comment.created event', async () => {
    const created = await comment(documentId, 'audited');
    const audits = await auditOf(instance, 'comment', created.id);
    expect(audits.map((record) => [record.action, record.actor_type, record.actor_id])).toEqual([['comment.create', 'api_key', actorId]]);
    const events = await eventsOf(instance, 'comment', created.id);
    expect(events.map((event) => event.type)).toEqual(['comment.created']);
    expect(events[0]?.payload['comment']).toEqual(created);
  });

  it('replays a retried create with the same Idempotency-Key', async () => {
    const first = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/comments`, body: { text: 'once' }, idempotencyKey: 'comment-once' });
    expect(first.statusCode, first.body).toBe(201);
    const before = await storeCounts(instance);
    const again = await instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/comments`, body: { text: 'once' }, idempotencyKey: 'comment-once' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await storeCounts(instance)).toEqual(before);
  });
});

type Method = 'GET' | 'POST';

const ENDPOINTS: { method: Method; path: string; scope: Scope; prepare: () => Promise<{ url: string; body?: unknown }> }[] = [
  { method: 'GET', path: '/documents/{document_id}/comments', scope: 'comments:read', prepare: async () => ({ url: `/documents/${documentId}/comments` }) },
  { method: 'POST', path: '/documents/{document_id}/comments', scope: 'comments:write', prepare: async () => ({ url: `/documents/${documentId}/comments`, body: { text: 'scoped' } }) },
  { method: 'GET', path: '/comments/{comment_id}', scope: 'comments:read', prepare: async () => ({ url: `/comments/${(await comment(documentId, 'to read')).id}` }) },
];

function call(method: Method, url: string, body: unknown, key: string) {
  return instance.request({ method, url: `/api/v1${url}`, key, ...(body !== undefined && { body }) });
}

describe('scopes', () => {
  it.each(ENDPOINTS)('$method $path: only $scope grants it', async ({ method, scope, prepare }) => {
    const allowed = await prepare();
    const passed = await call(method, allowed.url, allowed.body, await keyWithScopes(instance, [scope]));
    expect([401, 403], passed.body).not.toContain(passed.statusCode);
    expect(passed.statusCode, passed.body).toBeLessThan(300);

    const refused = await prepare();
    const before = await storeCounts(instance);
    errorOf(await call(method, refused.url, refused.body, await keyWithScopes(instance, everyScopeBut(scope))), 403, 'permission_denied');
    expect(await storeCounts(instance)).toEqual(before);
  });
});

describe('isolation: organization 2 cannot reach organization 1', () => {
  it.each([
    { name: 'list', method: 'GET' as const, url: async () => `/documents/${documentId}/comments` },
    { name: 'create', method: 'POST' as const, url: async () => `/documents/${documentId}/comments`, body: { text: 'from org 2' } },
    { name: 'get', method: 'GET' as const, url: async () => `/comments/${(await comment(documentId, 'private')).id}` },
  ])('$name answers 404 resource_not_found and changes nothing', async ({ method, url, body }) => {
    const path = await url();
    const before = await storeCounts(instance);
    errorOf(await call(method, path, body, keyOf(instance, 1)), 404, 'resource_not_found');
    expect(await storeCounts(instance)).toEqual(before);
  });

  it("organization 2 sees only its own comments on its own documents", async () => {
    const theirs = await newDocument(instance, 'pdf', 1);
    const created = dataOf(await addComment(theirs, { text: 'org 2 note' }, keyOf(instance, 1)), Comment, 201);
    errorOf(await instance.request({ method: 'GET', url: `/api/v1/comments/${created.id}` }), 404, 'resource_not_found');
    const listed = pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${theirs}/comments`, key: keyOf(instance, 1) }), Comment);
    expect(listed.data).toEqual([created]);
  });
});
