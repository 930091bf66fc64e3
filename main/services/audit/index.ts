import { DomainError } from '../../common/errors.js';
import type { AuditEntry, AuditQuery } from '../../common/schemas/audit.js';
import { pageCaseAudit, pageOrganizationAudit } from '../../db/queries/audit-log.js';
import { listAllCaseDocuments } from '../../db/queries/documents.js';
import type { Executor } from '../../db/queries/executor.js';
import { findLayerVersion, findLayerVersionByNumber } from '../../db/queries/layer-versions.js';
import { findUser } from '../../db/queries/users.js';
import type { AuditLogRow } from '../../db/schema.js';
import { requireCase } from '../cases.js';
import type { ServiceContext } from '../context.js';
import type { PageRequest } from '../../db/queries/page.js';

// The audit trail of a case as people read it: who did what and when, with each redaction box before and
// after for layer writes (from the layer's immutable versions). One front door for the view and its CSV.

export { auditCsv } from './csv.js';

const MAX_CHANGES = 200;

type Snapshot = Record<string, unknown>[];

function documentOf(row: AuditLogRow): string | null {
  if (row.resource_type === 'document') return row.resource_id;
  const details = parseDetails(row);
  const id = details?.document_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

function parseDetails(row: AuditLogRow): Record<string, unknown> | null {
  if (!row.details) return null;
  try {
    return JSON.parse(row.details) as Record<string, unknown>;
  } catch {
    return { text: row.details };
  }
}

async function redactionChanges(db: Executor, row: AuditLogRow, details: Record<string, unknown>): Promise<AuditEntry['changes']> {
  const documentId = Number(row.resource_id);
  const layer = String(details.layer ?? '');
  const version = await findLayerVersion(db, documentId, layer, String(details.version_id ?? ''));
  if (!version) return [];
  const previous = version.version > 1 ? await findLayerVersionByNumber(db, documentId, layer, version.version - 1) : undefined;
  const byId = (snapshot: string | undefined) => new Map(((snapshot ? JSON.parse(snapshot) : []) as Snapshot).map((entry) => [String(entry.redaction_id), entry]));
  const before = byId(previous?.snapshot);
  const after = byId(version.snapshot);
  const summary = JSON.parse(version.summary) as { created?: string[]; updated?: string[]; deleted?: string[] };
  const changes: NonNullable<AuditEntry['changes']> = [];
  for (const change of ['created', 'updated', 'deleted'] as const) {
    for (const id of summary[change] ?? []) {
      if (changes.length >= MAX_CHANGES) return changes;
      changes.push({ redaction_id: id, change, before: before.get(id) ?? null, after: after.get(id) ?? null });
    }
  }
  return changes;
}

async function present(db: Executor, ctx: ServiceContext, rows: AuditLogRow[]): Promise<AuditEntry[]> {
  const names = new Map<string, string | null>();
  const entries: AuditEntry[] = [];
  for (const row of rows) {
    const actorKey = `${row.actor_type}:${row.actor_id}`;
    if (!names.has(actorKey)) {
      const user = row.actor_type === 'user' ? await findUser(db, ctx.actor.organizationId, Number(row.actor_id)) : undefined;
      names.set(actorKey, user ? user.display_name || user.username : null);
    }
    const details = parseDetails(row);
    const changes = row.action === 'redactions.write' && details ? await redactionChanges(db, row, details) : undefined;
    entries.push({
      id: String(row.id),
      at: row.created_at,
      actor: { type: row.actor_type, id: row.actor_id, name: names.get(actorKey) ?? null },
      action: row.action,
      resource_type: row.resource_type,
      resource_id: row.resource_id,
      document_id: documentOf(row),
      details,
      ...(changes && { changes }),
    });
  }
  return entries;
}

async function filterOf(db: Executor, ctx: ServiceContext, caseId: number, query: AuditQuery) {
  await requireCase(db, ctx, caseId);
  const documents = await listAllCaseDocuments(db, ctx.actor.organizationId, caseId);
  const documentId = query.document_id === undefined ? undefined : Number(query.document_id);
  if (documentId !== undefined && !documents.some((row) => row.id === documentId)) {
    throw new DomainError('validation_error', `document ${documentId} is not in case ${caseId}`, [{ field: 'document_id', location: 'querystring', message: 'not a document of this case' }]);
  }
  return { organizationId: ctx.actor.organizationId, caseId, documentIds: documents.map((row) => row.id), documentId, action: query.action, actor: query.actor };
}

/** One page of the case's audit trail, newest first. */
export async function listCaseAudit(db: Executor, ctx: ServiceContext, caseId: number, query: AuditQuery, page: PageRequest) {
  const result = await pageCaseAudit(db, await filterOf(db, ctx, caseId, query), page);
  return { items: await present(db, ctx, result.rows), nextAfterId: result.nextAfterId };
}

/** Every matching record (at most `cap`), newest first, for the CSV export. */
export async function allCaseAudit(db: Executor, ctx: ServiceContext, caseId: number, query: AuditQuery, cap = 50_000): Promise<AuditEntry[]> {
  const filter = await filterOf(db, ctx, caseId, query);
  const entries: AuditEntry[] = [];
  let afterId: number | undefined;
  do {
    const result = await pageCaseAudit(db, filter, { limit: 500, afterId });
    entries.push(...(await present(db, ctx, result.rows)));
    afterId = result.nextAfterId ?? undefined;
  } while (afterId !== undefined && entries.length < cap);
  return entries.slice(0, cap);
}

/** Changes of the organization's release settings (who turned which safeguard off), newest first. */
export async function listReleaseSettingsAudit(db: Executor, ctx: ServiceContext, page: PageRequest) {
  const result = await pageOrganizationAudit(db, ctx.actor.organizationId, 'release_settings', page);
  return { items: await present(db, ctx, result.rows), nextAfterId: result.nextAfterId };
}
