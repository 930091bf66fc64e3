import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case } from '../../main/common/schemas/cases.js';
import { CaseClock, ClockSettings } from '../../main/common/schemas/request-clock.js';
import { ReleaseSettings } from '../../main/common/schemas/releases.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, errorOf, manualClock, orgId, pageOf, tableCounts, type Page } from '../helpers/integration-support.js';

// The request's statutory clock through the API (docs/api.md, Request clock). "Today" is 25 November 2026.
describe('request clock', () => {
  const clock = manualClock('2026-11-25T12:00:00.000Z');
  let instance: TestInstance;

  beforeAll(async () => {
    instance = await startInstance({ clock, config: { rateLimits: { enabled: false } } });
  });
  afterAll(() => instance.close());

  const api = {
    create: (body: unknown) => instance.request({ method: 'POST', url: '/api/v1/cases', body }),
    get: (id: string) => instance.request({ method: 'GET', url: `/api/v1/cases/${id}` }),
    patch: (id: string, body: unknown) => instance.request({ method: 'PATCH', url: `/api/v1/cases/${id}`, body }),
    event: (id: string, body: unknown) => instance.request({ method: 'POST', url: `/api/v1/cases/${id}/clock/events`, body }),
    clock: (id: string) => instance.request({ method: 'GET', url: `/api/v1/cases/${id}/clock` }),
    settings: (body: unknown) => instance.request({ method: 'PATCH', url: '/api/v1/clock-settings', body }),
    list: (query: string) => instance.request({ method: 'GET', url: `/api/v1/cases${query}` }),
  };

  let requestCase: Case;

  it('computes the due date from the received date: 20 business days by default', async () => {
    const requester = { name: 'Dana Whitfield', email: 'dana@example.org', phone: '555-0100', address: '1 Main St' };
    requestCase = dataOf(await api.create({ name: 'Permit records', receivedDate: '2026-11-02', requester }), Case, 201);
    expect(requestCase).toMatchObject({ receivedDate: '2026-11-02', dueDate: '2026-11-30', timeLimitDays: null, requester });
    expect(requestCase.clock).toMatchObject({ state: 'running', time_limit_days: 20, due_date: '2026-11-30', days_left: 3, overdue: false, tolled_days: 0, extension_days: 0 });
    expect(dataOf(await api.get(requestCase.id), Case).clock.days_left).toBe(3);
  });

  it('refuses a hand-set due date beside a received date, and changes nothing', async () => {
    const before = await tableCounts(instance);
    const error = errorOf(await api.create({ name: 'Both', receivedDate: '2026-11-02', dueDate: '2026-12-01' }), 400, 'validation_error');
    expect(error.message).toMatch(/computed from receivedDate/);
    expect(await tableCounts(instance)).toEqual(before);
    errorOf(await api.patch(requestCase.id, { dueDate: '2026-12-24' }), 400, 'validation_error');
    errorOf(await api.create({ name: 'Bad day', receivedDate: '2026-02-30' }), 400, 'validation_error');
  });

  it('follows the organization time limit and holidays, and audits the change', async () => {
    const settings = dataOf(await api.settings({ holidays: ['2026-11-26', '2026-11-11', '2026-11-26'] }), ClockSettings);
    expect(settings).toMatchObject({ time_limit_days: 20, holidays: ['2026-11-11', '2026-11-26'] });
    expect(dataOf(await api.get(requestCase.id), Case).dueDate).toBe('2026-12-02');
    const audit = await auditOf(instance, 'clock_settings', String(orgId(instance)));
    expect(audit.map((row) => row.action)).toEqual(['clock_settings.update']);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ holidays_added: ['2026-11-11', '2026-11-26'], holidays_removed: [] });
    errorOf(await api.settings({ time_limit_days: 0 }), 400, 'validation_error');
    errorOf(await api.settings({ holidays: ['next tuesday'] }), 400, 'validation_error');
  });

  it('pauses with a reason, freezes the days left, resumes and moves the due date by the tolled business days', async () => {
    errorOf(await api.event(requestCase.id, { kind: 'toll' }), 400, 'validation_error');
    errorOf(await api.event(requestCase.id, { kind: 'toll', reason: 'later', on_date: '2026-11-30' }), 400, 'validation_error');
    errorOf(await api.event(requestCase.id, { kind: 'resume' }), 409, 'conflict');
    const tolled = dataOf(await api.event(requestCase.id, { kind: 'toll', reason: 'Asked the requester to narrow the request', on_date: '2026-11-09' }), CaseClock, 201);
    expect(tolled.clock).toMatchObject({ state: 'tolled', tolled_since: '2026-11-09', toll_reason: 'Asked the requester to narrow the request', due_date: null, days_left: 16 });
    expect(dataOf(await api.get(requestCase.id), Case).dueDate).toBeNull();
    errorOf(await api.event(requestCase.id, { kind: 'toll', reason: 'again' }), 409, 'conflict');
    errorOf(await api.event(requestCase.id, { kind: 'resume', on_date: '2026-11-06' }), 400, 'validation_error');
    const resumed = dataOf(await api.event(requestCase.id, { kind: 'resume', on_date: '2026-11-16', reason: 'Requester answered' }), CaseClock, 201);
    // 9–13 November stood still (11 November is a holiday anyway); Thanksgiving still counts against it.
    expect(resumed.clock).toMatchObject({ state: 'running', due_date: '2026-12-08', tolled_days: 4, tolled_since: null });
    expect(resumed.events.map((event) => event.kind)).toEqual(['toll', 'resume']);
  });

  it('extends by business days with a reason; every clock change is in the case history', async () => {
    errorOf(await api.event(requestCase.id, { kind: 'extend', days: 0, reason: 'x' }), 400, 'validation_error');
    errorOf(await api.event(requestCase.id, { kind: 'extend', days: 10 }), 400, 'validation_error');
    const extended = dataOf(await api.event(requestCase.id, { kind: 'extend', days: 10, reason: 'Unusual circumstances: voluminous records' }), CaseClock, 201);
    expect(extended.clock).toMatchObject({ due_date: '2026-12-22', extension_days: 10 });
    const actions = (await auditOf(instance, 'case', requestCase.id)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['case.clock_toll', 'case.clock_resume', 'case.clock_extend']));
    const toll = (await auditOf(instance, 'case', requestCase.id)).find((row) => row.action === 'case.clock_toll');
    expect(JSON.parse(toll?.details ?? '{}')).toMatchObject({ on_date: '2026-11-09', reason: 'Asked the requester to narrow the request' });
  });

  it('a case without a received date has no clock to pause', async () => {
    const plain = dataOf(await api.create({ name: 'No clock', dueDate: '2026-11-20' }), Case, 201);
    expect(plain.clock).toMatchObject({ state: 'none', due_date: null, days_left: null, overdue: true });
    errorOf(await api.event(plain.id, { kind: 'toll', reason: 'x' }), 409, 'conflict');
  });

  it('filters overdue, due-before and released cases and sorts by due date with undated cases last', async () => {
    const late = dataOf(await api.create({ name: 'Late one', receivedDate: '2026-10-01' }), Case, 201);
    expect(late.clock).toMatchObject({ overdue: true, state: 'running' });
    expect(late.clock.days_left).toBeLessThan(0);
    const soon = dataOf(await api.create({ name: 'Soon', receivedDate: '2026-11-20', timeLimitDays: 5 }), Case, 201);
    expect(soon.dueDate).toBe('2026-11-30'); // 26 November is a holiday
    const undated = dataOf(await api.create({ name: 'Undated' }), Case, 201);

    const overdue = pageOf(await api.list('?overdue=true&limit=100'), Case).data.map((item) => item.name);
    expect(overdue).toEqual(expect.arrayContaining(['Late one', 'No clock']));
    expect(overdue).not.toContain('Soon');
    const notOverdue = pageOf(await api.list('?overdue=false&limit=100'), Case).data.map((item) => item.name);
    expect(notOverdue).toEqual(expect.arrayContaining(['Soon', 'Undated', 'Permit records']));
    expect(notOverdue).not.toContain('Late one');
    const dueSoon = pageOf(await api.list('?due_before=2026-12-01&overdue=false&limit=100'), Case).data.map((item) => item.name);
    expect(dueSoon).toEqual(['Soon']);

    // Walking the due-date order one case per page gives the same order as one page.
    const whole = pageOf(await api.list('?sort=due_date&limit=100'), Case).data.map((item) => item.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<Case> = pageOf(await api.list(`?sort=due_date&limit=1${cursor ? `&cursor=${cursor}` : ''}`), Case);
      walked.push(...page.data.map((item) => item.id));
      cursor = page.cursor;
    } while (cursor);
    expect(walked).toEqual(whole);
    expect(whole.indexOf(late.id)).toBeLessThan(whole.indexOf(soon.id));
    expect(whole.indexOf(soon.id)).toBeLessThan(whole.indexOf(requestCase.id));
    expect(whole.at(-1)).toBe(undated.id);

    const firstPage = pageOf(await api.list('?limit=1'), Case);
    errorOf(await api.list(`?sort=due_date&cursor=${firstPage.cursor}`), 400, 'validation_error');
    expect(pageOf(await api.list('?released=true'), Case).data).toEqual([]);
    expect(pageOf(await api.list('?status=open&limit=100'), Case).data.length).toBeGreaterThan(3);
    const badStatus = errorOf(await api.list('?status=open,shipped'), 400, 'validation_error');
    expect(JSON.stringify(badStatus)).toMatch(/shipped/);
  });

  it('an approved, released case has answered the request: the clock stops and the case reads released', async () => {
    await instance.runtime.db.updateTable('cases').set({ status: 'approved', last_release_number: 1, last_released_at: '2026-11-25T12:00:00.000Z' }).where('id', '=', Number(requestCase.id)).execute();
    // Written behind the query module's back: a later write through the API refreshes the case cache.
    dataOf(await api.patch(requestCase.id, { priority: 'high' }), Case);
    const released = dataOf(await api.get(requestCase.id), Case);
    expect(released.release).toEqual({ number: 1, released_at: '2026-11-25T12:00:00.000Z' });
    expect(released.clock).toMatchObject({ state: 'answered', days_left: null, overdue: false });
    expect(pageOf(await api.list('?released=true'), Case).data.map((item) => item.id)).toEqual([requestCase.id]);
    errorOf(await api.event(requestCase.id, { kind: 'extend', days: 1, reason: 'late' }), 409, 'conflict');
  });

  it('records field changes from → to in the history, naming but not copying the requester', async () => {
    dataOf(await api.patch(requestCase.id, { timeLimitDays: 30, requester: { name: 'D. Whitfield' } }), Case);
    const update = (await auditOf(instance, 'case', requestCase.id)).filter((row) => row.action === 'case.update').at(-1);
    const details = z.object({ fields: z.array(z.string()), changes: z.record(z.string(), z.unknown()) }).parse(JSON.parse(update?.details ?? '{}'));
    expect(details.fields).toEqual(['timeLimitDays', 'requester']);
    expect(details.changes).toEqual({ timeLimitDays: { from: null, to: 30 } });
    expect(update?.details).not.toMatch(/Whitfield/);
  });

  it('keeps the letterhead and appeal-rights paragraph of the cover letter in the release settings', async () => {
    const patch = (body: unknown) => instance.request({ method: 'PATCH', url: '/api/v1/release-settings', body });
    const set = dataOf(await patch({ letterhead: 'City of Springfield\nOffice of Public Records', appeal_rights: 'You may appeal within 90 days.' }), ReleaseSettings);
    expect(set).toMatchObject({ letterhead: 'City of Springfield\nOffice of Public Records', appeal_rights: 'You may appeal within 90 days.' });
    errorOf(await patch({ letterhead: '1\n2\n3\n4\n5\n6\n7' }), 400, 'validation_error');
    const kept = dataOf(await instance.request({ method: 'GET', url: '/api/v1/release-settings' }), ReleaseSettings);
    expect(kept.letterhead).toBe('City of Springfield\nOffice of Public Records');
    expect(dataOf(await patch({ appeal_rights: null }), ReleaseSettings)).toMatchObject({ appeal_rights: null, letterhead: 'City of Springfield\nOffice of Public Records' });
  });
});
