import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Case } from '../../main/common/schemas/cases.js';
import { Job } from '../../main/common/schemas/jobs.js';
import { startScheduler, type JobScheduler } from '../../main/jobs/scheduler.js';
import { REDACTION_LOG_COLUMNS } from '../../main/services/export-records.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { dataOf, tinyPng } from '../helpers/integration-support.js';
import { createBoxes, rect } from '../helpers/v1-redactions-support.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';

// The csv and json formats: contents, escaping and shape, read back the way a spreadsheet or a program would.

/** RFC 4180 parser: quoted fields with doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += char;
  }
  if (field !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

const CaseRecord = z.object({
  schema_version: z.literal(1),
  generated_at: z.string(),
  export: z.object({ id: z.string(), format: z.literal('json'), filters: z.record(z.string(), z.unknown()) }),
  case: Case,
  documents: z.array(
    z
      .object({
        id: z.string(),
        fileName: z.string(),
        status: z.enum(['active', 'deleted']),
        redactions: z.array(z.strictObject({
          id: z.string(),
          redaction_id: z.string(),
          page: z.number(),
          layer: z.string(),
          exemption: z.string(),
          classification_type: z.string().nullable(),
          kind: z.string(),
          units: z.enum(['pdf_points', 'image_pixels']),
          box: z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() }),
          points: z.array(z.object({ x: z.number(), y: z.number() })),
          reason: z.string().nullable(),
          state: z.enum(['accepted', 'pending', 'rejected']),
          applied: z.boolean(),
          created_by: z.string(),
          created_at: z.string(),
          updated_by: z.string(),
          updated_at: z.string(),
        })),
        review_decisions: z.array(z.object({ id: z.string(), redaction_id: z.string(), decision: z.enum(['accept', 'reject']), reason: z.string().nullable(), decided_by: z.string(), decided_at: z.string() })),
        comments: z.array(z.object({ id: z.string(), text: z.string(), author: z.object({ type: z.string(), id: z.string() }), created_at: z.string() })),
        jobs: z.array(Job),
      })
      .loose(),
  ),
  skipped_documents: z.array(z.unknown()),
  totals: z.object({ documents: z.number(), redactions: z.number(), applied_redactions: z.number(), by_exemption: z.record(z.string(), z.number()) }),
});

describe('exports: csv and json', () => {
  let h: Harness;
  let scheduler: JobScheduler;
  let caseId: string;
  let pdfId: string;
  let pngId: string;
  const reasons = ['=HYPERLINK("http://evil.example","click")', '+1 (555) 0100', '-2+3', '@SUM(A1:A9)', '\tleading tab', 'a "quoted", comma\r\nand lines', 'plain reason'];

  beforeAll(async () => {
    h = await startExportHarness();
    scheduler = startScheduler(h.instance.runtime, { pool: h.pool });
    caseId = await createCase(h.instance, 'Formats case');
    const documents = await uploadDocuments(h.instance, caseId, [
      { name: 'letter.pdf', bytes: minimalPdf('Dear applicant') },
      { name: 'photo.png', bytes: tinyPng() },
    ]);
    pdfId = documents[0]?.id ?? '';
    pngId = documents[1]?.id ?? '';
    await createBoxes(h.instance, pdfId, reasons.map((reason, index) => rect({ reason, coordinates: { page: 1, units: 'pdf_points', box: { x1: 10 + index, y1: 20, x2: 50 + index, y2: 40 } } })));
    const [suggestion, toReject] = await createBoxes(h.instance, pdfId, [
      rect({ state: 'pending', pending_reason: { entity: 'PERSON', text: 'Detected Name' }, reason: 'suggested' }),
      rect({ state: 'pending', layer: 'B5', reason: 'to reject' }),
    ]);
    await createBoxes(h.instance, pngId, [rect({ layer: 'B7', coordinates: { page: 1, units: 'image_pixels', box: { x1: 0, y1: 0, x2: 1, y2: 1 } } })]);
    const decisions = await h.instance.request({
      method: 'POST',
      url: `/api/v1/documents/${pdfId}/review-decisions`,
      body: { decisions: [{ redaction_id: toReject?.id, decision: 'reject', reason: 'not exempt' }] },
    });
    expect(decisions.statusCode).toBe(201);
    expect(suggestion?.state).toBe('pending');
    expect((await h.instance.request({ method: 'POST', url: `/api/v1/documents/${pdfId}/comments`, body: { text: 'Check page 1 with legal' } })).statusCode).toBe(201);
    const job = dataOf(await h.instance.request({ method: 'POST', url: `/api/v1/documents/${pdfId}/scan-jobs` }), Job, 202);
    for (let tries = 0; tries < 400; tries += 1) {
      const current = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/jobs/${job.id}` }), Job);
      if (current.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }, 60_000);
  afterAll(async () => {
    await scheduler.stop();
    await h.close();
  });

  it('csv: the redaction log of applied redactions, RFC 4180, formulas defused', async () => {
    const { exported, bytes } = await exportFile(h.instance, { case_id: caseId, format: 'csv' });
    expect(exported.file).toMatchObject({ media_type: 'text/csv; charset=utf-8', name: `case-${caseId}-export-${exported.id}-redaction-log.csv` });
    expect(exported.summary).toMatchObject({ documents: 2, pages: 0, redactions: reasons.length + 1, verification: null });
    const rows = parseCsv(bytes.toString('utf8'));
    expect(rows[0]).toEqual([...REDACTION_LOG_COLUMNS]);
    const body = rows.slice(1).map((row) => Object.fromEntries(REDACTION_LOG_COLUMNS.map((column, index) => [column, row[index] ?? ''])));
    expect(body).toHaveLength(reasons.length + 1);
    expect(body.map((row) => row.state)).toEqual(Array.from({ length: reasons.length + 1 }, () => 'accepted'));
    expect(body.map((row) => row.document_id)).toEqual([...reasons.map(() => pdfId), pngId]);
    const logged = body.slice(0, reasons.length).map((row) => row.reason);
    expect(logged).toEqual([
      `'=HYPERLINK("http://evil.example","click")`,
      "'+1 (555) 0100",
      "'-2+3",
      "'@SUM(A1:A9)",
      "'\tleading tab",
      'a "quoted", comma\r\nand lines',
      'plain reason',
    ]);
    // No cell a spreadsheet would evaluate.
    for (const row of rows.slice(1)) for (const cell of row) if (/^[=+\-@\t\r]/.test(cell)) expect(cell).toMatch(/^-?\d+(\.\d+)?$/);
    expect(body[0]).toMatchObject({ page: '1', layer: 'B6', exemption: '(b)(6)', kind: 'rectangle', units: 'pdf_points', x1: '10', y1: '20', x2: '50', y2: '40', document_name: 'letter.pdf' });
    expect(body.at(-1)).toMatchObject({ layer: 'B7', exemption: '(b)(7)', units: 'image_pixels', document_name: 'photo.png' });
    expect(body[0]?.decided_by).toMatch(/^api_key:/);
  });

  it('json: the versioned case record with documents, redactions in every state, decisions, comments and job results', async () => {
    const { exported, bytes } = await exportFile(h.instance, { case_id: caseId, format: 'json' });
    expect(exported.file?.media_type).toBe('application/json');
    const record = CaseRecord.parse(JSON.parse(bytes.toString('utf8')));
    expect(record.case).toMatchObject({ id: caseId, name: 'Formats case' });
    expect(record.documents.map((document) => document.id)).toEqual([pdfId, pngId]);
    const letter = record.documents[0];
    expect(letter?.redactions.map((redaction) => redaction.state).sort()).toEqual([...reasons.map(() => 'accepted'), 'pending', 'rejected'].sort());
    expect(letter?.redactions.filter((redaction) => redaction.applied)).toHaveLength(reasons.length);
    expect(letter?.review_decisions).toEqual([expect.objectContaining({ decision: 'reject', reason: 'not exempt' })]);
    expect(letter?.comments.map((comment) => comment.text)).toEqual(['Check page 1 with legal']);
    expect(letter?.jobs).toEqual([expect.objectContaining({ kind: 'scan', status: 'completed', result: expect.objectContaining({ verdict: expect.any(String) }) })]);
    expect(record.totals).toEqual({ documents: 2, redactions: reasons.length + 3, applied_redactions: reasons.length + 1, by_exemption: { '(b)(6)': reasons.length, '(b)(7)': 1 } });
    // Suggestion details stay out: a detector may have recorded the text it found.
    expect(bytes.toString('utf8')).not.toContain('Detected Name');
    expect(bytes.toString('utf8')).not.toContain('pending_reason');
  });

  it('json with include_pending: the suggestion counts as applied; the rejected box never does', async () => {
    const { bytes } = await exportFile(h.instance, { case_id: caseId, format: 'json', filters: { include_pending: true, layers: ['B5', 'B6'] } });
    const record = CaseRecord.parse(JSON.parse(bytes.toString('utf8')));
    const letter = record.documents[0];
    expect(letter?.redactions.find((redaction) => redaction.state === 'pending')?.applied).toBe(true);
    expect(letter?.redactions.find((redaction) => redaction.state === 'rejected')?.applied).toBe(false);
    expect(record.documents[1]?.redactions).toEqual([]);
  });
});
