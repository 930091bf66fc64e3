import { sql, type Insertable, type Updateable } from 'kysely';
import type { RedactionTemplatesTable } from '../schema.js';
import type { Executor } from './executor.js';
import { fetchPage, type PageRequest } from './page.js';
import { foldCase } from '../dialect.js';

const COLUMNS = [
  'redaction_templates.id',
  'redaction_templates.organization_id',
  'redaction_templates.name',
  'redaction_templates.description',
  'redaction_templates.entity_kinds',
  'redaction_templates.custom_terms',
  'redaction_templates.patterns',
  'redaction_templates.layer',
  'redaction_templates.exemption_id',
  'redaction_templates.min_score',
  'redaction_templates.created_at',
  'redaction_templates.updated_at',
  'exemptions.code as exemption_code',
] as const;

function withExemption(db: Executor, organizationId: number) {
  return db
    .selectFrom('redaction_templates')
    .leftJoin('exemptions', 'exemptions.id', 'redaction_templates.exemption_id')
    .select(COLUMNS)
    .where('redaction_templates.organization_id', '=', organizationId);
}

export async function insertTemplate(db: Executor, values: Insertable<RedactionTemplatesTable>): Promise<number> {
  const row = await db.insertInto('redaction_templates').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The template with its exemption's code. */
export function findTemplate(db: Executor, organizationId: number, id: number) {
  return withExemption(db, organizationId).where('redaction_templates.id', '=', id).executeTakeFirst();
}

export function findTemplateByName(db: Executor, organizationId: number, name: string) {
  return db.selectFrom('redaction_templates').select('id').where('organization_id', '=', organizationId).where(foldCase(db, sql<string>`name`), '=', foldCase(db, sql<string>`${name}`)).executeTakeFirst();
}

export function listTemplatePage(db: Executor, organizationId: number, page: PageRequest) {
  return fetchPage(withExemption(db, organizationId), 'redaction_templates.id', page);
}

export async function updateTemplate(db: Executor, organizationId: number, id: number, changes: Updateable<RedactionTemplatesTable>): Promise<void> {
  await db.updateTable('redaction_templates').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteTemplate(db: Executor, organizationId: number, id: number): Promise<void> {
  await db.deleteFrom('redaction_templates').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function countTemplatesUsingExemption(db: Executor, organizationId: number, exemptionId: number): Promise<number> {
  const row = await db
    .selectFrom('redaction_templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('exemption_id', '=', exemptionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
