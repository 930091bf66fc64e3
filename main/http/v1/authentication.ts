import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../common/errors.js';
import { authenticateApiKey } from '../../services/api-keys.js';
import type { RateLimits } from './rate-limit.js';

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One hook for every integration route: throttle the raw key, authenticate it, throttle the key and its
 * organization, then check the route's declared scopes. Routes never check permissions themselves.
 */
export function authenticateAndAuthorize(limits: RateLimits) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = headerValue(request.headers['x-api-key']);
    // Unknown routes need no key, but they count against the raw tier and carry the headers like every response.
    await limits.consume(reply, 'raw-key', raw ?? '');
    if (request.is404) return;
    const { runtime } = request.server.obscura;
    const principal = await authenticateApiKey(runtime.db, raw, runtime.clock.now());
    request.principal = principal;
    await limits.consume(reply, 'api-key', String(principal.apiKeyId));
    await limits.consume(reply, 'organization', String(principal.organizationId));
    const required = request.routeOptions.config.scopes;
    if (required === undefined) throw new Error(`route ${request.routeOptions.url} declares no scopes`);
    if (required.length > 0 && !required.some((scope) => principal.scopes.has(scope))) {
      throw new DomainError('permission_denied', `this key lacks the scope ${required.join(' or ')}`, { required_scopes: required });
    }
  };
}
