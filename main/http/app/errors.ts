import type { FastifyReply, FastifyRequest } from 'fastify';
import { appErrorBody, setRetryAfter, toProblem } from '../shared/errors.js';

export function appErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const problem = toProblem(error);
  if (problem.status >= 500) request.log.error({ err: error }, 'unexpected error');
  setRetryAfter(reply, problem);
  return reply.code(problem.status).type('application/json; charset=utf-8').send(appErrorBody(problem, request.id));
}
