// The renderer's pure logic, run under Node: workflow buttons, queue filtering, viewer geometry, the
// redaction editing model, and how OCR status answers are read.
import { describe, expect, it } from 'vitest';
import type { Case } from '../../main/common/schemas/cases.js';
import { CASE_STATUSES } from '../../main/common/schemas/cases.js';
import { CASE_TRANSITIONS } from '../../main/services/cases.js';
import type { AppRecord } from '../../renderer/src/api/redaction-types.js';
import { apply, boxFromViewCorners, invert, simplifyPath, viewRect, type Matrix } from '../../renderer/src/domain/geometry.js';
import { jobOutcome } from '../../renderer/src/domain/jobs.js';
import { readOcrStatus } from '../../renderer/src/domain/ocr-status.js';
import { filterCases, isOverdue, sortCases } from '../../renderer/src/domain/queue.js';
import {
  addBox,
  changeCount,
  dirtyLayers,
  drawnBoxes,
  fromServer,
  groupSuggestions,
  layerChanges,
  newBox,
  pendingSuggestions,
  rebase,
  removeBox,
  toSaveItem,
} from '../../renderer/src/domain/redaction-editor.js';
import { parseRoute, routeHref } from '../../renderer/src/domain/routes.js';
import { WORKFLOW, allowedActions } from '../../renderer/src/domain/workflow.js';

describe('workflow', () => {
  it('is exactly the server’s transition table', () => {
    for (const [action, rule] of Object.entries(CASE_TRANSITIONS)) {
      const mine = WORKFLOW[action as keyof typeof WORKFLOW];
      expect([...mine.from].sort(), action).toEqual([...rule.from].sort());
      expect(mine.to, action).toBe(rule.to);
    }
    expect(Object.keys(WORKFLOW).sort()).toEqual(Object.keys(CASE_TRANSITIONS).sort());
    for (const status of CASE_STATUSES) {
      expect(allowedActions(status).sort()).toEqual(
        Object.entries(CASE_TRANSITIONS)
          .filter(([, rule]) => (rule.from as readonly string[]).includes(status))
          .map(([action]) => action)
          .sort(),
      );
    }
    expect(allowedActions('approved')).toEqual([]);
  });
});

const NO_CLOCK: Case['clock'] = { state: 'none', received_date: null, time_limit_days: null, extension_days: null, tolled_days: null, tolled_since: null, toll_reason: null, due_date: null, days_left: null, overdue: false };

function aCase(fields: Partial<Case> & { id: string }): Case {
  return {
    name: `Case ${fields.id}`,
    description: '',
    status: 'open',
    priority: 'normal',
    dueDate: null,
    receivedDate: null,
    timeLimitDays: null,
    requester: null,
    clock: NO_CLOCK,
    release: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
    ...fields,
  };
}

describe('case queue', () => {
  const today = '2026-03-10';
  const cases = [
    aCase({ id: '1', dueDate: '2026-03-09', priority: 'urgent', clock: { ...NO_CLOCK, overdue: true } }),
    aCase({ id: '2', dueDate: '2026-03-12', priority: 'low', name: 'Parks budget', description: 'playground' }),
    aCase({ id: '3', dueDate: null, priority: 'high' }),
    aCase({ id: '4', dueDate: '2026-01-01', status: 'approved' }),
    aCase({ id: '5', dueDate: '2026-03-20T09:00:00-05:00', status: 'in_review' }),
  ];

  it('marks overdue as the server read the case against its day', () => {
    expect(cases.filter((item) => isOverdue(item)).map((item) => item.id)).toEqual(['1']);
  });

  it('sorts by days left on the clock, cases without a running clock last', () => {
    const clocked = (id: string, days_left: number | null, state: Case['clock']['state'] = 'running') => aCase({ id, clock: { ...NO_CLOCK, state, days_left } });
    const list = [clocked('1', 5), clocked('2', -2), clocked('3', null, 'none'), clocked('4', 12, 'tolled'), clocked('5', 3, 'answered')];
    expect(sortCases(list, 'daysLeft', 'asc').map((item) => item.id)).toEqual(['2', '1', '4', '3', '5']);
    expect(sortCases(list, 'daysLeft', 'desc').map((item) => item.id)).toEqual(['4', '1', '2', '3', '5']);
  });

  it('the Released filter keeps only cases with a release, Being worked only those without', () => {
    const released = aCase({ id: '7', status: 'approved', release: { number: 1, released_at: '2026-03-01T10:00:00.000Z' } });
    const all = { search: '', statuses: [], priority: 'any', due: 'any' } as const;
    expect(filterCases([...cases, released], { ...all, released: true }, today).map((item) => item.id)).toEqual(['7']);
    expect(filterCases([...cases, released], { ...all, released: false }, today).map((item) => item.id)).not.toContain('7');
  });

  it('sorts by due date with undated cases last in both directions, and by priority rank', () => {
    expect(sortCases(cases, 'dueDate', 'asc').map((item) => item.id)).toEqual(['4', '1', '2', '5', '3']);
    expect(sortCases(cases, 'dueDate', 'desc').map((item) => item.id)).toEqual(['5', '2', '1', '4', '3']);
    expect(sortCases(cases, 'priority', 'desc').map((item) => item.id)).toEqual(['1', '3', '4', '5', '2']);
  });

  it('filters by status, priority, due window and every search word', () => {
    const all = { search: '', statuses: [], priority: 'any', due: 'any' } as const;
    expect(filterCases(cases, { ...all, statuses: ['open'] }, today).map((item) => item.id)).toEqual(['1', '2', '3']);
    expect(filterCases(cases, { ...all, due: 'week' }, today).map((item) => item.id)).toEqual(['2']);
    expect(filterCases(cases, { ...all, due: 'none' }, today).map((item) => item.id)).toEqual(['3']);
    expect(filterCases(cases, { ...all, priority: 'high' }, today).map((item) => item.id)).toEqual(['3']);
    expect(filterCases(cases, { ...all, search: 'parks PLAYGROUND' }, today).map((item) => item.id)).toEqual(['2']);
    expect(filterCases(cases, { ...all, search: 'parks swings' }, today)).toEqual([]);
  });
});

