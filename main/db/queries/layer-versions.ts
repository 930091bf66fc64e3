import type { Insertable } from 'kysely';
import type { LayerVersionsTable } from '../schema.js';
import type { Executor } from './executor.js';

const SUMMARY_COLUMNS = ['id', 'document_id', 'layer', 'version', 'version_id', 'created_at', 'created_by', 'origin', 'summary'] as const;

export function findLatestLayerVersion(db: Executor, documentId: number, layer: string) {
  return db
    .selectFrom('layer_versions')
    .select(SUMMARY_COLUMNS)
    .where('document_id', '=', documentId)
    .where('layer', '=', layer)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function listLayerVersions(db: Executor, documentId: number, layer: string) {
  return db.selectFrom('layer_versions').select(SUMMARY_COLUMNS).where('document_id', '=', documentId).where('layer', '=', layer).orderBy('version').execute();
}

export function findLayerVersion(db: Executor, documentId: number, layer: string, versionId: string) {
  return db
    .selectFrom('layer_versions')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('layer', '=', layer)
    .where('version_id', '=', versionId)
    .executeTakeFirst();
}

export async function insertLayerVersion(db: Executor, values: Insertable<LayerVersionsTable>): Promise<void> {
  await db.insertInto('layer_versions').values(values).execute();
}

/** The newest version of every layer of a document, with its snapshot: the document's current boxes. */
export function listLatestLayerSnapshots(db: Executor, documentId: number, layers?: readonly string[]) {
  let query = db
    .selectFrom('layer_versions as v')
    .select(['v.layer', 'v.version', 'v.version_id', 'v.summary', 'v.snapshot'])
    .where('v.document_id', '=', documentId)
    .where('v.version', '=', (eb) =>
      eb.selectFrom('layer_versions as w').select((w) => w.fn.max('w.version').as('m')).whereRef('w.document_id', '=', 'v.document_id').whereRef('w.layer', '=', 'v.layer'),
    );
  if (layers) query = query.where('v.layer', 'in', layers.length > 0 ? [...layers] : ['']);
  return query.orderBy('v.layer').execute();
}
