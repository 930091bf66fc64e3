import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case, CASE_ACTIONS, CASE_STATUSES, type CaseAction, type CaseStatus } from '../../main/common/schemas/cases.js';
import { Me } from '../../main/common/schemas/me.js';
import { CASE_TRANSITIONS } from '../../main/services/cases.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import {
  auditOf,
  dataOf,
  detailFields,
  errorOf,
  eventsOf,
  manualClock,
  orgId,
  pageOf,
  requestIdOf,
  tableCounts,
  type Page,
  type Response,
} from '../helpers/integration-support.js';

/** The workflow as docs/api.md documents it; CASE_TRANSITIONS must say the same. */
const DOCUMENTED: Record<CaseAction, { from: CaseStatus[]; to: CaseStatus }> = {
  start: { from: ['open', 'rejected'], to: 'in_progress' },
  submit: { from: ['in_progress'], to: 'in_review' },
  approve: { from: ['in_review'], to: 'approved' },
  reject: { from: ['in_review'], to: 'rejected' },
  cancel: { from: ['open', 'in_progress', 'in_review', 'rejected'], to: 'cancelled' },
};

function allowedFrom(status: CaseStatus): CaseAction[] {
  return CASE_ACTIONS.filter((action) => DOCUMENTED[action].from.includes(status));
}

/** Shortest action path from `open` to a status (breadth-first over the documented table). */
function actionsTo(target: CaseStatus): CaseAction[] {
  const queue: { status: CaseStatus; path: CaseAction[] }[] = [{ status: 'open', path: [] }];
  const seen = new Set<CaseStatus>(['open']);
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (next.status === target) return next.path;
    for (const action of allowedFrom(next.status)) {
      const to = DOCUMENTED[action].to;
      if (!seen.has(to)) {
        seen.add(to);
        queue.push({ status: to, path: [...next.path, action] });
      }
    }
  }
  throw new Error(`no path to ${target}`);
}

