import type { IdempotencyKeysTable } from '../schema.js';
import type { Executor } from './executor.js';

/** Whose key space an Idempotency-Key lives in: one API key, or one signed-in user. */
export interface IdempotencyOwner {
  type: IdempotencyKeysTable['principal_type'];
  id: number;
}

export function findIdempotencyKey(db: Executor, owner: IdempotencyOwner, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('principal_type', '=', owner.type)
    .where('principal_id', '=', owner.id)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Claims the key for a running request; false when another request already holds or finished it. */
export async function claimIdempotencyKey(db: Executor, owner: IdempotencyOwner, key: string, fingerprint: string, now: string, claimedBy: string | null = null): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ principal_type: owner.type, principal_id: owner.id, idempotency_key: key, fingerprint, state: 'running', created_at: now, claimed_by: claimedBy })
    .onConflict((oc) => oc.columns(['principal_type', 'principal_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function completeIdempotencyKey(db: Executor, owner: IdempotencyOwner, key: string, statusCode: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status_code: statusCode, response_body: body })
    .where('principal_type', '=', owner.type)
    .where('principal_id', '=', owner.id)
    .where('idempotency_key', '=', key)
    .execute();
}

function deleteRunningClaim(db: Executor, owner: IdempotencyOwner, key: string) {
  return db
    .deleteFrom('idempotency_keys')
    .where('principal_type', '=', owner.type)
    .where('principal_id', '=', owner.id)
    .where('idempotency_key', '=', key)
    .where('state', '=', 'running');
}

export async function releaseIdempotencyKey(db: Executor, owner: IdempotencyOwner, key: string): Promise<void> {
  await deleteRunningClaim(db, owner, key).execute();
}

/** Releases a running claim only while `claimedBy` still holds it (its process is gone). */
export async function releaseAbandonedIdempotencyKey(db: Executor, owner: IdempotencyOwner, key: string, claimedBy: string): Promise<void> {
  await deleteRunningClaim(db, owner, key).where('claimed_by', '=', claimedBy).execute();
}

/** After a restart nothing is running: claims left by a dead process are released so retries can proceed. */
export async function releaseAllRunningIdempotencyKeys(db: Executor): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('state', '=', 'running').execute();
}

export async function deleteIdempotencyKeysBefore(db: Executor, cutoff: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).where('state', '=', 'done').execute();
}
