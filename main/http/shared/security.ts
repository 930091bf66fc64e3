import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './errors.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Host names a request may carry: the server's own address and port, and the loopback aliases when it
 * listens on loopback. Anything else is a DNS-rebinding attempt (a foreign name resolving to 127.0.0.1).
 */
export function allowedHostsFor(host: string, port: number): Set<string> {
  const names = new Set<string>([host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]);
  if (host === '127.0.0.1' || host === '::1' || host === 'localhost') for (const name of LOOPBACK_NAMES) names.add(name);
  return new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
}

export interface OriginPolicy {
  /** Filled in once the server knows its port. */
  allowedHosts: Set<string>;
}

/** Rejects foreign Host headers and cross-origin browser requests; the app's own origin is the only one allowed. */
export function guardHostAndOrigin(policy: OriginPolicy) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const host = (request.headers.host ?? '').toLowerCase();
    if (!policy.allowedHosts.has(host)) {
      return sendProblem(request, reply, { status: 403, code: 'permission_denied', message: `requests for host "${host}" are not served here` });
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, policy)) {
      return sendProblem(request, reply, { status: 403, code: 'permission_denied', message: `cross-origin requests from ${origin} are refused` });
    }
    if (origin === undefined && request.headers['sec-fetch-site'] === 'cross-site') {
      return sendProblem(request, reply, { status: 403, code: 'permission_denied', message: 'cross-site requests are refused' });
    }
    return undefined;
  };
}

function isOwnOrigin(origin: string, policy: OriginPolicy): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && policy.allowedHosts.has(url.host.toLowerCase());
  } catch {
    return false;
  }
}
