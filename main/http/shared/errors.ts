import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, ERROR_STATUS, type ErrorCode } from '../../common/errors.js';
import { isRetryableTransactionError, isUniqueViolation } from '../../db/dialect.js';

export interface HttpProblem {
  status: number;
  code: ErrorCode;
  message: string;
  details?: unknown;
  extra?: Record<string, unknown>;
}

/** Error bodies list at most this many problems, then how many more there were (a huge batch must not yield a huge error). */
export const MAX_ERROR_DETAILS = 50;

function capDetails(problem: HttpProblem): HttpProblem {
  if (!Array.isArray(problem.details) || problem.details.length <= MAX_ERROR_DETAILS) return problem;
  const omitted = problem.details.length - MAX_ERROR_DETAILS;
  return { ...problem, details: problem.details.slice(0, MAX_ERROR_DETAILS), extra: { ...problem.extra, details_omitted: omitted } };
}

/** Maps anything thrown while handling a request to the status and code the caller sees. */
export function toProblem(error: unknown): HttpProblem {
  return capDetails(problemOf(error));
}

function problemOf(error: unknown): HttpProblem {
  if (error instanceof DomainError) {
    return {
      status: ERROR_STATUS[error.code],
      code: error.code,
      message: error.message,
      ...(error.details !== undefined && { details: error.details }),
      ...(error.extra && { extra: error.extra }),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const location = (error as { validationContext?: string }).validationContext ?? 'body';
    const details = error.validation.map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return { field: path || location, location, message: issue.message };
    });
    const names = [...new Set(details.map((detail) => detail.field))];
    const fields = names.length > 10 ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more` : names.join(', ');
    return { status: 400, code: 'validation_error', message: `invalid ${location}: ${fields}`, details };
  }
  // A concurrent request got there first (unique key taken, or PostgreSQL gave up serialising the two after
  // retries): the caller's change was not applied and may be sent again.
  if (isUniqueViolation(error) || isRetryableTransactionError(error)) {
    return { status: 409, code: 'conflict', message: 'the change conflicts with another made at the same time; nothing was changed, reload and retry' };
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'payload_too_large', message: 'request body is larger than the server accepts' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'unsupported_media_type', message: 'send the body as application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'validation_error', message: 'request body is not valid JSON', details: [{ field: 'body', location: 'body', message: fastifyError.message ?? 'invalid JSON' }] };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'validation_error', message: 'Content-Length does not match the body' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, code: 'uri_too_long', message: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters` };
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: 'validation_error', message: 'the URL has an invalid path component', details: [{ field: 'url', location: 'path', message: 'not valid percent-encoding' }] };
    default:
      break;
  }
  if (fastifyError.statusCode === 400 && error instanceof SyntaxError) {
    return { status: 400, code: 'validation_error', message: 'request body is not valid JSON' };
  }
  // Any other 4xx Fastify raises itself (406, 405, …) keeps its status and gets the envelope.
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return frameworkProblem(status, fastifyError.message);
  return { status: 500, code: 'internal_error', message: 'unexpected error; retry with the same Idempotency-Key' };
}

/** Longest path parameter the router accepts (Fastify's maxParamLength); longer ones answer 414. */
export const MAX_PARAM_LENGTH = 100;

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'authentication_failed',
  403: 'permission_denied',
  404: 'resource_not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

function frameworkProblem(status: number, message: string | undefined): HttpProblem {
  return { status, code: CODE_BY_STATUS[status] ?? 'validation_error', message: message || 'the request cannot be served as sent' };
}

/** The integration API's error envelope: `{ error: { code, message, details?, ... }, request_id }`. */
export function errorEnvelope(problem: HttpProblem, requestId: string) {
  return {
    error: {
      code: problem.code,
      message: problem.message,
      ...(problem.details !== undefined && { details: problem.details }),
      ...problem.extra,
    },
    request_id: requestId,
  };
}

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

// Everything under /api/ but the integration API's /api/v1 belongs to the application API, known route or not,
// and so do /ocr and /ai-summary (any letter case: an unknown spelling is still a client of that surface).
const INTEGRATION_PATHS = /^\/api\/v1(\/|\?|$)/i;
const APPLICATION_PATHS = /^\/(api|ocr|ai-summary)(\/|\?|$)/i;

/** Paths of the application API, whose clients expect its error body even from shared guards and 404s. */
export function isApplicationPath(url: string): boolean {
  return APPLICATION_PATHS.test(url) && !INTEGRATION_PATHS.test(url);
}

/** A throttled answer (extra.retry_after, seconds) tells the client when to come back, as rate limits do. */
export function setRetryAfter(reply: FastifyReply, problem: HttpProblem): void {
  const retryAfter = problem.extra?.retry_after;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
}

/** Answers with the error body of the surface the path belongs to. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem) {
  if (problem.status >= 500) request.log.error({ err: problem }, 'request failed');
  setRetryAfter(reply, problem);
  const body = isApplicationPath(request.url) ? appErrorBody(problem, request.id) : errorEnvelope(problem, request.id);
  return reply.code(problem.status).type('application/json; charset=utf-8').send(body);
}

/** Error handler for surfaces that use the envelope; logs unexpected errors with their stack. */
export function envelopeErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const problem = toProblem(error);
  if (problem.status >= 500) request.log.error({ err: error }, 'unexpected error');
  setRetryAfter(reply, problem);
  return reply.code(problem.status).type('application/json; charset=utf-8').send(errorEnvelope(problem, request.id));
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(request, reply, { status: 404, code: 'resource_not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` });
}
