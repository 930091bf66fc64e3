import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';

// A real HTTP receiver for webhook tests, verifying like an independent integration would: with the
// `standardwebhooks` package and nothing of Obscura's own code.

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

/** How to answer one request; `hang` never answers (until the receiver closes). */
export type Reply = { status: number; body?: string; delayMs?: number; headers?: Record<string, string> } | { hang: true };

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers for the next requests, in order; afterwards `fallback` answers. */
  queue(...replies: Reply[]): void;
  fallback: Reply;
  /** Resolves once at least `count` requests arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const planned: Reply[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received,
    fallback: { status: 200, body: 'ok' },
    queue: (...replies) => void planned.push(...replies),
    async waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return received;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${received.length} requests, expected ${count}`));
        }, timeoutMs);
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
      return received;
    },
    async close() {
      for (const response of hanging) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
      received.push({ path: request.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const waiter of [...waiters]) waiter();
      const reply = planned.shift() ?? receiver.fallback;
      if ('hang' in reply) {
        hanging.add(response);
        return;
      }
      const send = () => response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? '');
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export const DeliveredPayload = z.strictObject({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) });
export type DeliveredPayload = z.infer<typeof DeliveredPayload>;

/** Verifies a request with the secret as a receiver would; throws WebhookVerificationError when it does not verify. */
export function verifyDelivery(secret: string, hit: ReceivedWebhook): DeliveredPayload {
  return DeliveredPayload.parse(new Webhook(secret).verify(hit.body, hit.headers));
}

/** The `v1,…` entries of the webhook-signature header. */
export function signaturesOf(hit: ReceivedWebhook): string[] {
  return (hit.headers['webhook-signature'] ?? '').split(' ').filter(Boolean);
}
