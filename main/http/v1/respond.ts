import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../db/queries/executor.js';
import type { PageRequest } from '../../db/queries/page.js';
import { completeIdempotencyKey } from '../../db/queries/idempotency-keys.js';
import type { ServiceContext } from '../../services/context.js';
import { actorOf, type Principal } from '../../services/principal.js';
import { decodeCursor, encodeCursor } from '../shared/cursor.js';
import { transact } from '../../db/transaction.js';

/** The acting API key or user as a service context: organization scoping, audit actor and request id. */
export function serviceContext(request: FastifyRequest): ServiceContext {
  return {
    actor: actorOf(principalOf(request)),
    requestId: request.id,
    clock: request.server.obscura.runtime.clock,
  };
}

/** The authenticated caller; every /api/v1 route runs after authentication. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('integration route reached without an authenticated caller');
  return request.principal;
}

/**
 * Runs a read and wraps it in the single-resource envelope. A read that answers synchronously (see getCase)
 * is answered synchronously too: Fastify then sends it without a promise and a microtask hop per request.
 */
export function read<T>(
  request: FastifyRequest,
  work: (db: Executor, ctx: ServiceContext) => T | Promise<T>,
): { data: T; request_id: string } | Promise<{ data: T; request_id: string }> {
  const data = work(request.server.obscura.runtime.db, serviceContext(request));
  if (data instanceof Promise) return data.then((value: T) => ({ data: value, request_id: request.id }));
  return { data, request_id: request.id };
}

/**
 * Runs a change in one transaction and stores the idempotent response in that same transaction, so a
 * replay can never disagree with what was committed. The body is serialized here with the route's own
 * response serializer, and exactly those bytes are both stored and sent, unless `forReplay` removes a secret
 * from the stored copy.
 */
export async function commit<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  work: (trx: Executor, ctx: ServiceContext) => Promise<T>,
  options: { forReplay?: (data: T) => T } = {},
) {
  const ctx = serviceContext(request);
  const claim = request.idempotency;
  reply.code(status);
  const body = await transact(request.server.obscura.runtime.db, async (trx) => {
    const data = await work(trx, ctx);
    const serialized = String(reply.serialize({ data, request_id: request.id }));
    // A one-time secret in the answer (a new API key, an invitation token) is not stored for replays.
    const stored = options.forReplay ? String(reply.serialize({ data: options.forReplay(data), request_id: request.id })) : serialized;
    if (claim) await completeIdempotencyKey(trx, claim.owner, claim.key, status, stored);
    return serialized;
  });
  if (claim) claim.settled = true;
  return reply.type('application/json; charset=utf-8').send(body);
}

/** A change answered with 204 No Content (DELETE). */
export async function commitNoContent(request: FastifyRequest, reply: FastifyReply, work: (trx: Executor, ctx: ServiceContext) => Promise<void>) {
  const ctx = serviceContext(request);
  await transact(request.server.obscura.runtime.db, (trx) => work(trx, ctx));
  return reply.code(204).send();
}

/** Runs a keyset-paged read and wraps it in the list envelope with an opaque cursor. */
export async function paged<T>(
  request: FastifyRequest,
  list: string,
  query: { limit: number; cursor?: string | undefined },
  work: (db: Executor, ctx: ServiceContext, page: PageRequest) => Promise<{ items: T[]; nextAfterId: number | null }>,
  order: 'asc' | 'desc' = 'asc',
) {
  const page = { limit: query.limit, afterId: decodeCursor(list, query.cursor), order };
  const result = await work(request.server.obscura.runtime.db, serviceContext(request), page);
  return { data: result.items, cursor: encodeCursor(list, result.nextAfterId), request_id: request.id };
}
