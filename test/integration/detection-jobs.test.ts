import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../main/config.js';
import { updateJobIfStatus } from '../../main/db/queries/jobs.js';
import { createHttpServer } from '../../main/http/server.js';
import { startScheduler } from '../../main/jobs/scheduler.js';
import { openRuntime } from '../../main/runtime.js';
import type { DetectionResult } from '../../main/common/schemas/detection.js';
import type { Job } from '../../main/common/schemas/jobs.js';
import { Redaction } from '../../main/common/schemas/redactions.js';
import { signInAdmin } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf, tempDir } from '../helpers/temp.js';
import { bboxWords, pdflatex, type BboxWord } from '../helpers/burn-producers.js';
import { dataOf, errorOf, eventsOf, keyOf, pageOf, tinyPng } from '../helpers/integration-support.js';
import { RedactionTemplate } from '../../main/common/schemas/templates.js';
import { closeHarness, finished, harness, runJob, startJob, storePages, upload, type Harness } from '../helpers/analysis-support.js';
import { boxOf, layoutPage } from '../helpers/page-layout.js';

// Detection through HTTP, the scheduler and a real worker thread, on pages stored the way OCR stores them
// (built first: `npm run build:main`).

const LINES = [
  'Subject: John A. Smith, DOB: 03/14/1978, SSN 123-45-6789',
  'Phone (217) 555-0143 email john.smith@example.com',
  'Card 4111 1111 1111 1111 routing number 021000021',
  'IBAN DE89 3704 0044 0532 0130 00 from IP 203.0.113.45',
  'Home: 1234 Oak Street, Apt 5B,',
  'Springfield, IL 62704',
  'Bad card 4111 1111 1111 1112 and routing 021000022 and IBAN DE89 3704 0044 0532 0130 01',
  'Passport photo 2019; project BLUEBIRD case CASE-4411',
];

/** The box of `value` (from its first to its last character) on `line`, in the test layout. */
function at(line: number, value: string, through = value) {
  const text = LINES[line] as string;
  const start = text.indexOf(value);
  const end = text.indexOf(through, start) + through.length;
  if (start < 0 || end < start) throw new Error(`${value} not on line ${line}`);
  return boxOf(line, start, end);
}

const EXPECTED = [
  // The comma after the value stays outside the box, but for a sliver of margin (0.15 of a 6-point character).
  { entity: 'person_name', layer: 'B6', box: { ...at(0, 'John', 'Smith'), x2: at(0, 'John', 'Smith').x2 + 0.9 } },
  { entity: 'date_of_birth', layer: 'B6', box: { ...at(0, '03/14/1978'), x2: at(0, '03/14/1978').x2 + 0.9 } },
  { entity: 'ssn', layer: 'B6', box: at(0, '123-45-6789') },
  { entity: 'phone', layer: 'B6', box: at(1, '(217)', '555-0143') },
  { entity: 'email', layer: 'B6', box: at(1, 'john.smith@example.com') },
  { entity: 'payment_card', layer: 'B6', box: at(2, '4111', '1111 1111 1111') },
  { entity: 'routing_number', layer: 'B4', box: at(2, '021000021') },
  { entity: 'iban', layer: 'B4', box: at(3, 'DE89', '0130 00') },
  { entity: 'ip_address', layer: 'B6', box: at(3, '203.0.113.45') },
  { entity: 'street_address', layer: 'B6', box: at(4, '1234', '5B,') },
  { entity: 'street_address', layer: 'B6', box: at(5, 'Springfield,', '62704') },
];

const Page = z.array(Redaction);

