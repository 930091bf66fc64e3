import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case } from '../../main/common/schemas/cases.js';
import { Document } from '../../main/common/schemas/documents.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { detailFields, errorOf, pageOf, tinyPng, type Page } from '../helpers/integration-support.js';

const Item = z.object({ id: z.string() });

describe('pagination', () => {
  let instance: TestInstance;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
  });
  afterAll(() => instance.close());

  async function getPage(path: string, query: Record<string, string | number> = {}) {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
    const url = search.size > 0 ? `${path}?${search}` : path;
    return instance.request({ method: 'GET', url });
  }

  /** Walks every page; `between` runs after each page (to change the list mid-iteration). */
  async function walk(path: string, limit: number, between?: (pageIndex: number, ids: string[]) => Promise<void>) {
    const ids: string[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (let pageIndex = 0; pageIndex < 1000; pageIndex += 1) {
      const page: Page<{ id: string }> = pageOf(await getPage(path, { limit, ...(cursor && { cursor }) }), Item);
      expect(page.data.length).toBeLessThanOrEqual(limit);
      ids.push(...page.data.map((item) => item.id));
      cursor = page.cursor;
      if (cursor === null) return { ids, cursors };
      expect(page.data).toHaveLength(limit);
      cursors.push(cursor);
      await between?.(pageIndex, page.data.map((item) => item.id));
    }
    throw new Error('the list never ended');
  }

  function expectCursorRefused(response: Awaited<ReturnType<typeof getPage>>) {
    expect(detailFields(errorOf(response, 400, 'validation_error'))).toEqual(['cursor']);
  }

  const ascending = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b));

  describe('GET /cases', () => {
    const existing: string[] = [];
    beforeAll(async () => {
      for (let index = 0; index < 60; index += 1) existing.push(await createCase(instance, `Paged case ${index}`));
    });

    it('defaults to 25 items with a cursor', async () => {
      const page = pageOf(await getPage('/api/v1/cases'), Case);
      expect(page.data.map((item) => item.id)).toEqual(existing.slice(0, 25));
      expect(page.cursor).toEqual(expect.any(String));
    });

    it('returns up to 100 items; cursor is null when nothing follows', async () => {
      const page = pageOf(await getPage('/api/v1/cases', { limit: 100 }), Case);
      expect(page.data.map((item) => item.id)).toEqual(existing);
      expect(page.cursor).toBeNull();
    });

    it('cursor is null on a last page that is exactly full', async () => {
      const first = pageOf(await getPage('/api/v1/cases', { limit: 30 }), Case);
      expect(first.cursor).not.toBeNull();
      const second = pageOf(await getPage('/api/v1/cases', { limit: 30, cursor: first.cursor ?? '' }), Case);
      expect(second.data.map((item) => item.id)).toEqual(existing.slice(30));
      expect(second.cursor).toBeNull();
    });

    it('cursor is null on a short last page', async () => {
      const { ids, cursors } = await walk('/api/v1/cases', 59);
      expect(ids).toEqual(existing);
      expect(cursors).toHaveLength(1);
    });

    it.each([101, 1000, 0, -1, 2.5, 'ten', ''])('limit=%s → 400 validation_error naming limit', async (limit) => {
      expect(detailFields(errorOf(await getPage('/api/v1/cases', { limit }), 400, 'validation_error'))).toEqual(['limit']);
    });

    it('limit 1 and 100 are accepted', async () => {
      expect(pageOf(await getPage('/api/v1/cases', { limit: 1 }), Case).data).toHaveLength(1);
      expect(pageOf(await getPage('/api/v1/cases', { limit: 100 }), Case).data).toHaveLength(60);
    });

    it('cursors are opaque tokens, different on every page', async () => {
      const { cursors } = await walk('/api/v1/cases', 10);
      expect(cursors).toHaveLength(5);
      expect(new Set(cursors).size).toBe(cursors.length);
      for (const cursor of cursors) {
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(existing).not.toContain(cursor);
      }
    });

    it('walking every page while rows are inserted and deleted yields each pre-existing row once, in order', async () => {
      const before = pageOf(await getPage('/api/v1/cases', { limit: 100 }), Case).data.map((item) => item.id);
      const inserted: string[] = [];
      const deleted: string[] = [];
      const { ids } = await walk('/api/v1/cases', 7, async (pageIndex, pageIds) => {
        inserted.push(await createCase(instance, `Inserted during page ${pageIndex} (a)`));
        inserted.push(await createCase(instance, `Inserted during page ${pageIndex} (b)`));
        // Deleting the row the cursor points at must not lose the rows after it.
        if (pageIndex === 2) {
          const last = pageIds.at(-1) ?? '';
          expect((await instance.request({ method: 'DELETE', url: `/api/v1/cases/${last}` })).statusCode).toBe(204);
          deleted.push(last);
        }
      });
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(ascending(ids));
      expect(ids.filter((id) => before.includes(id))).toEqual(before);
      // Lists are oldest first, so rows inserted behind the cursor are reached too.
      expect(ids.filter((id) => !before.includes(id))).toEqual(inserted);
      expect(deleted).toHaveLength(1);
      expect(pageOf(await getPage('/api/v1/cases', { limit: 100 }), Case).data.map((item) => item.id)).not.toContain(deleted[0]);
    });

    it.each([
      ['not base64 JSON', 'garbage!'],
      ['base64 of plain text', Buffer.from('hello').toString('base64url')],
      ['a JSON array', Buffer.from('[1,2]').toString('base64url')],
      ['a negative id', Buffer.from(JSON.stringify({ l: 'cases', a: -1 })).toString('base64url')],
      ['a string id', Buffer.from(JSON.stringify({ l: 'cases', a: '5' })).toString('base64url')],
      ['a fractional id', Buffer.from(JSON.stringify({ l: 'cases', a: 1.5 })).toString('base64url')],
      ['no list name', Buffer.from(JSON.stringify({ a: 5 })).toString('base64url')],
      ['too long', 'A'.repeat(600)],
    ])('a bad cursor (%s) → 400 naming cursor', async (_label, cursor) => {
      expectCursorRefused(await getPage('/api/v1/cases', { cursor }));
    });

    it('an empty cursor is refused', async () => {
      expect(detailFields(errorOf(await instance.request({ method: 'GET', url: '/api/v1/cases?cursor=' }), 400, 'validation_error'))).toEqual([
        'cursor',
      ]);
    });
  });

  describe('GET /cases/{id}/documents', () => {
    let caseId: string;
    let otherCaseId: string;
    let documents: string[];

    async function addDocuments(forCase: string, count: number): Promise<string[]> {
      const files = Array.from({ length: count }, (_, index) => ({ name: `page-${index}.png`, bytes: tinyPng() }));
      return (await uploadDocuments(instance, forCase, files)).map((document) => document.id);
    }

    beforeAll(async () => {
      caseId = await createCase(instance, 'Many documents');
      otherCaseId = await createCase(instance, 'Other documents');
      await addDocuments(otherCaseId, 3);
      documents = await addDocuments(caseId, 27);
    });

    it('defaults to 25 items; the next page ends with cursor null', async () => {
      const first = pageOf(await getPage(`/api/v1/cases/${caseId}/documents`), Document);
      expect(first.data.map((item) => item.id)).toEqual(documents.slice(0, 25));
      for (const item of first.data) expect(item.case_id).toBe(caseId);
      const second = pageOf(await getPage(`/api/v1/cases/${caseId}/documents`, { cursor: first.cursor ?? '' }), Document);
      expect(second.data.map((item) => item.id)).toEqual(documents.slice(25));
      expect(second.cursor).toBeNull();
    });

    it('limit 101 → 400', async () => {
      expect(detailFields(errorOf(await getPage(`/api/v1/cases/${caseId}/documents`, { limit: 101 }), 400, 'validation_error'))).toEqual(['limit']);
    });

    it('walking while documents are uploaded mid-iteration yields every earlier document once', async () => {
      const inserted: string[] = [];
      const { ids } = await walk(`/api/v1/cases/${caseId}/documents`, 4, async () => {
        inserted.push(...(await addDocuments(caseId, 1)));
        // A document of another case must never show up in this list.
        await addDocuments(otherCaseId, 1);
      });
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(ascending(ids));
      expect(ids.filter((id) => documents.includes(id))).toEqual(documents);
      expect(ids.filter((id) => !documents.includes(id))).toEqual(inserted);
      documents = ids;
    });

    it('deleted documents leave the list without breaking a walk', async () => {
      const first = pageOf(await getPage(`/api/v1/cases/${caseId}/documents`, { limit: 5 }), Document);
      const cursorRow = first.data.at(-1)?.id ?? '';
      expect((await instance.request({ method: 'DELETE', url: `/api/v1/documents/${cursorRow}` })).statusCode).toBe(204);
      const rest = await walk(`/api/v1/cases/${caseId}/documents`, 100);
      expect(rest.ids).toEqual(documents.filter((id) => id !== cursorRow));
      const next = pageOf(await getPage(`/api/v1/cases/${caseId}/documents`, { limit: 5, cursor: first.cursor ?? '' }), Document);
      expect(next.data.map((item) => item.id)).toEqual(documents.slice(5, 10));
    });

    it('a cursor of another list is refused with 400', async () => {
      const casesCursor = pageOf(await getPage('/api/v1/cases', { limit: 1 }), Case).cursor;
      const documentsCursor = pageOf(await getPage(`/api/v1/cases/${caseId}/documents`, { limit: 1 }), Document).cursor;
      const otherCaseCursor = pageOf(await getPage(`/api/v1/cases/${otherCaseId}/documents`, { limit: 1 }), Document).cursor;
      if (!casesCursor || !documentsCursor || !otherCaseCursor) throw new Error('expected cursors on every list');
      expectCursorRefused(await getPage(`/api/v1/cases/${caseId}/documents`, { cursor: casesCursor }));
      expectCursorRefused(await getPage('/api/v1/cases', { cursor: documentsCursor }));
      expectCursorRefused(await getPage(`/api/v1/cases/${caseId}/documents`, { cursor: otherCaseCursor }));
      expectCursorRefused(await getPage(`/api/v1/cases/${otherCaseId}/documents`, { cursor: documentsCursor }));
    });

    it('a bad cursor → 400', async () => {
      expectCursorRefused(await getPage(`/api/v1/cases/${caseId}/documents`, { cursor: 'not-a-cursor' }));
    });
  });
});
