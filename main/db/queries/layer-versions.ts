import { sql, type Insertable } from 'kysely';
import { fixedOrderJoin, utf8Bytes } from '../dialect.js';
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

export interface LatestLayerSnapshot {
  layer: string;
  version: number;
  version_id: string;
  summary: string;
  /** The snapshot's JSON text as UTF-8 bytes, ready to be sent without decoding and re-encoding. */
  snapshot: Buffer;
}

/**
 * The newest version of every layer of a document, with its snapshot: the document's current boxes.
 * The newest version numbers come from the (document, layer, version) index alone, and only those rows
 * are read (CROSS JOIN keeps that loop order); older snapshots are never touched. Sorted in JS: an
 * ORDER BY would copy the snapshots through a temporary b-tree.
 */
export async function listLatestLayerSnapshots(db: Executor, documentId: number, layers?: readonly string[]): Promise<LatestLayerSnapshot[]> {
  const layerFilter = layers ? sql`and layer in (${sql.join(layers.length > 0 ? [...layers] : [''])})` : sql``;
  const result = await sql<LatestLayerSnapshot>`
    select v.layer, v.version, v.version_id, v.summary, ${utf8Bytes(db, sql<string>`v.snapshot`)} as snapshot
    from (select layer, max(version) as version from layer_versions where document_id = ${documentId} ${layerFilter} group by layer) as m
    ${fixedOrderJoin(db)} layer_versions as v on v.document_id = ${documentId} and v.layer = m.layer and v.version = m.version`.execute(db);
  return result.rows.sort((a, b) => (a.layer < b.layer ? -1 : a.layer > b.layer ? 1 : 0));
}

/** A version by its number (the one before a change, for before/after in the audit view). */
export function findLayerVersionByNumber(db: Executor, documentId: number, layer: string, version: number) {
  return db.selectFrom('layer_versions').selectAll().where('document_id', '=', documentId).where('layer', '=', layer).where('version', '=', version).executeTakeFirst();
}