async function redactionsOf(instance: TestInstance, documentId: string) {
  return pageOf(await instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/redactions?limit=100` }), Redaction).data;
}

function resultOf(job: Job): DetectionResult {
  expect(job.status, job.error_message ?? '').toBe('completed');
  return job.result as unknown as DetectionResult;
}

const summaryOf = (redactions: z.infer<typeof Page>) =>
  redactions.map((redaction) => ({ entity: redaction.pending_reason?.entity, layer: redaction.layer, box: redaction.coordinates.box })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('detection jobs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => closeHarness(h));

  async function documentWithPages(lines = LINES): Promise<string> {
    const documentId = await upload(h.instance, 'letter.pdf', minimalPdf('Scanned letter'));
    await storePages(h.instance, documentId, [layoutPage(lines)]);
    return documentId;
  }

  it('without stored text the job fails, telling the user to run OCR first', async () => {
    const documentId = await upload(h.instance, 'unread.pdf', minimalPdf('Not read yet'));
    const job = await runJob(h.instance, documentId, 'detection');
    expect(job.status).toBe('failed');
    expect(job.error_message).toBe(`the detection job failed: no text is stored for document ${documentId} yet: run an OCR job first (POST /api/v1/documents/${documentId}/ocr-jobs)`);
  });

  it('stages pending suggestions with their reason, on each kind’s layer, boxed over the words; near misses are left alone', async () => {
    const documentId = await documentWithPages();
    const result = resultOf(await runJob(h.instance, documentId, 'detection'));
    expect(result).toMatchObject({ pages: 1, unit: 'pdf_points', template: null, min_score: 0.5, findings: 10, suggested: 11, already_present: 0, locked_layers: [], by_layer: { B6: 9, B4: 2 } });

    const redactions = await redactionsOf(h.instance, documentId);
    expect(summaryOf(redactions)).toEqual(EXPECTED.map((entry) => ({ ...entry })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    for (const redaction of redactions) {
      expect(redaction).toMatchObject({ state: 'pending', kind: 'rectangle', reason: null, created_by: 'system:detection', coordinates: { page: 1, units: 'pdf_points', points: [] } });
      expect(redaction.pending_reason).toMatchObject({ source: 'detection', label: expect.any(String), score: expect.any(Number), cues: expect.any(Array), job_id: expect.any(String), match_id: expect.any(String) });
      expect(redaction.redaction_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const ssn = redactions.find((redaction) => redaction.pending_reason?.entity === 'ssn');
    expect(ssn?.pending_reason).toMatchObject({ label: 'US Social Security number', cues: ['ssn'] });
    // The two lines of the address are one match.
    const address = redactions.filter((redaction) => redaction.pending_reason?.entity === 'street_address');
    expect(new Set(address.map((redaction) => redaction.pending_reason?.match_id)).size).toBe(1);
    // Each layer written once, by detection.
    const events = (await eventsOf(h.instance, 'document', documentId)).filter((event) => event.type === 'redactions.changed');
    expect(events.map((event) => [event.payload.layer, event.payload.origin, (event.payload.created as string[]).length]).sort()).toEqual([
      ['B4', 'detection', 2],
      ['B6', 'detection', 9],
    ]);
  });

  it('running again adds nothing, and a suggestion already accepted or rejected keeps its state', async () => {
    const documentId = await documentWithPages();
    resultOf(await runJob(h.instance, documentId, 'detection'));
    const before = await redactionsOf(h.instance, documentId);
    const [accepted, rejected] = before;
    const decided = await h.instance.request({
      method: 'POST',
      url: `/api/v1/documents/${documentId}/review-decisions`,
      body: { decisions: [{ redaction_id: accepted?.id, decision: 'accept' }, { redaction_id: rejected?.id, decision: 'reject', reason: 'public figure' }] },
    });
    expect(decided.statusCode, decided.body).toBe(201);

    const again = resultOf(await runJob(h.instance, documentId, 'detection'));
    expect(again).toMatchObject({ findings: 10, suggested: 0, already_present: 11, by_layer: {}, suggestions: [] });
    const after = await redactionsOf(h.instance, documentId);
    expect(after.map((redaction) => [redaction.redaction_id, redaction.state])).toEqual(
      before.map((redaction) => [redaction.redaction_id, redaction.id === accepted?.id ? 'accepted' : redaction.id === rejected?.id ? 'rejected' : 'pending']),
    );
  });

  it('a box someone already drew over the same words is not suggested again', async () => {
    const documentId = await documentWithPages(['Reach me at 217-555-0143 today']);
    // A hand-drawn box a little larger than the number's words (columns 12 to 24).
    const drawn = { ...boxOf(0, 11, 26), y1: boxOf(0, 0, 1).y1 - 2 };
    const created = await h.instance.request({
      method: 'POST',
      url: `/api/v1/documents/${documentId}/redactions`,
      body: { redactions: [{ kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: drawn } }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const result = resultOf(await runJob(h.instance, documentId, 'detection'));
    expect(result).toMatchObject({ findings: 1, suggested: 0, already_present: 1 });
  });

  it('options: entity_kinds and min_score narrow the search', async () => {
    const documentId = await documentWithPages();
    const onlyEmail = resultOf(await runJob(h.instance, documentId, 'detection', { entity_kinds: ['email', 'iban'] }));
    expect(onlyEmail).toMatchObject({ entity_kinds: ['email', 'iban'], findings: 2, suggested: 2, by_entity: { email: 1, iban: 1 } });
    const strict = resultOf(await runJob(h.instance, documentId, 'detection', { min_score: 0.95 }));
    expect(Object.values(strict.suggestions).every((suggestion) => suggestion.score >= 0.95)).toBe(true);
    expect(strict.findings).toBeLessThan(10);
  });

  it('an inline template adds its terms and patterns and moves every suggestion to its layer with its exemption', async () => {
    const documentId = await documentWithPages();
    const template = { name: 'Law enforcement sweep', entity_kinds: ['email'], custom_terms: ['Project Bluebird'], patterns: [{ name: 'case number', regex: 'CASE-\\d{4}' }], exemption: '(b)(7)(C)' };
    const result = resultOf(await runJob(h.instance, documentId, 'detection', { template }));
    expect(result).toMatchObject({ template: 'Law enforcement sweep', findings: 3, suggested: 3, by_layer: { B7: 3 } });
    const redactions = await redactionsOf(h.instance, documentId);
    expect(redactions.map((redaction) => [redaction.pending_reason?.entity, redaction.layer, redaction.reason, redaction.exemption, redaction.coordinates.box])).toEqual([
      ['email', 'B7', '(b)(7)(C)', '(b)(7)', at(1, 'john.smith@example.com')],
      ['custom_term', 'B7', '(b)(7)(C)', '(b)(7)', at(7, 'project', 'BLUEBIRD')],
      ['custom_pattern', 'B7', '(b)(7)(C)', '(b)(7)', at(7, 'CASE-4411')],
    ]);
    expect(redactions[2]?.pending_reason).toMatchObject({ pattern: 'case number', template: 'Law enforcement sweep', score: 1 });
  });

  it('refuses invalid options with 400: a bad regex, an unknown template, both kinds of template, B1', async () => {
    const documentId = await documentWithPages();
    const post = (body: unknown) => h.instance.request({ method: 'POST', url: `/api/v1/documents/${documentId}/detection-jobs`, body });
    const badRegex = errorOf(await post({ template: { patterns: [{ name: 'broken', regex: '(unclosed' }] } }), 400, 'validation_error');
    expect(badRegex.details).toEqual([expect.objectContaining({ field: 'template.patterns.0.regex', message: expect.stringMatching(/^invalid regular expression/) })]);
    const unknown = errorOf(await post({ template_id: '42' }), 400, 'validation_error');
    expect(unknown.message).toBe('unknown template');
    expect(unknown.details).toEqual([{ field: 'template_id', location: 'body', message: 'no template 42 in this organization' }]);
    errorOf(await post({ template: {}, template_id: '42' }), 400, 'validation_error');
    errorOf(await post({ template: { layer: 'B1' } }), 400, 'validation_error');
    errorOf(await post({ entity_kinds: ['ssn', 'blood_type'] }), 400, 'validation_error');
    const jobs = pageOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${documentId}/jobs` }), z.unknown());
    expect(jobs.data).toEqual([]);
  });

  it('a layer another editor holds is skipped and named; the next run fills it in', async () => {
    const documentId = await documentWithPages();
    const editor = await signInAdmin(h.instance);
    expect((await editor.request('POST', `/api/redactions/${documentId}/layer/B4/lock`)).statusCode).toBe(200);
    const first = resultOf(await runJob(h.instance, documentId, 'detection'));
    expect(first).toMatchObject({ suggested: 9, locked_layers: ['B4'], by_layer: { B6: 9 } });
    expect(first.note).toMatch(/^layers B4 were locked by another editor/);
    expect((await editor.request('DELETE', `/api/redactions/${documentId}/layer/B4/lock`)).statusCode).toBe(200);
    const second = resultOf(await runJob(h.instance, documentId, 'detection'));
    expect(second).toMatchObject({ suggested: 2, already_present: 9, locked_layers: [], by_layer: { B4: 2 } });
  });

  it('image documents get boxes in image pixels', async () => {
    const documentId = await upload(h.instance, 'scan.png', tinyPng());
    await storePages(h.instance, documentId, [layoutPage(['Contact: jane.doe@example.org'])], { unit: 'image_pixels' });
    resultOf(await runJob(h.instance, documentId, 'detection'));
    const [redaction] = await redactionsOf(h.instance, documentId);
    expect(redaction?.coordinates).toEqual({ page: 1, units: 'image_pixels', box: boxOf(0, 9, 29), points: [] });
  });
});

