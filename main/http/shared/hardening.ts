import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { DomainError } from '../../common/errors.js';

/**
 * Limits shared by both API surfaces (docs/security.md lists each with its default):
 * JSON nesting depth, bodies on operations that take none, response headers every answer carries.
 */

/** Deeper JSON is refused at parse time: JSON.stringify (idempotency fingerprints, logs) recurses and would overflow. */
export const MAX_JSON_DEPTH = 64;

/** Whether nesting anywhere exceeds `max`; strings are skipped so brackets inside them do not count. */
export function jsonDepthExceeded(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return false;
}

export function tooDeepError(): DomainError {
  return new DomainError('validation_error', `request body is nested deeper than ${MAX_JSON_DEPTH} levels`, [
    { field: 'body', location: 'body', message: `at most ${MAX_JSON_DEPTH} nested objects or arrays` },
  ]);
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Operations that declare no body refuse one (400) instead of ignoring it: a client sending fields to an
 * operation that does not read them is mistaken, and silently dropping them hides that. No bytes, `null`
 * and `{}` count as no body (docs/api.md, Conventions).
 */
function refuseUnexpectedBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  const { body } = request;
  const empty = body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) {
    done(new DomainError('validation_error', 'this operation takes no request body', [{ field: 'body', location: 'body', message: 'send no body' }]));
    return;
  }
  done();
}

/** onRoute hook: adds the body refusal to write routes without a body schema (the /files upload routes read raw bytes). */
export function guardBodylessRoute(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.some((method) => WRITE_METHODS.has(method))) return;
  if (route.url.startsWith('/files/')) return;
  const schema = route.schema as { body?: unknown } | undefined;
  if (schema?.body !== undefined) return;
  // preHandler, first: after the Idempotency-Key check (preValidation) and validation, before the key is claimed.
  const existing = route.preHandler;
  route.preHandler = [refuseUnexpectedBody, ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing])];
}

/** The server's own policy; the renderer's <meta> CSP is the same, this one also covers JSON and downloads. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; img-src 'self' blob: data:; font-src 'self' data:; " +
  "style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Headers on every response (lower case, as Fastify stores them). */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  ['x-frame-options', 'DENY'],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
];
