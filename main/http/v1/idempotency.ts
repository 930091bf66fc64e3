import { processIdentity } from '../../cluster/identity.js';
import { isPresent } from '../../cluster/presence.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../common/errors.js';
import {
  claimIdempotencyKey,
  releaseAbandonedIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
} from '../../db/queries/idempotency-keys.js';
import { idempotencyOwnerOf } from '../../services/principal.js';
import { sha256Hex } from '../../services/secrets.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function needsIdempotencyKey(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

function readKey(request: FastifyRequest): string {
  const value = request.headers['idempotency-key'];
  const key = Array.isArray(value) ? value[0] : value;
  if (!key) {
    throw new DomainError('validation_error', 'the Idempotency-Key header is required on POST, PUT and PATCH', [
      { field: 'Idempotency-Key', location: 'headers', message: 'required; use a new UUID per logical operation' },
    ]);
  }
  if (!KEY_PATTERN.test(key)) {
    throw new DomainError('validation_error', 'the Idempotency-Key header must be 1 to 255 visible ASCII characters', [
      { field: 'Idempotency-Key', location: 'headers', message: 'invalid format' },
    ]);
  }
  return key;
}

/** preValidation: a missing key is refused before the body is even looked at. */
export async function requireIdempotencyKey(request: FastifyRequest) {
  if (request.is404 || !needsIdempotencyKey(request.method)) return;
  readKey(request);
}

function fingerprintOf(request: FastifyRequest): string {
  // A document's password (issue 18) is never stored, not even hashed inside a fingerprint.
  const plain = request.body !== null && typeof request.body === 'object' && 'password' in request.body ? { ...request.body, password: null } : request.body;
  const body = plain === undefined ? '' : JSON.stringify(plain);
  return sha256Hex(`${request.method} ${request.url}\n${body}`);
}

/**
 * preHandler: claim the key, or answer from what is stored. The claim is a row in SQLite, so it holds
 * across restarts; a claim left by a killed process is released at the next start.
 */
export async function claimOrReplay(request: FastifyRequest, reply: FastifyReply) {
  if (request.is404 || !needsIdempotencyKey(request.method) || !request.principal) return undefined;
  const key = readKey(request);
  const owner = idempotencyOwnerOf(request.principal);
  const fingerprint = fingerprintOf(request);
  const { db, clock } = request.server.obscura.runtime;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (await claimIdempotencyKey(db, owner, key, fingerprint, clock.now().toISOString(), processIdentity())) {
      request.idempotency = { owner, key, settled: false };
      return undefined;
    }
    const existing = await findIdempotencyKey(db, owner, key);
    if (!existing) continue; // released between our insert and read; claim again
    // A claim of a process that died mid-request (another process serves this retry): free it and claim again.
    if (existing.state === 'running' && existing.claimed_by !== null && !(await isPresent(db, existing.claimed_by))) {
      await releaseAbandonedIdempotencyKey(db, owner, key, existing.claimed_by);
      continue;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was used with a different request; use a new key per operation');
    }
    if (existing.state === 'running' || existing.status_code === null || existing.response_body === null) {
      throw new DomainError('conflict', 'a request with this Idempotency-Key is still being processed; retry shortly');
    }
    return reply
      .code(existing.status_code)
      .header('Idempotent-Replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(existing.response_body);
  }
  throw new DomainError('conflict', 'a request with this Idempotency-Key is still being processed; retry shortly');
}

/** onSend: outcomes not stored inside their transaction (4xx answers) are stored now; 5xx frees the key. */
export async function settleIdempotency(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const claim = request.idempotency;
  if (!claim || claim.settled) return payload;
  claim.settled = true;
  const { db } = request.server.obscura.runtime;
  if (reply.statusCode >= 500) {
    await releaseIdempotencyKey(db, claim.owner, claim.key);
  } else {
    await completeIdempotencyKey(db, claim.owner, claim.key, reply.statusCode, typeof payload === 'string' ? payload : '');
  }
  return payload;
}