describe('detection after a crash', () => {
  it('a job interrupted after its suggestions were committed runs again on restart and adds no duplicates', async () => {
    const instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    const documentId = await upload(instance, 'crash.pdf', minimalPdf('Crash'));
    await storePages(instance, documentId, [layoutPage(LINES)]);
    const first = startScheduler(instance.runtime, { poolSize: 1 });
    const job = await runJob(instance, documentId, 'detection');
    await first.stop();
    expect(resultOf(job).suggested).toBe(11);
    // What a SIGKILL between the suggestions' transaction and the job's completion leaves behind.
    expect(await updateJobIfStatus(instance.runtime.db, Number(job.id), 'completed', { status: 'running', result: null, finished_at: null })).toBe(true);
    await instance.server.close();
    await instance.runtime.close();

    const runtime = await openRuntime(instance.dataDir, loadConfig(instance.dataDir, { port: 0, rateLimits: { enabled: false } }));
    const server = await createHttpServer(runtime);
    const host = new URL(await server.listen('127.0.0.1', 0)).host;
    const restarted: TestInstance = { ...instance, runtime, server, host, request: (options) => server.app.inject({ method: options.method, url: options.url, headers: { host, 'x-api-key': keyOf(instance, 0) } }) };
    const scheduler = startScheduler(runtime, { poolSize: 1 });
    try {
      const again = await finished(restarted, job.id);
      expect(again).toMatchObject({ status: 'completed', attempts: 2 });
      expect(resultOf(again)).toMatchObject({ findings: 10, suggested: 0, already_present: 11 });
      const redactions = await redactionsOf(restarted, documentId);
      expect(redactions).toHaveLength(11);
      expect(new Set(redactions.map((redaction) => redaction.redaction_id)).size).toBe(11);
    } finally {
      await scheduler.stop();
      await server.close();
      await runtime.close();
      fs.rmSync(instance.dataDir, { recursive: true, force: true });
    }
  });
});

