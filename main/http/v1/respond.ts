import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../db/queries/executor.js';
import type { PageRequest } from '../../db/queries/page.js';
import { completeIdempotencyKey } from '../../db/queries/idempotency-keys.js';
import type { ServiceContext } from '../../services/context.js';
import { decodeCursor, encodeCursor } from '../shared/cursor.js';

/** The acting API key as a service context: organization scoping, audit actor and request id. */
export function serviceContext(request: FastifyRequest): ServiceContext {
  const principal = request.principal;
  if (!principal) throw new Error('integration route reached without an authenticated key');
  return {
    actor: { type: 'api_key', id: String(principal.apiKeyId), organizationId: principal.organizationId },
    requestId: request.id,
    clock: request.server.obscura.runtime.clock,
  };
}

/** Runs a read and wraps it in the single-resource envelope. */
export async function read<T>(request: FastifyRequest, work: (db: Executor, ctx: ServiceContext) => Promise<T>) {
  const data = await work(request.server.obscura.runtime.db, serviceContext(request));
  return { data, request_id: request.id };
}

/**
 * Runs a change in one transaction and stores the idempotent response in that same transaction, so a
 * replay can never disagree with what was committed. The body is serialized here with the route's own
 * response serializer, and exactly those bytes are both stored and sent.
 */
export async function commit<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  work: (trx: Executor, ctx: ServiceContext) => Promise<T>,
) {
  const ctx = serviceContext(request);
  const claim = request.idempotency;
  reply.code(status);
  const body = await request.server.obscura.runtime.db.transaction().execute(async (trx) => {
    const serialized = String(reply.serialize({ data: await work(trx, ctx), request_id: request.id }));
    if (claim) await completeIdempotencyKey(trx, claim.apiKeyId, claim.key, status, serialized);
    return serialized;
  });
  if (claim) claim.settled = true;
  return reply.type('application/json; charset=utf-8').send(body);
}

/** A change answered with 204 No Content (DELETE). */
export async function commitNoContent(request: FastifyRequest, reply: FastifyReply, work: (trx: Executor, ctx: ServiceContext) => Promise<void>) {
  const ctx = serviceContext(request);
  await request.server.obscura.runtime.db.transaction().execute((trx) => work(trx, ctx));
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
