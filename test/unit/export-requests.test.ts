import { describe, expect, it } from 'vitest';
import { requestsOf } from '../../main/jobs/export/index.js';
import type { Box } from '../../main/services/redactions/model.js';

// The box requests and labels exports and the page preview both burn (main/jobs/export/requests.ts).

function box(page: number, reason: string | null, extra: Partial<Box> = {}): Box {
  return {
    rowId: page,
    documentId: 1,
    redactionId: `r-${page}-${reason ?? 'none'}`,
    source: 'pdf',
    layer: 'B6',
    kind: 'rectangle',
    page,
    x1: 10,
    y1: 20,
    x2: 30,
    y2: 40,
    points: [],
    reason,
    classificationType: null,
    state: 'accepted',
    pendingReason: null,
    versionId: 'v1',
    createdAt: '2026-11-28T00:00:00Z',
    createdBy: 'u',
    updatedAt: '2026-11-28T00:00:00Z',
    updatedBy: 'u',
    ...extra,
  };
}

const words = JSON.stringify([{ text: 'Alice', x1: 1, y1: 2, x2: 3, y2: 4, confidence: 100 }]);
// Longest first, as the material and the preview read them: a sub-code wins over its parent.
const exemptions = [{ code: '(b)(7)(C)' }, { code: '(b)(7)' }];

describe('export box requests', () => {
  it('labels a box with its own exemption code (sub-codes first), else its layer, and not at all without labels', () => {
    const applied = [box(1, '(b)(7)(C) witness'), box(1, '(b)(7) file'), box(2, null)];
    const requests = requestsOf({ applied, pages: [] }, false, true, exemptions, new Set());
    expect(requests.map((request) => [request.page, request.boxes.map((entry) => entry.label)])).toEqual([
      [1, ['(b)(7)(C)', '(b)(7)']],
      [2, ['(b)(6)']],
    ]);
    expect(requestsOf({ applied, pages: [] }, false, false, exemptions, new Set()).flatMap((request) => request.boxes.map((entry) => entry.label))).toEqual([null, null, null]);
  });

  it('asks for PDF pages with boxes only, image pages with stored words too, never a skipped page', () => {
    const pages = [
      { page_number: 3, unit: 'pdf_points' as const, words },
      { page_number: 4, unit: 'image_pixels' as const, words },
    ];
    const applied = [box(1, null), box(2, null, { source: 'image' }), box(5, null)];
    const pdf = requestsOf({ applied, pages }, false, true, exemptions, new Set([5]));
    expect(pdf.map((request) => [request.page, request.boxes.length, request.words?.length ?? null])).toEqual([[1, 1, null]]);
    const image = requestsOf({ applied, pages }, true, true, exemptions, new Set());
    expect(image.map((request) => [request.page, request.boxes.length, request.words?.length ?? null])).toEqual([
      [2, 1, null],
      [4, 0, 1],
    ]);
  });
});
