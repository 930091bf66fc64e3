import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { login, logout } from '../../services/sessions.js';
import { SESSION_COOKIE, sessionUser } from './session.js';

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
  app.post('/api/auth/login', { config: { public: true }, schema: { body: LoginBody } }, async (request, reply) => {
    const { runtime } = request.server.obscura;
    const ttl = runtime.config.sessions.ttlSeconds;
    const result = await runtime.db.transaction().execute((trx) => login(trx, runtime.clock, request.body.username, request.body.password, ttl));
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