describe('viewer geometry', () => {
  // pdf.js viewport transforms of a 612×792 page at 1.5×, unrotated and rotated 90°.
  const upright: Matrix = [1.5, 0, 0, -1.5, 0, 1188];
  const rotated: Matrix = [0, 1.5, 1.5, 0, 0, 0];

  it('maps PDF points to the screen and back', () => {
    for (const matrix of [upright, rotated]) {
      const point = { x: 100, y: 700 };
      const back = apply(invert(matrix), apply(matrix, point));
      expect(back.x).toBeCloseTo(100);
      expect(back.y).toBeCloseTo(700);
    }
    expect(apply(upright, { x: 0, y: 792 })).toEqual({ x: 0, y: 0 });
  });

  it('turns a drag in any direction into a box with x1 < x2 and y1 < y2 in PDF space', () => {
    const toDocument = invert(upright);
    const box = boxFromViewCorners(toDocument, { x: 300, y: 150 }, { x: 150, y: 30 });
    expect(box.x1).toBeCloseTo(100);
    expect(box.x2).toBeCloseTo(200);
    expect(box.y1).toBeCloseTo(692);
    expect(box.y2).toBeCloseTo(772);
    const onRotated = boxFromViewCorners(invert(rotated), { x: 0, y: 0 }, { x: 150, y: 300 });
    expect(onRotated).toEqual({ x1: 0, y1: 0, x2: 200, y2: 100 });
    expect(viewRect(rotated, onRotated)).toEqual({ x: 0, y: 0, width: 150, height: 300 });
  });

  it('simplifies a freehand stroke but keeps its corners', () => {
    const stroke = [...Array.from({ length: 50 }, (_, index) => ({ x: index, y: 0.1 * (index % 2) })), { x: 49, y: 30 }];
    const simplified = simplifyPath(stroke, 1);
    expect(simplified).toEqual([{ x: 0, y: 0 }, { x: 49, y: 0.1 }, { x: 49, y: 30 }]);
  });
});

function record(fields: Partial<AppRecord> & { redaction_id: string; layer: AppRecord['layer'] }): AppRecord {
  return {
    _id: String(Math.floor(Math.random() * 1e6)),
    record_type: 'pdf',
    page_number: 1,
    redaction_type: 'rectangle',
    exemption: '(b)(6)',
    pdf_x1: 10,
    pdf_y1: 10,
    pdf_x2: 50,
    pdf_y2: 30,
    pdf_polygon_points: [],
    redaction_reason: null,
    classification_type: null,
    state: 'accepted',
    pending_reason: null,
    version_id: 'v1',
    created_at: '2026-01-01T00:00:00.000Z',
    created_by: '1',
    ...fields,
  };
}

