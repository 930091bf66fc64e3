import { DomainError, notFound } from '../common/errors.js';
import { BUILTIN_ENTITY_KINDS, type BuiltinEntityKind, type DetectionTemplate } from '../common/schemas/detection.js';
import type { CreateTemplateBody, RedactionTemplate, TemplatePattern, UpdateTemplateBody } from '../common/schemas/templates.js';
import { isLayer, type Layer } from '../common/redaction-catalog.js';
import type { Executor } from '../db/queries/executor.js';
import type { PageRequest } from '../db/queries/page.js';
import { deleteTemplate, findTemplate, findTemplateByName, insertTemplate, listTemplatePage, updateTemplate } from '../db/queries/redaction-templates.js';
import { recordChange } from './change-log.js';
import { isoNow, type ServiceContext } from './context.js';
import { requireExemption } from './exemptions.js';

type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

/** Duplicates collapse; kinds are stored in the catalogue's order so that equal templates compare equal. */
function inCatalogueOrder(kinds: readonly BuiltinEntityKind[]): BuiltinEntityKind[] {
  return BUILTIN_ENTITY_KINDS.filter((kind) => kinds.includes(kind));
}

function present(row: TemplateRow): RedactionTemplate {
  const kinds = new Set(JSON.parse(row.entity_kinds) as string[]);
  return {
    id: String(row.id),
    name: row.name,
    description: row.description,
    entity_kinds: BUILTIN_ENTITY_KINDS.filter((kind) => kinds.has(kind)),
    custom_terms: JSON.parse(row.custom_terms) as string[],
    patterns: JSON.parse(row.patterns) as TemplatePattern[],
    layer: isLayer(row.layer) ? row.layer : 'B6',
    exemption: row.exemption_id !== null && row.exemption_code !== null ? { id: String(row.exemption_id), code: row.exemption_code } : null,
    min_score: row.min_score ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function requireTemplate(db: Executor, ctx: ServiceContext, id: number): Promise<TemplateRow> {
  const row = await findTemplate(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('template');
  return row;
}

async function assertNameFree(db: Executor, ctx: ServiceContext, name: string, exceptId?: number): Promise<void> {
  const existing = await findTemplateByName(db, ctx.actor.organizationId, name);
  if (existing && existing.id !== exceptId) throw new DomainError('conflict', `a template named ${name} already exists`, [{ field: 'name', message: 'taken' }]);
}

interface TemplateContent {
  entity_kinds: BuiltinEntityKind[];
  custom_terms: string[];
  patterns: TemplatePattern[];
  layer: Layer | undefined;
  exemption_id: number | null;
}

const invalid = (field: string, message: string) => new DomainError('validation_error', `${field}: ${message}`, [{ field, location: 'body', message }]);

/**
 * The rules that need the exemption: the layer defaults to the exemption's, must agree with it when both are
 * given, and must be known one way or the other. A template must also look for something.
 */
async function settle(db: Executor, ctx: ServiceContext, content: TemplateContent): Promise<{ layer: Layer; exemptionId: number | null }> {
  if (content.entity_kinds.length === 0 && content.custom_terms.length === 0 && content.patterns.length === 0) {
    throw invalid('entity_kinds', 'a template needs at least one entity kind, custom term or pattern');
  }
  let layer = content.layer;
  if (content.exemption_id !== null) {
    const exemption = await requireExemption(db, ctx, content.exemption_id);
    const exemptionLayer = isLayer(exemption.layer) ? exemption.layer : null;
    if (layer === undefined) layer = exemptionLayer ?? undefined;
    else if (exemptionLayer !== null && exemptionLayer !== layer) throw invalid('layer', `exemption ${exemption.code} belongs to layer ${exemptionLayer}, not ${layer}`);
  }
  if (layer === undefined) throw invalid('layer', 'required when the exemption has no layer of its own (or no exemption is given)');
  if (layer === 'B1') throw invalid('layer', 'layer B1 needs a classification level; detection cannot suggest it');
  return { layer, exemptionId: content.exemption_id };
}

export async function listTemplates(db: Executor, ctx: ServiceContext, page: PageRequest) {
  const result = await listTemplatePage(db, ctx.actor.organizationId, page);
  return { items: result.rows.map(present), nextAfterId: result.nextAfterId };
}

export async function getTemplate(db: Executor, ctx: ServiceContext, id: number): Promise<RedactionTemplate> {
  return present(await requireTemplate(db, ctx, id));
}

export async function createTemplate(db: Executor, ctx: ServiceContext, body: CreateTemplateBody): Promise<RedactionTemplate> {
  await assertNameFree(db, ctx, body.name);
  const content: TemplateContent = {
    entity_kinds: inCatalogueOrder(body.entity_kinds ?? []),
    custom_terms: [...new Set(body.custom_terms ?? [])],
    patterns: body.patterns ?? [],
    layer: body.layer,
    exemption_id: body.exemption_id ? Number(body.exemption_id) : null,
  };
  const settled = await settle(db, ctx, content);
  const now = isoNow(ctx);
  const id = await insertTemplate(db, {
    organization_id: ctx.actor.organizationId,
    name: body.name,
    description: body.description ?? '',
    entity_kinds: JSON.stringify(content.entity_kinds),
    custom_terms: JSON.stringify(content.custom_terms),
    patterns: JSON.stringify(content.patterns),
    layer: settled.layer,
    exemption_id: settled.exemptionId,
    min_score: body.min_score ?? null,
    created_at: now,
    updated_at: now,
  });
  const template = await getTemplate(db, ctx, id);
  await recordChange(db, ctx, { action: 'template.create', resourceType: 'template', resourceId: id, event: { type: 'template.created', payload: { template } } });
  return template;
}

/** Changing the exemption without a layer moves the template to the new exemption's layer. */
export async function updateTemplateFields(db: Executor, ctx: ServiceContext, id: number, body: UpdateTemplateBody): Promise<RedactionTemplate> {
  const row = await requireTemplate(db, ctx, id);
  const before = present(row);
  if (body.name !== undefined && body.name !== row.name) await assertNameFree(db, ctx, body.name, id);
  const exemptionChanged = body.exemption_id !== undefined;
  const content: TemplateContent = {
    entity_kinds: inCatalogueOrder(body.entity_kinds ?? before.entity_kinds),
    custom_terms: [...new Set(body.custom_terms ?? before.custom_terms)],
    patterns: body.patterns ?? before.patterns,
    layer: body.layer ?? (exemptionChanged ? undefined : before.layer),
    exemption_id: exemptionChanged ? (body.exemption_id ? Number(body.exemption_id) : null) : row.exemption_id,
  };
  if (exemptionChanged && body.layer === undefined && content.exemption_id === null) content.layer = before.layer;
  const settled = await settle(db, ctx, content);
  const next = {
    name: body.name ?? row.name,
    description: body.description ?? row.description,
    entity_kinds: JSON.stringify(content.entity_kinds),
    custom_terms: JSON.stringify(content.custom_terms),
    patterns: JSON.stringify(content.patterns),
    layer: settled.layer,
    exemption_id: settled.exemptionId,
    min_score: body.min_score !== undefined ? body.min_score : row.min_score,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((field) => next[field] !== row[field]);
  if (changed.length === 0) return before;
  await updateTemplate(db, ctx.actor.organizationId, id, { ...next, updated_at: isoNow(ctx) });
  const template = await getTemplate(db, ctx, id);
  await recordChange(db, ctx, {
    action: 'template.update',
    resourceType: 'template',
    resourceId: id,
    details: { changed },
    event: { type: 'template.updated', payload: { template, changed } },
  });
  return template;
}

export async function removeTemplate(db: Executor, ctx: ServiceContext, id: number): Promise<void> {
  const template = present(await requireTemplate(db, ctx, id));
  await deleteTemplate(db, ctx.actor.organizationId, id);
  await recordChange(db, ctx, { action: 'template.delete', resourceType: 'template', resourceId: id, event: { type: 'template.deleted', payload: { template } } });
}

/** A stored template as a detection job runs it; an unknown id is the job request's 400. */
export async function templateForDetection(db: Executor, ctx: ServiceContext, id: string): Promise<DetectionTemplate> {
  const row = /^[1-9][0-9]{0,15}$/.test(id) ? await findTemplate(db, ctx.actor.organizationId, Number(id)) : undefined;
  if (!row) throw new DomainError('validation_error', 'unknown template', [{ field: 'template_id', location: 'body', message: `no template ${id} in this organization` }]);
  const template = present(row);
  return {
    name: template.name,
    entity_kinds: template.entity_kinds,
    custom_terms: template.custom_terms,
    patterns: template.patterns,
    layer: template.layer,
    ...(template.exemption && { exemption: template.exemption.code }),
    ...(template.min_score !== null && { min_score: template.min_score }),
  };
}
