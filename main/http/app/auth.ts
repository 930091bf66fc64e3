import os from 'node:os';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../common/errors.js';
import { ConcurrencyGate, isLoopbackAddress } from '../../services/login-throttle.js';
import { checkPassword, logout, openSession, recordLoginFailure } from '../../services/sessions.js';
import { SESSION_COOKIE, sessionUser } from './session.js';
import { transact } from '../../db/transaction.js';

export const LOGIN_BODY_LIMIT = 16 * 1024;

const LoginBody = z.strictObject({ username: z.string().min(1).max(200), password: z.string().min(1).max(1000) });

function publicUser(user: ReturnType<typeof sessionUser>) {
  return {
    id: String(user.userId),
    username: user.username,
    display_name: user.displayName,
    is_admin: user.isAdmin,
    organization_id: String(user.organizationId),
  };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // One core stays free for everything else (docs/security.md).
  const passwordChecks = new ConcurrencyGate(Math.max(1, os.availableParallelism() - 1));
  // A sign-in is two short strings: anything larger is refused (413) before it is parsed.
  app.post('/api/auth/login', { config: { public: true }, bodyLimit: LOGIN_BODY_LIMIT, schema: { body: LoginBody } }, async (request, reply) => {
    const { runtime, throttles } = request.server.obscura;
    const ttl = runtime.config.sessions.ttlSeconds;
    const account = request.body.username.toLowerCase();
    const now = runtime.clock.now().getTime();
    // Refused before the password is even hashed: a delayed or locked name costs the server nothing. Failures of
    // other names never hold up this one, and the address counts only off loopback (docs/security.md).
    const remote = !isLoopbackAddress(request.ip);
    if (remote) await throttles?.address.check(request.ip, now);
    await throttles?.account.check(account, now);
    const checked = await passwordChecks.run(() => checkPassword(runtime.db, request.body.username, request.body.password));
    if (!checked.ok) {
      const failure = await throttles?.account.fail(account, now);
      if (remote) await throttles?.address.fail(request.ip, now);
      const user = checked.user;
      if (user) {
        await transact(runtime.db, (trx) =>
          recordLoginFailure(trx, runtime.clock, user, { failures: failure?.failures ?? 1, locked: failure?.lockedNow ?? false, address: request.ip }),
        );
      }
      throw new DomainError('authentication_failed', checked.reason);
    }
    await throttles?.account.succeed(account);
    const result = await transact(runtime.db, (trx) => openSession(trx, runtime.clock, checked.user, ttl));
    reply.setCookie(SESSION_COOKIE, result.token, { httpOnly: true, sameSite: 'strict', path: '/', maxAge: ttl, secure: false });
    return { success: true, token: result.token, expires_at: result.user.expiresAt, user: publicUser(result.user), request_id: request.id };
  });

  app.post('/api/auth/logout', {}, async (request, reply) => {
    const { runtime } = request.server.obscura;
    await logout(runtime.db, runtime.clock, sessionUser(request));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true, message: 'Signed out', request_id: request.id };
  });

  app.get('/api/auth/session', {}, async (request) => {
    const user = sessionUser(request);
    return { success: true, authenticated: true, expires_at: user.expiresAt, user: publicUser(user), request_id: request.id };
  });
};
