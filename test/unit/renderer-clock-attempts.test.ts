// The renderer's request-clock wording and its one idempotency helper, run under Node.
import { describe, expect, it, vi } from 'vitest';
import type { Case } from '../../main/common/schemas/cases.js';
import { ApiError } from '../../renderer/src/api/errors.js';
import { AttemptKeys, answerPending } from '../../renderer/src/api/idempotency.js';
import { clockSummary } from '../../renderer/src/domain/clock.js';

const base: Case['clock'] = { state: 'running', received_date: '2026-11-02', time_limit_days: 20, extension_days: 0, tolled_days: 0, tolled_since: null, toll_reason: null, due_date: '2026-11-30', days_left: 3, overdue: false };
const summary = (clock: Partial<Case['clock']>, release: Case['release'] = null) => clockSummary({ clock: { ...base, ...clock }, dueDate: clock.due_date ?? base.due_date, release });

describe('clock wording', () => {
  it('reads days left, due today, overdue, paused and answered', () => {
    expect(summary({})).toMatchObject({ label: '3 days left', tone: 'soon' });
    expect(summary({ days_left: 12 })).toMatchObject({ label: '12 days left', tone: 'ok' });
    expect(summary({ days_left: 1 }).label).toBe('1 day left');
    expect(summary({ days_left: 0 })).toMatchObject({ label: 'Due today', tone: 'soon' });
    expect(summary({ days_left: -2, overdue: true })).toMatchObject({ label: '2 days overdue', tone: 'overdue' });
    expect(summary({ state: 'tolled', tolled_since: '2026-11-09', toll_reason: 'Asked to narrow', days_left: 16 }).detail).toMatch(/Asked to narrow; 16 business days left when it resumes/);
    expect(summary({ state: 'answered' }, { number: 2, released_at: '2026-11-20T10:00:00Z' })).toMatchObject({ label: 'Answered', detail: 'Answered by release 2' });
    expect(summary({ state: 'none', overdue: false }).label).toBe('');
  });
});

describe('idempotency keys per attempt', () => {
  it('a refused attempt and the next, changed one use different keys (Release anyway)', async () => {
    const keys = new AttemptKeys();
    const used: string[] = [];
    const refused = new ApiError(409, 'release_blocked', 'blocked');
    await expect(keys.send('release', { override: null }, async (key) => (used.push(key), Promise.reject(refused)))).rejects.toBe(refused);
    await keys.send('release', { override: { reason: 'approved by the director' } }, async (key) => used.push(key));
    expect(used[0]).not.toBe(used[1]);
  });

  it('the same request again after a refusal gets a new key too: the server stored the refusal', async () => {
    const keys = new AttemptKeys();
    const first = keys.keyFor('save', { a: 1 });
    keys.settle('save', new ApiError(400, 'validation_error', 'bad'));
    expect(keys.keyFor('save', { a: 1 })).not.toBe(first);
  });

  it('a request that got no answer is retried with its key, so it is applied at most once', async () => {
    const keys = new AttemptKeys();
    const send = vi.fn<(key: string) => Promise<string>>().mockRejectedValueOnce(new ApiError(0, 'network_error', 'offline')).mockResolvedValueOnce('ok');
    await expect(keys.send('approve', { note: 'x' }, send)).rejects.toBeInstanceOf(ApiError);
    await keys.send('approve', { note: 'x' }, send);
    expect(send.mock.calls[0]?.[0]).toBe(send.mock.calls[1]?.[0]);
    expect(answerPending(new ApiError(503, 'internal_error', 'down'))).toBe(true);
    expect(answerPending(new ApiError(409, 'conflict', 'a request with this Idempotency-Key is still being processed; retry shortly'))).toBe(true);
    expect(answerPending(new ApiError(409, 'idempotency_key_reused', 'reused'))).toBe(false);
  });
});

describe('one formatter for statuses, history rows and document names', () => {
  it('says statuses, status changes with from → to, field changes and clock events in words', async () => {
    const { describeAction, documentName, formatStatus } = await import('../../renderer/src/domain/format.js');
    expect(formatStatus('in_progress')).toBe('In progress');
    expect(formatStatus('rejected')).toBe('Sent back');
    expect(describeAction('case.status_change', { from: 'in_review', to: 'approved', note: 'All pages checked' })).toBe('Status changed: In review → Approved — “All pages checked”');
    expect(describeAction('case.release_reapprove', { case_id: '4', previous_approval_at: '2026-11-28T05:40:13.197Z', note: 'New boxes checked' })).toBe('Re-approved after changes — “New boxes checked”');
    expect(describeAction('case.update', { fields: ['priority', 'requester'], changes: { priority: { from: 'normal', to: 'high' } } })).toBe('Details changed: Priority Normal → High; Requester');
    expect(describeAction('case.clock_toll', { on_date: '2026-11-09', reason: 'Asked to narrow' })).toMatch(/^Clock paused on .+2026 — Asked to narrow$/);
    expect(describeAction('case.clock_extend', { days: 10, reason: 'Voluminous' })).toBe('Time limit extended by 10 business days — Voluminous');
    expect(describeAction('redactions.write', { version: 'abc' })).toBe('Redactions saved');
    expect(documentName('6', new Map([['6', 'permit-complaint.eml']]))).toBe('permit-complaint.eml');
    expect(documentName('7', new Map())).toBe('document 7');
  });
});

describe('families', () => {
  it('an attachment is listed right under its e-mail, indented, in attachment order', async () => {
    const { familyOrder } = await import('../../renderer/src/domain/collections.js');
    const entry = (id: string, parent: string | null = null, index: number | null = null) => ({ depth: 0, document: { id, parent_document_id: parent, attachment_index: index } });
    const ordered = familyOrder([entry('1'), entry('2'), entry('3'), entry('4', '2', 1), entry('5', '2', 0), entry('6', '5', 0)]);
    expect(ordered.map((item) => [item.document.id, item.depth])).toEqual([['1', 0], ['2', 0], ['5', 1], ['6', 2], ['4', 1], ['3', 0]]);
  });
});
