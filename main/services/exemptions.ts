import { DomainError, notFound } from '../common/errors.js';
import type { CreateExemptionBody, Exemption, UpdateExemptionBody } from '../common/schemas/exemptions.js';
import { isLayer } from '../common/redaction-catalog.js';
import type { Executor } from '../db/queries/executor.js';
import { deleteExemption, findExemption, findExemptionByCode, insertExemption, listExemptionPage, updateExemption } from '../db/queries/exemptions.js';
import type { PageRequest } from '../db/queries/page.js';
import { countTemplatesUsingExemption } from '../db/queries/redaction-templates.js';
import type { ExemptionRow } from '../db/schema.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';

function present(row: ExemptionRow): Exemption {
  return {
    id: String(row.id),
    code: row.code,
    name: row.name,
    description: row.description,
    layer: isLayer(row.layer) ? row.layer : null,
    jurisdiction: row.jurisdiction,
    built_in: row.built_in === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function requireExemption(db: Executor, ctx: ServiceContext, id: number): Promise<ExemptionRow> {
  const row = await findExemption(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('exemption');
  return row;
}

async function assertCodeFree(db: Executor, ctx: ServiceContext, code: string, exceptId?: number): Promise<void> {
  const existing = await findExemptionByCode(db, ctx.actor.organizationId, code);
  if (existing && existing.id !== exceptId) throw new DomainError('conflict', `an exemption with code ${code} already exists`, [{ field: 'code', message: 'taken' }]);
}

export async function listExemptions(db: Executor, ctx: ServiceContext, page: PageRequest, filter: { layer?: string | undefined }) {
  const result = await listExemptionPage(db, ctx.actor.organizationId, page, filter);
  return { items: result.rows.map(present), nextAfterId: result.nextAfterId };
}

export async function getExemption(db: Executor, ctx: ServiceContext, id: number): Promise<Exemption> {
  return present(await requireExemption(db, ctx, id));
}

export async function createExemption(db: Executor, ctx: ServiceContext, body: CreateExemptionBody): Promise<Exemption> {
  await assertCodeFree(db, ctx, body.code);
  const now = isoNow(ctx);
  const id = await insertExemption(db, {
    organization_id: ctx.actor.organizationId,
    code: body.code,
    name: body.name,
    description: body.description ?? '',
    layer: body.layer,
    jurisdiction: body.jurisdiction,
    built_in: 0,
    created_at: now,
    updated_at: now,
  });
  const exemption = await getExemption(db, ctx, id);
  await recordChange(db, ctx, { action: 'exemption.create', resourceType: 'exemption', resourceId: id, event: { type: 'exemption.created', payload: { exemption } } });
  return exemption;
}

function assertEditable(row: ExemptionRow, verb: string): void {
  if (row.built_in === 1) throw new DomainError('conflict', `the federal exemption ${row.code} is built in and cannot be ${verb}`);
}

export async function updateExemptionFields(db: Executor, ctx: ServiceContext, id: number, body: UpdateExemptionBody): Promise<Exemption> {
  const row = await requireExemption(db, ctx, id);
  assertEditable(row, 'changed');
  if (body.code !== undefined && body.code !== row.code) await assertCodeFree(db, ctx, body.code, id);
  const changes = {
    ...(body.code !== undefined && { code: body.code }),
    ...(body.name !== undefined && { name: body.name }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.layer !== undefined && { layer: body.layer }),
    ...(body.jurisdiction !== undefined && { jurisdiction: body.jurisdiction }),
  };
  const changed = Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== row[field as keyof typeof changes]);
  if (changed.length === 0) return present(row);
  await updateExemption(db, ctx.actor.organizationId, id, { ...changes, updated_at: isoNow(ctx) });
  const exemption = await getExemption(db, ctx, id);
  await recordChange(db, ctx, {
    action: 'exemption.update',
    resourceType: 'exemption',
    resourceId: id,
    details: { changed },
    event: { type: 'exemption.updated', payload: { exemption, changed } },
  });
  return exemption;
}

export async function removeExemption(db: Executor, ctx: ServiceContext, id: number): Promise<void> {
  const row = await requireExemption(db, ctx, id);
  assertEditable(row, 'deleted');
  const users = await countTemplatesUsingExemption(db, ctx.actor.organizationId, id);
  if (users > 0) throw new DomainError('conflict', `${users} template(s) use exemption ${row.code}; change or delete them first`);
  const exemption = present(row);
  await deleteExemption(db, ctx.actor.organizationId, id);
  await recordChange(db, ctx, { action: 'exemption.delete', resourceType: 'exemption', resourceId: id, event: { type: 'exemption.deleted', payload: { exemption } } });
}
