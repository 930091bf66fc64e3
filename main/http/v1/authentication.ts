import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { DomainError } from '../../common/errors.js';
import { authenticateApiKey, cachedApiKey, parseApiKey } from '../../services/api-keys.js';
import { isLoopbackAddress } from '../../services/login-throttle.js';
import type { ApiKeyPrincipal, Principal } from '../../services/principal.js';
import { authenticateUserPrincipal } from '../../services/user-principal.js';
import { assertSameOriginForCookieWrite, sessionCredential, type SessionCredential } from '../shared/session-credential.js';
import type { RateLimits } from './rate-limit.js';

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The route's declared scopes against the caller's: routes never check permissions themselves. */
function authorize(request: FastifyRequest, principal: Principal): void {
  const required = request.routeOptions.config.scopes;
  if (required === undefined) throw new Error(`route ${request.routeOptions.url} declares no scopes`);
  if (required.length > 0 && !required.some((scope) => principal.scopes.has(scope))) {
    const who = principal.kind === 'api_key' ? 'this key lacks' : 'your roles do not grant';
    throw new DomainError('permission_denied', `${who} the scope ${required.join(' or ')}`, { required_scopes: required });
  }
  const also = request.routeOptions.config.alsoScopes;
  if (also && !also.every((scope) => principal.scopes.has(scope))) {
    const who = principal.kind === 'api_key' ? 'this key lacks' : 'your roles do not grant';
    throw new DomainError('permission_denied', `${who} the administrative scope ${also.join(' and ')} this operation also needs`, { required_scopes: [...required, ...also] });
  }
}

/**
 * One hook for every integration route. An `x-api-key` header makes the caller an API key: throttle the raw
 * key, authenticate it, throttle the key and its organization, then check the route's declared scopes.
 * Without that header, the application session (Bearer token or session cookie) makes the caller the
 * signed-in user, with the scopes of the user's roles; the user is throttled like a key.
 * Routes never check permissions themselves.
 *
 * Callback style with a synchronous fast path: with rate limits off there is nothing to count, and a key
 * resolved since the last credentials change needs no database access, so the common request pays for no
 * promise at all. Every other case (limits on, unknown or uncached key, sessions) takes the asynchronous path.
 */
export function authenticateAndAuthorize(limits: RateLimits) {
  const authenticateKey = async (request: FastifyRequest, reply: FastifyReply, raw: string | undefined): Promise<void> => {
    // Unknown routes need no key, but they count against the raw tier and carry the headers like every response.
    await limits.consume(reply, 'raw-key', raw ?? '');
    if (request.is404) return;
    const { runtime, throttles } = request.server.obscura;
    const now = runtime.clock.now();
    // A valid key is never held up, whatever others guessed: it is looked up first (a 256-bit secret cannot be
    // guessed, so answering it costs nothing). Unknown keys are slowed per key id and, off loopback, per address.
    let principal: ApiKeyPrincipal;
    try {
      principal = await authenticateApiKey(runtime.db, raw, now);
    } catch (error) {
      if (throttles && raw && error instanceof DomainError && error.code === 'authentication_failed') {
        const prefix = parseApiKey(raw)?.lookupId ?? 'malformed';
        const remote = !isLoopbackAddress(request.ip);
        await throttles.apiKeyPrefix.check(prefix, now.getTime());
        if (remote) await throttles.apiKeyAddress.check(request.ip, now.getTime());
        await throttles.apiKeyPrefix.fail(prefix, now.getTime());
        if (remote) await throttles.apiKeyAddress.fail(request.ip, now.getTime());
      }
      throw error;
    }
    request.principal = principal;
    await limits.consume(reply, 'api-key', String(principal.apiKeyId));
    await limits.consume(reply, 'organization', String(principal.organizationId));
    authorize(request, principal);
  };

  const authenticateUser = async (request: FastifyRequest, reply: FastifyReply, credential: SessionCredential): Promise<void> => {
    if (request.is404) return;
    const { runtime } = request.server.obscura;
    const principal = await authenticateUserPrincipal(runtime.db, runtime.clock, credential.token);
    assertSameOriginForCookieWrite(request, credential);
    request.principal = principal;
    // Same limits as a key; the `user:` prefix keeps user ids and key ids apart in the per-key tier.
    await limits.consume(reply, 'api-key', `user:${principal.userId}`);
    await limits.consume(reply, 'organization', String(principal.organizationId));
    authorize(request, principal);
  };

  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const raw = headerValue(request.headers['x-api-key']);
    if (raw === undefined) {
      const credential = sessionCredential(request);
      if (credential) {
        authenticateUser(request, reply, credential).then(
          () => done(),
          (error: unknown) => done(asError(error)),
        );
        return;
      }
    }
    if (!limits.enabled) {
      if (request.is404) {
        done();
        return;
      }
      if (raw) {
        const { runtime } = request.server.obscura;
        let principal: ApiKeyPrincipal | undefined;
        try {
          principal = cachedApiKey(runtime.db, raw, runtime.clock.now());
          if (principal) {
            request.principal = principal;
            authorize(request, principal);
          }
        } catch (error) {
          done(asError(error));
          return;
        }
        if (principal) {
          done();
          return;
        }
      }
    }
    authenticateKey(request, reply, raw).then(
      () => done(),
      (error: unknown) => done(asError(error)),
    );
  };
}
