import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../common/errors.js';
import { assertSameOriginForCookieWrite, sessionCredential } from '../shared/session-credential.js';
import type { Executor } from '../../db/queries/executor.js';
import type { ServiceContext } from '../../services/context.js';
import { authenticateSession, type SessionUser } from '../../services/sessions.js';
import { transact } from '../../db/transaction.js';

export { SESSION_COOKIE } from '../shared/session-credential.js';

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Application API: reachable without a session (sign-in). */
    public?: boolean;
  }
}

/**
 * Session check for every application route: a Bearer token or the session cookie. A cookie is sent by
 * the browser on its own, so writes that rely on it must also prove they come from our own page.
 */
export async function requireSession(request: FastifyRequest) {
  if (request.is404 || request.routeOptions.config.public) return;
  const credential = sessionCredential(request);
  const { runtime } = request.server.obscura;
  request.sessionUser = await authenticateSession(runtime.db, runtime.clock, credential?.token);
  assertSameOriginForCookieWrite(request, credential);
}

export function sessionUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new Error('application route reached without a session');
  return request.sessionUser;
}

export function userContext(request: FastifyRequest): ServiceContext {
  const user = sessionUser(request);
  return {
    actor: { type: 'user', id: String(user.userId), organizationId: user.organizationId },
    requestId: request.id,
    clock: request.server.obscura.runtime.clock,
  };
}

/** `user_id` parameters must name the signed-in user, unless that user is an administrator. */
export function assertActingAs(request: FastifyRequest, userId: string | undefined): void {
  const user = sessionUser(request);
  if (userId === undefined || userId === '' || userId === String(user.userId) || user.isAdmin) return;
  throw new DomainError('permission_denied', 'user_id must be your own user id');
}

export function readApp<T>(request: FastifyRequest, work: (db: Executor, ctx: ServiceContext) => Promise<T>): Promise<T> {
  return work(request.server.obscura.runtime.db, userContext(request));
}

/** Runs an application change in one transaction. */
export async function commitApp<T>(request: FastifyRequest, reply: FastifyReply, status: number, work: (trx: Executor, ctx: ServiceContext) => Promise<T>): Promise<T> {
  const ctx = userContext(request);
  const result = await transact(request.server.obscura.runtime.db, (trx) => work(trx, ctx));
  reply.code(status);
  return result;
}
