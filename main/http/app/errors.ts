import type { FastifyReply, FastifyRequest } from 'fastify';
import { toProblem, type HttpProblem } from '../shared/errors.js';

/**
 * The application API's error body. Its web client reads the text from `error` or `message`, so both are
 * strings; `code` and `details` carry the same machine-readable values as the integration envelope, and
 * fields the spec names (currentVersion, locked_by, …) sit at the top level.
 */
export function appErrorBody(problem: HttpProblem, requestId: string) {
  return {
    success: false,
    error: problem.message,
    message: problem.message,
    code: problem.code,
    ...(problem.details !== undefined && { details: problem.details }),
    ...problem.extra,
    request_id: requestId,
  };
}

export function appErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const problem = toProblem(error);
  if (problem.status >= 500) request.log.error({ err: error }, 'unexpected error');
  return reply.code(problem.status).type('application/json; charset=utf-8').send(appErrorBody(problem, request.id));
}
