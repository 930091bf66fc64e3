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
  // Callback style: runs first on every request; refusing means answering and not calling done().
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const host = (request.headers.host ?? '').toLowerCase();
    if (!policy.allowedHosts.has(host)) {
      sendProblem(request, reply, { status: 403, code: 'permission_denied', message: `requests for host "${host}" are not served here` });
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, policy)) {
      sendProblem(request, reply, { status: 403, code: 'permission_denied', message: `cross-origin requests from ${origin} are refused` });
      return;
    }
    if (origin === undefined && request.headers['sec-fetch-site'] === 'cross-site') {
      sendProblem(request, reply, { status: 403, code: 'permission_denied', message: 'cross-site requests are refused' });
      return;
    }
    done();
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
