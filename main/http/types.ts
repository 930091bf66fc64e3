import type { Scope } from '../common/scopes.js';
import type { Runtime } from '../runtime.js';
import type { ApiPrincipal } from '../services/api-keys.js';
import type { OriginPolicy } from './shared/security.js';

/** What the HTTP layer knows about itself once it listens. */
export interface HttpContext {
  runtime: Runtime;
  /** e.g. http://127.0.0.1:4791; absolute URLs handed to clients (upload and download URLs) start with it. */
  baseUrl: string;
  originPolicy: OriginPolicy;
}

export interface IdempotencyClaim {
  apiKeyId: number;
  key: string;
  /** Set once the outcome is stored, so the onSend hook does not store it again. */
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    obscura: HttpContext;
  }
  interface FastifyRequest {
    principal: ApiPrincipal | null;
    idempotency: IdempotencyClaim | null;
  }
  interface FastifyContextConfig {
    /** Integration API: the caller needs at least one of these scopes; [] means any valid key. */
    scopes?: readonly Scope[];
  }
}
