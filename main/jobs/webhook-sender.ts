import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AttemptResult } from '../services/webhook-deliveries.js';
import { RESPONSE_EXCERPT_BYTES } from '../services/webhook-deliveries.js';
import { isLocalAddress, RefusedDestinationError, resolveDestination, type HostResolver, type ResolvedAddress } from '../services/webhook-destinations.js';

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendOptions {
  timeoutMs: number;
  maxRedirects: number;
  resolve: HostResolver;
  /** Aborted when the process stops: the attempt is then `interrupted`, not failed. */
  shutdown: AbortSignal;
  /** The endpoint's store_response_body: keep the answer's first bytes (public addresses only). */
  keepResponseBody?: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A lookup that hands the connection exactly the addresses that were checked, so a name cannot resolve to
 * a refused address between the check and the connect (DNS rebinding). Node's fetch has no such hook
 * without the undici package, which is why this sender uses node:http.
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, addresses.map((entry) => ({ address: entry.address, family: entry.family })));
      return;
    }
    const wanted = options.family === 6 || options.family === 4 ? addresses.find((entry) => entry.family === options.family) : addresses[0];
    const first = wanted ?? addresses[0];
    if (!first) callback(new Error('no address'), '', 4);
    else callback(null, first.address, first.family);
  };
}

interface HopResponse {
  statusCode: number;
  location: string | undefined;
  excerpt: string | null;
}

/** One POST; resolves once the status line is in and up to RESPONSE_EXCERPT_BYTES of the body were read. */
function post(url: URL, addresses: ResolvedAddress[], message: OutgoingWebhook, signal: AbortSignal, keepBody: boolean): Promise<HopResponse> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...message.headers, 'content-length': String(Buffer.byteLength(message.body)) },
        lookup: pinnedLookup(addresses),
        // A fresh connection per attempt: pooled sockets would outlive the address check they were made for.
        agent: false,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          const excerpt = keepBody ? Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8') : null;
          resolve({ statusCode: response.statusCode ?? 0, location: response.headers.location, excerpt });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (keepBody) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) finish();
        });
        response.on('end', finish);
        // The status decides the outcome; a body cut short (timeout, reset) only shortens the excerpt.
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    request.on('error', reject);
    request.end(message.body);
  });
}

function describeError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs / 1000} s (webhooks.timeoutSeconds)`;
  if (error instanceof RefusedDestinationError) return error.message;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused (${message})`;
    case 'ECONNRESET':
      return 'the connection was reset before an answer arrived';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name could not be resolved (${message})`;
    default:
      return message;
  }
}

/**
 * Sends one signed webhook: checks the destination (and every redirect hop, when redirects are followed),
 * POSTs within the timeout and reports the status, a body excerpt, or why there was none.
 */
export async function sendWebhook(message: OutgoingWebhook, options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([timeout, options.shutdown]);
  const elapsed = () => performance.now() - started;
  let url = new URL(message.url);
  try {
    for (let hop = 0; ; hop += 1) {
      const addresses = await abortable(resolveDestination(url, options.resolve), signal);
      // A body is kept only when the endpoint opted in and every address it reached is public: otherwise a
      // webhook aimed at a local or LAN service would read that service for whoever manages webhooks.
      const keepBody = options.keepResponseBody === true && addresses.every((address) => !isLocalAddress(address));
      const response = await post(url, addresses, message, signal, keepBody);
      if (REDIRECTS.has(response.statusCode) && response.location) {
        const target = new URL(response.location, url);
        if (hop < options.maxRedirects) {
          url = target;
          continue;
        }
        const why = options.maxRedirects === 0 ? 'redirects are not followed (webhooks.maxRedirects is 0)' : `more than ${options.maxRedirects} redirects`;
        return { kind: 'response', statusCode: response.statusCode, excerpt: response.excerpt, durationMs: elapsed(), error: `redirect to ${target.href} not followed: ${why}` };
      }
      return { kind: 'response', statusCode: response.statusCode, excerpt: response.excerpt, durationMs: elapsed(), error: null };
    }
  } catch (error) {
    if (options.shutdown.aborted) return { kind: 'interrupted', durationMs: elapsed() };
    return { kind: 'error', error: describeError(error, timeout.aborted, options.timeoutMs), durationMs: elapsed() };
  }
}

/** Rejects when the signal fires, so a slow name lookup is bounded by the same timeout. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