describe('cases', () => {
  const clock = manualClock('2031-03-01T09:00:00.000Z');
  let instance: TestInstance;

  beforeAll(async () => {
    instance = await startInstance({ clock, config: { rateLimits: { enabled: false } } });
  });
  afterAll(() => instance.close());

  const api = {
    create: (body: unknown) => instance.request({ method: 'POST', url: '/api/v1/cases', body }),
    get: (id: string) => instance.request({ method: 'GET', url: `/api/v1/cases/${id}` }),
    patch: (id: string, body: unknown) => instance.request({ method: 'PATCH', url: `/api/v1/cases/${id}`, body }),
    remove: (id: string) => instance.request({ method: 'DELETE', url: `/api/v1/cases/${id}` }),
    act: (id: string, action: unknown) => instance.request({ method: 'POST', url: `/api/v1/cases/${id}/actions`, body: { action } }),
    list: (query = '') => instance.request({ method: 'GET', url: `/api/v1/cases${query}` }),
  };

  async function newCase(name = 'Records request'): Promise<Case> {
    return dataOf(await api.create({ name }), Case, 201);
  }

  async function fetchCase(id: string): Promise<Case> {
    return dataOf(await api.get(id), Case);
  }

  /** A fresh case brought to `status` through the API (actions, or DELETE for `deleted`). */
  async function caseIn(status: CaseStatus): Promise<Case> {
    const created = await newCase(`case in ${status}`);
    if (status === 'deleted') {
      expect((await api.remove(created.id)).statusCode).toBe(204);
    } else {
      for (const action of actionsTo(status)) dataOf(await api.act(created.id, action), Case);
    }
    const reached = await fetchCase(created.id);
    expect(reached.status).toBe(status);
    return reached;
  }

  /** Every case id of the list, walking all pages. */
  async function listedIds(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<Case> = pageOf(await api.list(`?limit=100${cursor ? `&cursor=${cursor}` : ''}`), Case);
      ids.push(...page.data.map((item) => item.id));
      cursor = page.cursor;
    } while (cursor);
    return ids;
  }

  describe('create, read, list', () => {
    it('creates a case (201) with defaults and stores what it returns', async () => {
      const response = await api.create({ name: 'Request 2031-17' });
      const created = dataOf(response, Case, 201);
      expect(created).toMatchObject({
        name: 'Request 2031-17',
        description: '',
        status: 'open',
        priority: 'normal',
        dueDate: null,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
        deleted_at: null,
      });
      expect(created.id).toMatch(/^[1-9][0-9]*$/);
      const row = await instance.runtime.db.selectFrom('cases').selectAll().where('id', '=', Number(created.id)).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ organization_id: orgId(instance), name: 'Request 2031-17', status: 'open', priority: 'normal', deleted_at: null });
    });

    it('accepts every documented create field', async () => {
      const body = { name: '  Trimmed name  ', description: 'All emails from March', priority: 'urgent', dueDate: '2031-04-15' };
      const created = dataOf(await api.create(body), Case, 201);
      expect(created).toMatchObject({ name: 'Trimmed name', description: 'All emails from March', priority: 'urgent', dueDate: '2031-04-15' });
      expect(await fetchCase(created.id)).toEqual(created);
    });

    it('gets a case by id, and 404 for an id that does not exist', async () => {
      const created = await newCase('Findable');
      expect(await fetchCase(created.id)).toEqual(created);
      const error = errorOf(await api.get('987654321'), 404, 'resource_not_found');
      expect(error.message).toMatch(/case/);
    });

    it('lists the created cases, oldest first', async () => {
      const first = await newCase('List A');
      const second = await newCase('List B');
      const ids = await listedIds();
      expect(ids).toContain(first.id);
      expect(ids).toContain(second.id);
      expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
      expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    });
  });

  describe('patch', () => {
    it('changes only the fields sent and moves updated_at', async () => {
      const created = dataOf(await api.create({ name: 'Patch me', description: 'before', priority: 'low' }), Case, 201);
      clock.advance(5_000);
      const patched = dataOf(await api.patch(created.id, { description: 'after', dueDate: '2031-06-01T12:00:00+02:00' }), Case);
      expect(patched).toEqual({
        ...created,
        description: 'after',
        dueDate: '2031-06-01T12:00:00+02:00',
        updated_at: clock.now().toISOString(),
      });
      expect(await fetchCase(created.id)).toEqual(patched);
    });

    it('clears dueDate with null and changes priority and name', async () => {
      const created = dataOf(await api.create({ name: 'Due', dueDate: '2031-05-05' }), Case, 201);
      const patched = dataOf(await api.patch(created.id, { dueDate: null, priority: 'high', name: 'Renamed' }), Case);
      expect(patched).toMatchObject({ dueDate: null, priority: 'high', name: 'Renamed', status: 'open' });
    });

    it('answers 404 for an absent case', async () => {
      errorOf(await api.patch('987654321', { description: 'x' }), 404, 'resource_not_found');
    });
  });

  describe('soft delete', () => {
    it('answers 204, sets status deleted, hides the case from the list, keeps GET working, and is repeat-safe', async () => {
      const created = await newCase('Delete me');
      const other = await newCase('Keep me');
      clock.advance(1_000);
      const deletedAt = clock.now().toISOString();

      const response = await api.remove(created.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      requestIdOf(response);

      const gone = await fetchCase(created.id);
      expect(gone).toEqual({ ...created, status: 'deleted', deleted_at: deletedAt, updated_at: deletedAt, clock: { ...created.clock, state: 'closed' } });
      const ids = await listedIds();
      expect(ids).not.toContain(created.id);
      expect(ids).toContain(other.id);

      const before = await tableCounts(instance);
      clock.advance(1_000);
      const again = await api.remove(created.id);
      expect(again.statusCode).toBe(204);
      expect(await fetchCase(created.id)).toEqual(gone);
      expect(await tableCounts(instance)).toEqual(before);
      expect((await eventsOf(instance, 'case', created.id)).map((event) => event.type)).toEqual(['case.created', 'case.deleted']);
    });

    it('answers 404 when deleting an absent case', async () => {
      errorOf(await api.remove('987654321'), 404, 'resource_not_found');
    });

    it('refuses PATCH of a deleted case with 409 conflict and changes nothing', async () => {
      const deleted = await caseIn('deleted');
      errorOf(await api.patch(deleted.id, { description: 'too late' }), 409, 'conflict');
      expect(await fetchCase(deleted.id)).toEqual(deleted);
    });
  });

  describe('workflow actions', () => {
    it('CASE_TRANSITIONS is the documented table', () => {
      const normalise = (table: Readonly<Record<CaseAction, { from: readonly CaseStatus[]; to: CaseStatus }>>) =>
        Object.fromEntries(CASE_ACTIONS.map((action) => [action, { from: [...table[action].from].sort(), to: table[action].to }]));
      expect(normalise(CASE_TRANSITIONS)).toEqual(normalise(DOCUMENTED));
    });

    const combinations = CASE_STATUSES.flatMap((status) => CASE_ACTIONS.map((action) => ({ status, action })));

    it.each(combinations)('$action from $status', async ({ status, action }) => {
      const start = await caseIn(status);
      const eventsBefore = await eventsOf(instance, 'case', start.id);
      const response = await api.act(start.id, action);
      if (DOCUMENTED[action].from.includes(status)) {
        const moved = dataOf(response, Case);
        expect(moved.status).toBe(DOCUMENTED[action].to);
        expect(await fetchCase(start.id)).toEqual(moved);
        const events = await eventsOf(instance, 'case', start.id);
        expect(events).toHaveLength(eventsBefore.length + 1);
        expect(events.at(-1)).toMatchObject({ type: 'case.status_changed', payload: { previous_status: status, action, case: moved } });
      } else {
        const error = errorOf(response, 409, 'invalid_transition');
        expect(error.details).toEqual({ status, allowed_actions: allowedFrom(status) });
        expect(await fetchCase(start.id)).toEqual(start);
        expect(await eventsOf(instance, 'case', start.id)).toEqual(eventsBefore);
      }
    });

    it('answers 404 for an action on an absent case', async () => {
      errorOf(await api.act('987654321', 'start'), 404, 'resource_not_found');
    });
  });

  describe('PATCH status follows the same table', () => {
    const reachable = (from: CaseStatus, to: CaseStatus) => CASE_ACTIONS.some((action) => DOCUMENTED[action].to === to && DOCUMENTED[action].from.includes(from));
    const combinations = CASE_STATUSES.flatMap((from) => CASE_STATUSES.map((to) => ({ from, to })));

    it.each(combinations)('$from → $to', async ({ from, to }) => {
      const start = await caseIn(from);
      const eventsBefore = await eventsOf(instance, 'case', start.id);
      const response = await api.patch(start.id, { status: to });
      if (from === 'deleted') {
        errorOf(response, 409, 'conflict');
        expect(await fetchCase(start.id)).toEqual(start);
      } else if (from === to) {
        expect(dataOf(response, Case).status).toBe(from);
        const events = await eventsOf(instance, 'case', start.id);
        expect(events.filter((event) => event.type === 'case.status_changed')).toHaveLength(
          eventsBefore.filter((event) => event.type === 'case.status_changed').length,
        );
      } else if (reachable(from, to)) {
        const moved = dataOf(response, Case);
        expect(moved.status).toBe(to);
        expect(await fetchCase(start.id)).toEqual(moved);
        const events = await eventsOf(instance, 'case', start.id);
        expect(events.slice(eventsBefore.length).map((event) => event.type)).toEqual(['case.status_changed']);
        expect(events.at(-1)?.payload).toMatchObject({ previous_status: from, case: { status: to } });
      } else {
        const error = errorOf(response, 409, 'invalid_transition');
        expect(error.details).toEqual({ status: from, allowed_actions: allowedFrom(from) });
        expect(await fetchCase(start.id)).toEqual(start);
        expect(await eventsOf(instance, 'case', start.id)).toEqual(eventsBefore);
      }
    });

    it('a refused status change in a PATCH also drops the other fields of that PATCH', async () => {
      const start = await caseIn('approved');
      errorOf(await api.patch(start.id, { status: 'open', description: 'should not stick' }), 409, 'invalid_transition');
      expect(await fetchCase(start.id)).toEqual(start);
    });
  });

  describe('validation', () => {
    type Case400 = { name: string; send: () => Promise<Response>; fields: string[] };
    let existing: Case;
    beforeAll(async () => {
      existing = await newCase('Validation target');
    });

    const rows: Case400[] = [
      { name: 'create without name', send: () => api.create({}), fields: ['name'] },
      { name: 'create with empty name', send: () => api.create({ name: '' }), fields: ['name'] },
      { name: 'create with blank name', send: () => api.create({ name: '   ' }), fields: ['name'] },
      { name: 'create with numeric name', send: () => api.create({ name: 42 }), fields: ['name'] },
      { name: 'create with too long name', send: () => api.create({ name: 'n'.repeat(501) }), fields: ['name'] },
      { name: 'create with non-string description', send: () => api.create({ name: 'ok', description: ['x'] }), fields: ['description'] },
      { name: 'create with unknown priority', send: () => api.create({ name: 'ok', priority: 'whenever' }), fields: ['priority'] },
      { name: 'create with non-ISO dueDate', send: () => api.create({ name: 'ok', dueDate: 'next tuesday' }), fields: ['dueDate'] },
      { name: 'create with two bad fields', send: () => api.create({ name: '', priority: 'soon' }), fields: ['name', 'priority'] },
      { name: 'create with an array body', send: () => api.create([{ name: 'x' }]), fields: ['body'] },
      { name: 'patch with unknown status', send: () => api.patch(existing.id, { status: 'archived' }), fields: ['status'] },
      { name: 'patch with impossible date', send: () => api.patch(existing.id, { dueDate: '2031-13-45' }), fields: ['dueDate'] },
      { name: 'patch with numeric description', send: () => api.patch(existing.id, { description: 7 }), fields: ['description'] },
      { name: 'action missing', send: () => instance.request({ method: 'POST', url: `/api/v1/cases/${existing.id}/actions`, body: {} }), fields: ['action'] },
      { name: 'action unknown', send: () => api.act(existing.id, 'explode'), fields: ['action'] },
      { name: 'list limit not a number', send: () => api.list('?limit=many'), fields: ['limit'] },
    ];

    it.each(rows)('$name → 400 naming $fields', async ({ send, fields }) => {
      const before = await tableCounts(instance);
      const error = errorOf(await send(), 400, 'validation_error');
      const named = detailFields(error);
      for (const field of fields) expect(named).toContain(field);
      expect(await tableCounts(instance)).toEqual(before);
      expect(await fetchCase(existing.id)).toEqual(existing);
    });

    // An id that cannot name a case names no case of the caller's organization: the spec's lookup answer.
    it.each([
      { name: 'non-numeric case id', id: 'abc' },
      { name: 'zero case id', id: '0' },
      { name: 'leading-zero case id', id: '012' },
      { name: '17-digit case id', id: '1'.repeat(17) },
    ])('$name → 404 resource_not_found, nothing changed', async ({ id }) => {
      const before = await tableCounts(instance);
      errorOf(await api.get(id), 404, 'resource_not_found');
      expect(await tableCounts(instance)).toEqual(before);
      expect(await fetchCase(existing.id)).toEqual(existing);
    });

    it('an empty PATCH is 400 and changes nothing', async () => {
      const error = errorOf(await api.patch(existing.id, {}), 400, 'validation_error');
      expect(error.details).toBeInstanceOf(Array);
      expect(await fetchCase(existing.id)).toEqual(existing);
    });

    it('unknown fields are refused and named', async () => {
      const error = errorOf(await api.create({ name: 'ok', colour: 'red' }), 400, 'validation_error');
      expect(JSON.stringify(error)).toContain('colour');
    });
  });

  describe('audit log and outbox', () => {
    let keyId: string;
    beforeAll(async () => {
      keyId = dataOf(await instance.request({ method: 'GET', url: '/api/v1/me' }), Me).api_key.id;
    });

    function bodyRequestId(response: Response): string {
      const id = requestIdOf(response);
      if (response.body !== '') expect((JSON.parse(response.body) as { request_id?: unknown }).request_id).toBe(id);
      return id;
    }

    it('records each change with actor, action, resource and request id, and the matching event', async () => {
      clock.advance(60_000);
      const createdResponse = await api.create({ name: 'Audited' });
      const created = dataOf(createdResponse, Case, 201);
      const updatedResponse = await api.patch(created.id, { description: 'now with text', priority: 'high' });
      const updated = dataOf(updatedResponse, Case);
      const patchedStatusResponse = await api.patch(created.id, { status: 'in_progress' });
      const started = dataOf(patchedStatusResponse, Case);
      const submittedResponse = await api.act(created.id, 'submit');
      const submitted = dataOf(submittedResponse, Case);
      const deletedResponse = await api.remove(created.id);
      expect(deletedResponse.statusCode).toBe(204);
      const deleted = await fetchCase(created.id);

      const audit = await auditOf(instance, 'case', created.id);
      expect(audit.map((row) => [row.action, row.request_id])).toEqual([
        ['case.create', bodyRequestId(createdResponse)],
        ['case.update', bodyRequestId(updatedResponse)],
        ['case.status_change', bodyRequestId(patchedStatusResponse)],
        ['case.status_change', bodyRequestId(submittedResponse)],
        ['case.delete', bodyRequestId(deletedResponse)],
      ]);
      for (const row of audit) {
        expect(row).toMatchObject({ actor_type: 'api_key', actor_id: keyId, resource_type: 'case', organization_id: orgId(instance), created_at: clock.now().toISOString() });
      }
      const fields = (details: string | null | undefined) => z.object({ fields: z.array(z.string()) }).parse(JSON.parse(details ?? 'null')).fields.sort();
      expect(fields(audit[1]?.details)).toEqual(['description', 'priority']);
      expect(JSON.parse(audit[3]?.details ?? 'null')).toEqual({ from: 'in_progress', to: 'in_review', action: 'submit' });

      const events = await eventsOf(instance, 'case', created.id);
      expect(events.map((event) => event.type)).toEqual(['case.created', 'case.updated', 'case.status_changed', 'case.status_changed', 'case.deleted']);
      expect(events[0]?.payload).toEqual({ case: created });
      expect(events[1]?.payload).toEqual({ case: updated, changed: expect.arrayContaining(['description', 'priority']) });
      expect(events[1]?.payload.changed).toHaveLength(2);
      expect(events[2]?.payload).toEqual({ case: started, previous_status: 'open' });
      expect(events[3]?.payload).toEqual({ case: submitted, previous_status: 'in_progress', action: 'submit' });
      expect(events[4]?.payload).toEqual({ case: deleted, previous_status: 'in_review' });
      expect(new Set(events.map((event) => event.event_id)).size).toBe(events.length);
      for (const event of events) expect(event.event_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('a PATCH of fields and status writes case.updated and case.status_changed in one request', async () => {
      const created = await newCase('Both');
      const response = await api.patch(created.id, { status: 'cancelled', description: 'withdrawn by requester' });
      dataOf(response, Case);
      const audit = await auditOf(instance, 'case', created.id);
      const requestId = requestIdOf(response);
      expect(audit.filter((row) => row.request_id === requestId).map((row) => row.action)).toEqual(['case.update', 'case.status_change']);
      expect((await eventsOf(instance, 'case', created.id)).map((event) => event.type)).toEqual(['case.created', 'case.updated', 'case.status_changed']);
    });

    it('refused requests write neither audit records nor events', async () => {
      const created = await caseIn('approved');
      const before = await tableCounts(instance);
      errorOf(await api.act(created.id, 'start'), 409, 'invalid_transition');
      errorOf(await api.patch(created.id, { status: 'open' }), 409, 'invalid_transition');
      errorOf(await api.patch(created.id, { priority: 'yesterday' }), 400, 'validation_error');
      expect(await tableCounts(instance)).toEqual(before);
    });

    it("another organization's log holds none of these records", async () => {
      const created = await newCase('Org 1 only');
      expect(await auditOf(instance, 'case', created.id, 1)).toEqual([]);
      expect(await eventsOf(instance, 'case', created.id, 1)).toEqual([]);
      expect(await auditOf(instance, 'case', created.id, 0)).toHaveLength(1);
    });
  });
});
