import type { Executor } from '../../db/queries/executor.js';
import type { WithholdingRow } from '../../db/schema.js';
import { findDocument } from '../../db/queries/documents.js';
import { findExemptionByCode } from '../../db/queries/exemptions.js';
import { deleteWithholding, findWithholding, insertWithholding, listCaseWithholdings } from '../../db/queries/withholdings.js';
import { DomainError, notFound } from '../../common/errors.js';
import type { CreateWithholdingBody, Withholding } from '../../common/schemas/releases.js';
import { requireCase } from '../cases.js';
import { recordChange } from '../change-log.js';
import { isoNow, type ServiceContext } from '../context.js';

// Pages, page ranges and whole documents withheld in full: the release carries a placeholder page instead,
// and their content is never rendered or copied.

export function toWithholding(row: WithholdingRow): Withholding {
  return {
    id: String(row.id),
    case_id: String(row.case_id),
    document_id: String(row.document_id),
    pages: row.page_from === null || row.page_to === null ? null : { from: row.page_from, to: row.page_to },
    exemption: row.exemption,
    category: row.category,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}

export async function listWithholdings(db: Executor, ctx: ServiceContext, caseId: number): Promise<Withholding[]> {
  await requireCase(db, ctx, caseId);
  return (await listCaseWithholdings(db, ctx.actor.organizationId, caseId)).map(toWithholding);
}

function invalid(field: string, message: string): DomainError {
  return new DomainError('validation_error', message, [{ field, message, location: 'body' }]);
}

export async function createWithholding(db: Executor, ctx: ServiceContext, caseId: number, body: CreateWithholdingBody): Promise<Withholding> {
  await requireCase(db, ctx, caseId);
  const document = await findDocument(db, ctx.actor.organizationId, Number(body.document_id));
  if (!document || document.case_id !== caseId) throw invalid('document_id', `no document ${body.document_id} in case ${caseId}`);
  if (!(await findExemptionByCode(db, ctx.actor.organizationId, body.exemption))) {
    throw invalid('exemption', `${body.exemption} is not an exemption code of this organization (GET /exemptions)`);
  }
  const existing = await listCaseWithholdings(db, ctx.actor.organizationId, caseId);
  const overlap = existing.find(
    (row) => row.document_id === document.id && (row.page_from === null || body.pages === null || (row.page_from <= body.pages.to && (row.page_to ?? 0) >= body.pages.from)),
  );
  if (overlap) {
    throw new DomainError('conflict', `withholding ${overlap.id} already covers some of these pages; remove it first`, { withholding_id: String(overlap.id) });
  }
  const id = await insertWithholding(db, {
    organization_id: ctx.actor.organizationId,
    case_id: caseId,
    document_id: document.id,
    page_from: body.pages?.from ?? null,
    page_to: body.pages?.to ?? null,
    exemption: body.exemption,
    category: body.category ?? null,
    created_by: `${ctx.actor.type}:${ctx.actor.id}`,
    created_at: isoNow(ctx),
  });
  const row = await findWithholding(db, ctx.actor.organizationId, id);
  if (!row) throw new Error('the withholding was not stored');
  const created = toWithholding(row);
  await recordChange(db, ctx, { action: 'withholding.create', resourceType: 'withholding', resourceId: id, details: { case_id: String(caseId), document_id: created.document_id, pages: created.pages, exemption: created.exemption } });
  return created;
}

export async function removeWithholding(db: Executor, ctx: ServiceContext, id: number): Promise<void> {
  const row = await findWithholding(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('withholding');
  await deleteWithholding(db, ctx.actor.organizationId, id);
  await recordChange(db, ctx, { action: 'withholding.delete', resourceType: 'withholding', resourceId: id, details: { case_id: String(row.case_id), document_id: String(row.document_id) } });
}