describe('redaction editing model', () => {
  const server = fromServer(
    [record({ redaction_id: 'a', layer: 'B6' }), record({ redaction_id: 'b', layer: 'B5' }), record({ redaction_id: 's1', layer: 'B6', state: 'pending', pending_reason: { entity: 'ssn', score: 0.99 } }), record({ redaction_id: 's2', layer: 'B6', state: 'pending', pending_reason: { entity: 'person_name' } }), record({ redaction_id: 'r', layer: 'B6', state: 'rejected' })],
    { B6: { version_id: 'v6', version: 3 }, B5: { version_id: 'v5', version: 1 } },
  );
  const drawn = newBox({ redactionId: 'n1', page: 2, kind: 'polygon', layer: 'B6', box: { x1: 0, y1: 0, x2: 5, y2: 5 }, points: [{ x: 0, y: 0 }, { x: 5, y: 0 }, { x: 5, y: 5 }], reason: 'home address', classification: 'secret' });

  it('keeps suggestions apart from redactions, and rejected ones out of both', () => {
    expect(drawnBoxes(server).map((box) => box.redactionId)).toEqual(['a', 'b']);
    expect(pendingSuggestions(server).map((box) => box.redactionId)).toEqual(['s1', 's2']);
    expect([...groupSuggestions(pendingSuggestions(server)).keys()]).toEqual(['ssn', 'person_name']);
  });

  it('tracks unsaved additions and removals per layer, with the version they are based on', () => {
    const edited = removeBox(addBox(server, drawn), 'b');
    expect(changeCount(edited)).toBe(2);
    expect(dirtyLayers(edited)).toEqual(['B5', 'B6']);
    expect(layerChanges(edited, 'B6')).toMatchObject({ baseVersionId: 'v6', deletions: [] });
    expect(layerChanges(edited, 'B6').additions.map((box) => box.redactionId)).toEqual(['n1']);
    expect(layerChanges(edited, 'B5')).toMatchObject({ baseVersionId: 'v5', additions: [], deletions: ['b'] });
    expect(layerChanges(edited, 'B2')).toEqual({ layer: 'B2', baseVersionId: null, additions: [], deletions: [] });
    // Removing an unsaved box simply forgets it.
    expect(changeCount(removeBox(edited, 'n1'))).toBe(1);
  });

  it('sends classification only on B1 and polygon points only for outlines', () => {
    expect(toSaveItem(drawn)).toMatchObject({ layer: 'B6', classification_type: null, redaction_type: 'polygon', pdf_polygon_points: drawn.points, redaction_reason: 'home address' });
    const rectangle = newBox({ redactionId: 'n2', page: 1, kind: 'rectangle', layer: 'B1', box: { x1: 1, y1: 2, x2: 3, y2: 4 }, points: [{ x: 9, y: 9 }], reason: null, classification: 'top_secret' });
    expect(toSaveItem(rectangle)).toMatchObject({ classification_type: 'top_secret', pdf_polygon_points: [], pdf_x1: 1, pdf_y2: 4 });
  });

  it('rebase after a conflict keeps the user’s changes on top of the server’s new layer', () => {
    const edited = removeBox(addBox(server, drawn), 'a');
    const theirs = [record({ redaction_id: 'a', layer: 'B6' }), record({ redaction_id: 'x', layer: 'B6' })];
    const rebased = rebase(edited, theirs, { B6: { version_id: 'v7', version: 4 } }, { layers: ['B6'] });
    expect(rebased.versions).toEqual({ B6: { version_id: 'v7', version: 4 }, B5: { version_id: 'v5', version: 1 } });
    expect(rebased.saved.map((box) => box.redactionId).sort()).toEqual(['a', 'b', 'x']);
    expect(rebased.added.map((box) => box.redactionId)).toEqual(['n1']);
    expect(rebased.removed).toEqual(['a']);
    // A removal of a box the other person already deleted is dropped.
    expect(rebase(edited, [record({ redaction_id: 'x', layer: 'B6' })], {}, { layers: ['B6'] }).removed).toEqual([]);
  });

  it('after a save, the saved layer is clean and other layers keep their changes', () => {
    const edited = removeBox(addBox(server, drawn), 'b');
    const after = rebase(edited, [record({ redaction_id: 'a', layer: 'B6' }), record({ redaction_id: 'n1', layer: 'B6', page_number: 2 }), record({ redaction_id: 'b', layer: 'B5' })], { B6: { version_id: 'v8', version: 5 }, B5: { version_id: 'v5', version: 1 } }, { settled: ['B6'] });
    expect(after.added).toEqual([]);
    expect(dirtyLayers(after)).toEqual(['B5']);
  });
});

describe('routes', () => {
  it('round-trips every route through its hash', () => {
    for (const route of [{ name: 'queue' }, { name: 'case', caseId: '12' }, { name: 'document', documentId: '7', caseId: '12' }, { name: 'document', documentId: '7', caseId: null }, { name: 'settings', section: 'keys' }] as const) {
      expect(parseRoute(routeHref(route))).toEqual(route);
    }
    expect(parseRoute('#/cases/abc')).toEqual({ name: 'queue' });
  });
});

describe('reading answers', () => {
  it('reads OCR status at the top level or under data, as the spec’s client does', () => {
    expect(readOcrStatus({ status: 'running', progress: 0.4 })).toMatchObject({ phase: 'running', progress: 0.4 });
    expect(readOcrStatus({ data: { status: 'Completed' } }).phase).toBe('completed');
    expect(readOcrStatus({ data: { status: 'failed', error_message: 'no pages' } })).toMatchObject({ phase: 'failed', message: 'no pages' });
    expect(readOcrStatus({}).phase).toBe('running');
  });

  it('words a finished job in a few words', () => {
    const base = { status: 'completed', error_message: null } as const;
    expect(jobOutcome({ ...base, kind: 'detection', result: { suggested: 3 } })).toBe('3 suggestions');
    expect(jobOutcome({ ...base, kind: 'detection', result: { suggested: 1 } })).toBe('1 suggestion');
    expect(jobOutcome({ ...base, kind: 'scan', result: { verdict: 'warning', findings: [{}, {}] } })).toBe('warning: 2 finding(s)');
    expect(jobOutcome({ kind: 'ocr', status: 'failed', result: null, error_message: 'the ocr job failed: x' })).toBe('the ocr job failed: x');
  });
});