// Values wrapped across lines in documents made by real producers: pdfTeX writes the PDF (read through its
// text layer by the OCR job), pdftoppm renders it as a scan (read by tesseract in the OCR job); poppler's
// own word boxes are the oracle for where each piece sits.
const WRAPPED_TEX = [
  '\\noindent Please call the complainant at (217) 555-\\\\',
  '0143 after five. Her SSN is 123-45-\\\\',
  '6789 and she lives at 1234 Oak Street,\\\\',
  'Springfield, IL 62704. Card 4012 8888\\\\',
  '8888 1881 was charged to IBAN DE89 3704 0044\\\\',
  '0532 0130 00. The statement was signed by Detective Maria\\\\',
  'Gonzalez on Monday.',
].join('\n');
const WRAPPED: [string, string[]][] = [
  ['phone', ['(217)', '555-', '0143']],
  ['ssn', ['123-45-', '6789']],
  ['street_address', ['1234', 'Springfield,', '62704.']],
  ['payment_card', ['4012', '1881']],
  ['iban', ['DE89', '0532']],
  ['person_name', ['Maria', 'Gonzalez']],
];

const overlapShare = (box: { x1: number; y1: number; x2: number; y2: number }, word: BboxWord) => {
  const w = Math.max(0, Math.min(box.x2, word.x2) - Math.max(box.x1, word.x1));
  const h = Math.max(0, Math.min(box.y2, word.y2) - Math.max(box.y1, word.y1));
  return (w * h) / ((word.x2 - word.x1) * (word.y2 - word.y1));
};

