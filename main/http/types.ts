import type { Scope } from '../common/scopes.js';
import type { Runtime } from '../runtime.js';
import type { IdempotencyOwner } from '../db/queries/idempotency-keys.js';
import type { Principal } from '../services/principal.js';
import type { FailureThrottle } from '../services/login-throttle.js';
import type { OriginPolicy } from './shared/security.js';

/** What the HTTP layer knows about itself once it listens. */
export interface HttpContext {
  runtime: Runtime;
  /** e.g. http://127.0.0.1:4791; absolute URLs handed to clients (upload and download URLs) start with it. */
  baseUrl: string;
  originPolicy: OriginPolicy;
  /** Failed sign-ins per account and per client address, failed API-key authentications per key id and address; null when disabled. */
  throttles: { account: FailureThrottle; address: FailureThrottle; apiKeyAddress: FailureThrottle; apiKeyPrefix: FailureThrottle } | null;
  /** Every route with its schemas, as registered (for the fuzz suite and route-wide checks). */
  routes: RegisteredRoute[];
}

export interface RegisteredRoute {
  method: string;
  url: string;
  schema: { params?: unknown; querystring?: unknown; body?: unknown } | undefined;
}

export interface IdempotencyClaim {
  owner: IdempotencyOwner;
  key: string;
  /** Set once the outcome is stored, so the onSend hook does not store it again. */
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    obscura: HttpContext;
  }
  interface FastifyRequest {
    /** The authenticated caller of an /api/v1 route: an API key or a signed-in user. */
    principal: Principal | null;
    idempotency: IdempotencyClaim | null;
  }
  interface FastifyContextConfig {
    /** Integration API: the caller needs at least one of these scopes; [] means any authenticated caller. */
    scopes?: readonly Scope[];
    /** Integration API: the caller needs every one of these too (admin-level operations, e.g. watched folders). */
    alsoScopes?: readonly Scope[];
  }
}
