import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '../../common/schemas/shared.js';
import { generateSummary, latestSummary } from '../../services/summaries.js';
import { assertActingAs, readApp, userContext } from './session.js';

const SummaryRequest = z.object({ doc_id: IdParam, user_id: z.string().max(32).optional() });

/** Waiting for a queued summary: its time limit plus a minute in the queue. */
const QUEUE_SLACK_SECONDS = 60;

// Spec: application API, "AI summary". The client reads `summary` or `data.summary`; errors `error`/`message`.
export const appAiSummaryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ai-summary/latest', { schema: { querystring: SummaryRequest } }, (request) => {
    assertActingAs(request, request.query.user_id);
    return readApp(request, (db, ctx) => latestSummary(db, ctx, request.query.doc_id));
  });

  app.post('/ai-summary/generate', { schema: { body: SummaryRequest } }, async (request, reply) => {
    assertActingAs(request, request.body.user_id);
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) gone.abort();
    });
    const { runtime } = request.server.obscura;
    const timeoutMs = (runtime.config.jobs.timeLimitSeconds.summary + QUEUE_SLACK_SECONDS) * 1000;
    return generateSummary(runtime.db, userContext(request), request.body.doc_id, { timeoutMs, signal: gone.signal });
  });
};
