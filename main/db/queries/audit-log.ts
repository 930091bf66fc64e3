import { sql, type Insertable } from 'kysely';
import { jsonField } from '../dialect.js';
import type { AuditLogTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';

export async function insertAuditRecord(db: Executor, values: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(values).execute();
}

export function listAuditRecords(db: Executor, organizationId: number) {
  return db.selectFrom('audit_log').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
}

export interface CaseAuditFilter {
  organizationId: number;
  caseId: number;
  /** The case's documents (deleted ones included: their history stays). */
  documentIds: readonly number[];
  /** Only records about this document (and its jobs). */
  documentId?: number | undefined;
  /** Prefix of the action, e.g. `redactions.` or `case.status_change`. */
  action?: string | undefined;
  /** `type:id` of the actor. */
  actor?: string | undefined;
}

/** An organization's records about one kind of resource (e.g. its release settings), keyset paged, newest first. */
export function pageOrganizationAudit(db: Executor, organizationId: number, resourceType: string, page: PageRequest) {
  const query = db.selectFrom('audit_log').selectAll().where('organization_id', '=', organizationId).where('resource_type', '=', resourceType);
  return fetchPage(query, 'audit_log.id', { ...page, order: 'desc' });
}

/**
 * A case's history: records of the case, of its documents, of their jobs, comments and withholdings, and of its exports.
 * Keyset paged on id, newest first.
 */
export function pageCaseAudit(db: Executor, filter: CaseAuditFilter, page: PageRequest) {
  const documents = filter.documentId !== undefined ? [filter.documentId] : [...filter.documentIds];
  const documentText = documents.map(String);
  // SQLite cannot bind a boolean: an always-false term for a case without documents.
  const never = sql<boolean>`0 = 1`;
  let query = db
    .selectFrom('audit_log')
    .selectAll()
    .where('organization_id', '=', filter.organizationId)
    .where((eb) => {
      const about = [
        documentText.length > 0 ? eb.and([eb('resource_type', '=', 'document'), eb('resource_id', 'in', documentText)]) : never,
        documentText.length > 0 ? eb.and([eb('resource_type', '=', 'job'), eb(jsonField(db, sql<string | null>`details`, 'document_id'), 'in', documentText)]) : never,
        documentText.length > 0 ? eb.and([eb('resource_type', '=', 'withholding'), eb(jsonField(db, sql<string | null>`details`, 'document_id'), 'in', documentText)]) : never,
        documentText.length > 0 ? eb.and([eb('resource_type', '=', 'comment'), eb(sql`resource_id`, 'in', eb.selectFrom('comments').select(sql`CAST(id AS TEXT)`.as('id')).where('document_id', 'in', documents))]) : never,
      ];
      if (filter.documentId === undefined) {
        about.push(eb.and([eb('resource_type', '=', 'case'), eb('resource_id', '=', String(filter.caseId))]));
        about.push(eb.and([eb('resource_type', '=', 'export'), eb(jsonField(db, sql<string | null>`details`, 'case_id'), '=', String(filter.caseId))]));
      }
      return eb.or(about as never);
    });
  if (filter.action) query = query.where(sql<string>`substr(action, 1, ${filter.action.length})`, '=', filter.action);
  if (filter.actor) {
    const [type, ...rest] = filter.actor.split(':');
    query = query.where('actor_type', '=', type ?? '').where('actor_id', '=', rest.join(':'));
  }
  return fetchPage(query, 'audit_log.id', { ...page, order: 'desc' });
}
