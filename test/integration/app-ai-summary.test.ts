import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUserAndSignIn, signInAdmin, type AppClient } from '../helpers/app-session.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';
import { keyOf } from '../helpers/integration-support.js';
import { closeHarness, fakeServer, harness, storePages, upload, type Harness } from '../helpers/analysis-support.js';
import { layoutPage } from '../helpers/page-layout.js';

// The application API's AI summary endpoints, with the scheduler and worker threads running.

// Six sentences about the heating failure and three unrelated ones; the default summary has five sentences.
const TEXT = [
  'The housing authority inspected the Elm Street apartments after tenants reported broken heating in January.',
  'Inspectors confirmed that the heating system in the Elm Street apartments failed in most units.',
  'The cafeteria menu changed on Tuesday.',
  'Tenants of the Elm Street apartments used space heaters while the heating system was broken.',
  'The parking lot was repainted in the spring.',
  'The owner of the Elm Street apartments disputed the inspection of the heating system.',
  'A new receptionist started work at the front desk.',
  'The housing authority fined the owner for the broken heating system at the Elm Street apartments.',
  'The housing authority ordered the owner to repair the heating system in the Elm Street apartments within ten days.',
];

const SummaryBody = z.strictObject({
  success: z.literal(true),
  summary: z.string(),
  data: z.strictObject({
    summary: z.string(),
    doc_id: z.string(),
    job_id: z.string().nullable(),
    engine: z.string().nullable(),
    model: z.string().nullable(),
    fallback_reason: z.string().nullable(),
    generated_at: z.string().nullable(),
  }),
});
const ErrorBody = z.looseObject({ success: z.literal(false), error: z.string().min(1), message: z.string().min(1), code: z.string() });

describe('application API: AI summary', () => {
  let h: Harness;
  let admin: AppClient;
  let clerk: AppClient;
  let documentId: string;
  beforeAll(async () => {
    h = await harness();
    admin = await signInAdmin(h.instance);
    clerk = await createUserAndSignIn(h.instance);
    documentId = await upload(h.instance, 'inspection.pdf', minimalPdf('Inspection'));
    await storePages(h.instance, documentId, [layoutPage(TEXT)]);
  });
  afterAll(() => closeHarness(h));

  const latest = (client: AppClient, query: string) => client.request('GET', `/ai-summary/latest?${query}`);
  const generate = (client: AppClient, body: unknown) => client.request('POST', '/ai-summary/generate', body);

  it('before any summary: 200 with an empty summary in both places', async () => {
    const response = await latest(clerk, `doc_id=${documentId}&user_id=${clerk.userId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(SummaryBody.parse(response.json())).toEqual({
      success: true,
      summary: '',
      data: { summary: '', doc_id: documentId, job_id: null, engine: null, model: null, fallback_reason: null, generated_at: null },
    });
  });

  it('generate runs a summary job, waits for it and answers the finished summary; latest then returns it', async () => {
    const response = await generate(clerk, { doc_id: documentId, user_id: clerk.userId });
    expect(response.statusCode, response.body).toBe(200);
    const body = SummaryBody.parse(response.json());
    expect(body.summary).not.toBe('');
    expect(body.summary).toBe(body.data.summary);
    expect(body.summary).toMatch(/Elm Street apartments/);
    expect(body.summary).not.toMatch(/cafeteria|parking|receptionist/);
    expect(body.data).toMatchObject({ doc_id: documentId, engine: 'local', model: null, fallback_reason: null, job_id: expect.any(String), generated_at: expect.any(String) });

    const job = await h.instance.request({ method: 'GET', url: `/api/v1/jobs/${body.data.job_id}` });
    expect(job.json()).toMatchObject({ data: { kind: 'summary', status: 'completed', document_id: documentId, result: { summary: body.summary } } });
    expect(SummaryBody.parse((await latest(clerk, `doc_id=${documentId}`)).json())).toEqual(body);
  });

  it('latest returns the newest summary, here written by the configured endpoint', async () => {
    const server = await fakeServer(() => ({ status: 200, body: { model: 'qwen2.5', choices: [{ message: { role: 'assistant', content: 'Heating failed at Elm Street; repairs ordered.' } }] } }));
    h.instance.runtime.config.summary.endpoint = server.url;
    try {
      const generated = SummaryBody.parse((await generate(admin, { doc_id: documentId })).json());
      expect(generated).toMatchObject({ summary: 'Heating failed at Elm Street; repairs ordered.', data: { engine: 'endpoint', model: 'qwen2.5' } });
      expect(SummaryBody.parse((await latest(clerk, `doc_id=${documentId}`)).json())).toEqual(generated);
    } finally {
      h.instance.runtime.config.summary.endpoint = undefined;
      await server.close();
    }
  });

  it('a document without text: 409 with the job’s message in error and message', async () => {
    const bare = await upload(h.instance, 'bare.pdf', minimalPdf('Not read'));
    const response = await generate(clerk, { doc_id: bare, user_id: clerk.userId });
    expect(response.statusCode).toBe(409);
    const body = ErrorBody.parse(response.json());
    expect(body.error).toBe(body.message);
    expect(body.message).toMatch(/^the summary job failed: no text is stored for document \d+ yet: run an OCR job first/);
    expect(body.job_id).toEqual(expect.any(String));
  });

  it('refuses bad parameters, other users’ user_id, other organizations’ documents and missing sessions', async () => {
    const bad = await latest(clerk, 'doc_id=abc');
    expect(bad.statusCode).toBe(400);
    ErrorBody.parse(bad.json());
    expect((await generate(clerk, { user_id: clerk.userId })).statusCode).toBe(400);

    const impersonate = await generate(clerk, { doc_id: documentId, user_id: admin.userId });
    expect(impersonate.statusCode).toBe(403);
    expect(ErrorBody.parse(impersonate.json()).message).toBe('user_id must be your own user id');
    // An administrator may act for another user.
    expect((await latest(admin, `doc_id=${documentId}&user_id=${clerk.userId}`)).statusCode).toBe(200);

    const otherCase = await createCase(h.instance, 'Other org', keyOf(h.instance, 1));
    const [foreign] = await uploadDocuments(h.instance, otherCase, [{ name: 'theirs.pdf', bytes: minimalPdf('Theirs') }], keyOf(h.instance, 1));
    expect((await latest(clerk, `doc_id=${foreign?.id}`)).statusCode).toBe(404);
    const foreignGenerate = await generate(clerk, { doc_id: foreign?.id });
    expect(foreignGenerate.statusCode).toBe(404);
    expect(ErrorBody.parse(foreignGenerate.json()).code).toBe('resource_not_found');

    const anonymous = await h.instance.server.app.inject({ method: 'GET', url: `/ai-summary/latest?doc_id=${documentId}`, headers: { host: h.instance.host } });
    expect(anonymous.statusCode).toBe(401);
  });
});
