import type { Executor } from './executor.js';

export function findLayerLocks(db: Executor, documentId: number) {
  return db
    .selectFrom('layer_locks')
    .innerJoin('users', 'users.id', 'layer_locks.user_id')
    .selectAll('layer_locks')
    .select(['users.username', 'users.display_name'])
    .where('layer_locks.document_id', '=', documentId)
    .execute();
}

/** Takes the lock when it is free, expired, or already ours; returns whether we hold it now. */
export async function acquireLayerLock(
  db: Executor,
  values: { documentId: number; layer: string; organizationId: number; userId: number; now: string; expiresAt: string },
): Promise<boolean> {
  await db
    .insertInto('layer_locks')
    .values({
      document_id: values.documentId,
      layer: values.layer,
      organization_id: values.organizationId,
      user_id: values.userId,
      acquired_at: values.now,
      expires_at: values.expiresAt,
    })
    .onConflict((oc) =>
      oc.columns(['document_id', 'layer']).doUpdateSet({
        user_id: values.userId,
        acquired_at: (eb) => eb.case().when('layer_locks.user_id', '=', values.userId).then(eb.ref('layer_locks.acquired_at')).else(values.now).end(),
        expires_at: values.expiresAt,
      }).where((eb) => eb.or([eb('layer_locks.user_id', '=', values.userId), eb('layer_locks.expires_at', '<=', values.now)])),
    )
    .execute();
  const row = await db.selectFrom('layer_locks').select('user_id').where('document_id', '=', values.documentId).where('layer', '=', values.layer).executeTakeFirst();
  return row?.user_id === values.userId;
}

export async function releaseLayerLock(db: Executor, documentId: number, layer: string, userId?: number): Promise<number> {
  let query = db.deleteFrom('layer_locks').where('document_id', '=', documentId).where('layer', '=', layer);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
