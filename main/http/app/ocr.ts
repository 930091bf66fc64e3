import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Job } from '../../common/schemas/jobs.js';
import { OCR_DEFAULT_DPI } from '../../common/schemas/ocr.js';
import { IdParam } from '../../common/schemas/shared.js';
import { getDocumentText } from '../../services/document-pages.js';
import { latestOcrJob, ocrHealth, startOcr } from '../../services/ocr.js';
import { assertActingAs, commitApp, readApp } from './session.js';

// Spec: application API, "OCR". The client sends ids as strings; numbers are accepted too.
const DocId = z.union([z.string(), z.number().int()]).transform(String).pipe(IdParam);
const UserId = z.union([z.string().max(32), z.number().int()]).transform(String).optional();

const TextQuery = z.object({ doc_id: DocId, user_id: UserId, words: z.enum(['true', 'false']).optional() });
const StatusBody = z.object({
  doc_id: DocId,
  user_id: UserId,
  /** Options of the job started (see the ocr job kind); ignored when a job is already running. */
  options: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A job as the OCR client polls it: `status` at the top level and under `data`, with the job's own values:
 * `completed` and `failed` end the polling (both are in the client's lists), `queued` and `running` do not.
 */
function statusBody(job: Job) {
  const status = { doc_id: job.document_id, job_id: job.id, status: job.status, progress: job.progress, error_message: job.error_message };
  return { success: true, ...status, data: { ...status, job } };
}

export const appOcrRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ocr/text', { schema: { querystring: TextQuery } }, async (request) => {
    assertActingAs(request, request.query.user_id);
    const pages = await readApp(request, (db, ctx) => getDocumentText(db, ctx, request.query.doc_id, request.query.words === 'true'));
    return { success: true, doc_id: String(request.query.doc_id), page_count: pages.length, pages };
  });

  app.post('/ocr/status', { schema: { body: StatusBody } }, async (request, reply) => {
    assertActingAs(request, request.body.user_id);
    const { job, started } = await commitApp(request, reply, 202, (trx, ctx) => startOcr(trx, ctx, request.body.doc_id, request.body.options ?? {}));
    if (!started) reply.code(200);
    return { ...statusBody(job), started };
  });

  app.post('/ocr/latest-status', { schema: { body: StatusBody.omit({ options: true }) } }, async (request) => {
    assertActingAs(request, request.body.user_id);
    return statusBody(await readApp(request, (db, ctx) => latestOcrJob(db, ctx, request.body.doc_id)));
  });

  app.get('/ocr/health', {}, async (_request, reply) => {
    const health = ocrHealth();
    const body = { success: health.ready, status: health.ready ? 'ok' : 'unavailable', ...health, default_dpi: OCR_DEFAULT_DPI };
    if (health.ready) return body;
    const message = `OCR is unavailable: ${health.problems.join('; ')}`;
    return reply.code(503).send({ ...body, error: message, message, code: 'service_unavailable' });
  });
};
