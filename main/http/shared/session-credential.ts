import { fastifyCookie } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../common/errors.js';

export const SESSION_COOKIE = 'obscura_session';

export interface SessionCredential {
  token: string;
  /** A cookie is sent by the browser on its own; a Bearer header only by code that holds the token. */
  source: 'bearer' | 'cookie';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session token of a request (Bearer header first, then the session cookie), if it carries one. */
export function sessionCredential(request: FastifyRequest): SessionCredential | undefined {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return { token: authorization.slice('Bearer '.length).trim(), source: 'bearer' };
  const header = request.headers.cookie;
  // Parsed here rather than by the cookie plugin so the /api/v1 surface pays nothing for requests without cookies.
  const cookie = header ? fastifyCookie.parse(header)[SESSION_COOKIE] : undefined;
  return cookie ? { token: cookie, source: 'cookie' } : undefined;
}

/**
 * Writes authenticated by the cookie alone must prove they come from our own page. The global guard has
 * already refused foreign origins; here a same-origin signal must be present.
 */
export function assertSameOriginForCookieWrite(request: FastifyRequest, credential: SessionCredential | undefined): void {
  if (credential?.source !== 'cookie' || SAFE_METHODS.has(request.method)) return;
  const sameOrigin = request.headers.origin !== undefined || request.headers['sec-fetch-site'] === 'same-origin';
  if (!sameOrigin) throw new DomainError('permission_denied', 'cookie-authenticated changes must come from the Obscura page itself');
}