describe('detection on real documents: values wrapped across lines', () => {
  let h: Harness;
  let pdf: Buffer;
  let words: BboxWord[];
  beforeAll(async () => {
    h = await harness();
    pdf = pdflatex(WRAPPED_TEX, '\\usepackage[margin=1in]{geometry}');
    words = bboxWords(pdf);
  }, 120_000);
  afterAll(() => closeHarness(h));

  /** Runs OCR (text layer or recognition) then detection; the suggestions grouped by entity. */
  async function detect(name: string, bytes: Buffer) {
    const documentId = await upload(h.instance, name, bytes);
    const ocr = await finished(h.instance, (await startJob(h.instance, documentId, 'ocr')).id, 120_000);
    expect(ocr.status, ocr.error_message ?? '').toBe('completed');
    resultOf(await runJob(h.instance, documentId, 'detection'));
    return redactionsOf(h.instance, documentId);
  }

  /** The pieces of each value: one match id per value, one box per line, each covering poppler's word there. */
  function expectPieces(redactions: z.infer<typeof Page>, toPage: (word: BboxWord) => BboxWord) {
    for (const [entity, pieces] of WRAPPED) {
      const boxes = redactions.filter((redaction) => redaction.pending_reason?.entity === entity);
      const lines = new Set(pieces.map((piece) => Math.round((words.find((word) => word.text === piece) as BboxWord).y1)));
      expect(boxes.length, `${entity}: ${JSON.stringify(boxes.map((box) => box.coordinates.box))}`).toBe(lines.size);
      expect(new Set(boxes.map((box) => box.pending_reason?.match_id)).size).toBe(1);
      expect(boxes[0]?.pending_reason).toMatchObject({ score: expect.any(Number), rule: expect.stringMatching(entity === 'person_name' ? /^model:/ : /^pattern:/) });
      for (const piece of pieces) {
        const word = words.find((candidate) => candidate.text === piece);
        expect(word, piece).toBeDefined();
        const best = Math.max(...boxes.map((box) => overlapShare(box.coordinates.box as BboxWord, toPage(word as BboxWord))));
        expect(best, `${entity} piece ${piece}`).toBeGreaterThan(0.6);
      }
    }
  }

  it('in a pdfTeX PDF read through its text layer', async () => {
    // The layout really wraps the values: poppler sees "555-" and "0143" on different lines.
    const pieceOf = (text: string) => words.find((word) => word.text === text) as BboxWord;
    expect(pieceOf('555-').y1).not.toBe(pieceOf('0143').y1);
    expectPieces(await detect('wrapped.pdf', pdf), (word) => word);
  }, 120_000);

  it('in an OCR scan of the same page (tesseract), boxes in image pixels', async () => {
    const dir = tempDir('obscura-scan-');
    try {
      fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
      execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', path.join(dir, 'in.pdf'), path.join(dir, 'scan')]);
      const png = fs.readFileSync(path.join(dir, 'scan.png'));
      const redactions = await detect('scan.png', png);
      expect(redactions.every((redaction) => redaction.coordinates.units === 'image_pixels')).toBe(true);
      // Poppler's boxes (points, y up, 792 pt page) in the scan's pixels (200 dpi, y down).
      const scale = 200 / 72;
      expectPieces(redactions, (word) => ({ ...word, x1: word.x1 * scale, x2: word.x2 * scale, y1: (792 - word.y2) * scale, y2: (792 - word.y1) * scale }));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('templates choose a minimum confidence', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => closeHarness(h));

  it('a stored template’s min_score filters its run; the job’s own min_score wins; out of range is refused', async () => {
    const lines = ['Call 555-123-4567 or 217-555-0143 today.'];
    const documentId = await upload(h.instance, 'phones.pdf', minimalPdf('Phones'));
    await storePages(h.instance, documentId, [layoutPage(lines)]);
    const post = (url: string, body: unknown) => h.instance.request({ method: 'POST', url: `/api/v1${url}`, body });
    const template = dataOf(await post('/templates', { name: 'Sure phones only', entity_kinds: ['phone'], layer: 'B6', min_score: 0.95 }), RedactionTemplate, 201);
    expect(template.min_score).toBe(0.95);

    const strict = resultOf(await runJob(h.instance, documentId, 'detection', { template_id: template.id }));
    expect(strict).toMatchObject({ min_score: 0.95, findings: 1, by_entity: { phone: 1 } });
    expect(strict.suggestions).toEqual([expect.objectContaining({ entity: 'phone', score: 1, rule: 'pattern:phone-nanp' })]);
    const [redaction] = await redactionsOf(h.instance, documentId);
    expect(redaction?.coordinates.box).toEqual(at0(lines, '217-555-0143'));
    expect(redaction?.pending_reason).toMatchObject({ rule: 'pattern:phone-nanp', cues: expect.arrayContaining(['valid number']) });

    const loose = resultOf(await runJob(h.instance, documentId, 'detection', { template_id: template.id, min_score: 0.5 }));
    expect(loose).toMatchObject({ min_score: 0.5, findings: 2, suggested: 1, already_present: 1 });

    const cleared = dataOf(await h.instance.request({ method: 'PATCH', url: `/api/v1/templates/${template.id}`, body: { min_score: null } }), RedactionTemplate);
    expect(cleared.min_score).toBeNull();
    const byDefault = resultOf(await runJob(h.instance, documentId, 'detection', { template_id: template.id }));
    expect(byDefault).toMatchObject({ min_score: 0.5, findings: 2 });
    errorOf(await post('/templates', { name: 'Too sure', entity_kinds: ['phone'], layer: 'B6', min_score: 1.5 }), 400, 'validation_error');
    errorOf(await post(`/documents/${documentId}/detection-jobs`, { template: { entity_kinds: ['phone'], min_score: -0.1 } }), 400, 'validation_error');
  });
});

function at0(lines: string[], value: string) {
  const start = (lines[0] as string).indexOf(value);
  return boxOf(0, start, start + value.length);
}
