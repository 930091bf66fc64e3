import type { Insertable } from 'kysely';
import type { AuditLogTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertAuditRecord(db: Executor, values: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(values).execute();
}

export function listAuditRecords(db: Executor, organizationId: number) {
  return db.selectFrom('audit_log').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}
