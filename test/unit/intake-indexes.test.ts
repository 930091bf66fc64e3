import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresPool, openSqlite } from '../../main/db/connection.js';
import { migrations } from '../../main/db/migrations/index.js';
import { migratePostgresToLatest, migrateToLatest } from '../../main/db/migrator.js';
import { bandKeys, similarity } from '../../main/services/intake/relations.js';
import { minhash } from '../../worker/intake/similarity.js';
import { tempDir } from '../helpers/temp.js';
import { createTestDatabase, onPostgres } from '../helpers/test-database.js';

// Migration 19 fills the band and reference tables for messages converted before it, computing band keys in
// SQL; they must be the keys the code computes for new messages, or old and new messages never meet.

const VERSION = 19;
const before = migrations[migrations.findIndex((migration) => migration.version === VERSION) - 1]?.version ?? 0;
const text = 'the harbour committee reviewed the dredging tender and the lighthouse repairs budget for the coming year';
const signature = minhash(text) as number[];
const email = { from: 'a@example.org', to: [], cc: [], bcc: [], date: null, subject: 'Re: x', message_id: '<b@x>', in_reply_to: '<a@x>', references: ['<root@x>', '<a@x>'] };
const rows = [
  "INSERT INTO organizations (id, name, created_at) VALUES (1, 'o', 't')",
  "INSERT INTO cases (id, organization_id, name, status, priority, created_at, updated_at) VALUES (1, 1, 'c', 'open', 'normal', 't', 't')",
  "INSERT INTO blobs (sha256, size, created_at) VALUES ('s', 1, 't')",
  `INSERT INTO documents (id, organization_id, case_id, file_name, sha256, size, media_type, document_type, email, created_at, updated_at) VALUES (7, 1, 1, 'm.eml', 's', 1, 'application/pdf', 'pdf', '${JSON.stringify(email)}', 't', 't')`,
  `INSERT INTO document_intake (document_id, organization_id, case_id, status, original_sha256, original_media_type, original_size, original_format, minhash, created_at, updated_at) VALUES (7, 1, 1, 'converted', 's', 'message/rfc822', 1, 'eml', '${JSON.stringify(signature)}', 't', 't')`,
];

function expectBackfill(bands: { band_key: number | string; document_id: number | string }[], refs: { ref: string; document_id: number | string }[]) {
  expect(bands.map((row) => Number(row.band_key)).sort((a, b) => a - b)).toEqual([...new Set(bandKeys(signature))].sort((a, b) => a - b));
  expect(new Set(bands.map((row) => Number(row.document_id)))).toEqual(new Set([7]));
  expect(refs.map((row) => [row.ref, Number(row.document_id)]).sort()).toEqual([['<a@x>', 7], ['<root@x>', 7]]);
}

describe('intake band keys', () => {
  it('a pair at similarity >= 0.8 always shares a band; unrelated texts share none', () => {
    const a = [...signature];
    // Spoil 12 minima spread over 12 bands: 52 of 64 still equal (0.8125), 4 bands whole.
    const b = a.map((value, index) => (index % 4 === 0 && index < 48 ? value ^ 1 : value));
    expect(similarity(a, b)).toBeGreaterThanOrEqual(0.8);
    expect(bandKeys(a).filter((key) => bandKeys(b).includes(key))).toHaveLength(4);
    const other = minhash('minutes of the meeting are attached together with the inspection report of the east pier') as number[];
    expect(bandKeys(a).filter((key) => bandKeys(other).includes(key))).toEqual([]);
    expect(Math.max(...bandKeys(a))).toBeLessThan(2 ** 52);
  });

  it('migration 19 backfills band keys and references on SQLite as the code computes them', () => {
    const dir = tempDir('obscura-intake-indexes-');
    const sqlite = openSqlite(path.join(dir, 'db.sqlite'));
    try {
      migrateToLatest(sqlite, before);
      for (const sql of rows) sqlite.prepare(sql).run();
      migrateToLatest(sqlite, VERSION);
      expectBackfill(sqlite.prepare('SELECT band_key, document_id FROM intake_minhash_bands').all() as never, sqlite.prepare('SELECT ref, document_id FROM intake_message_refs').all() as never);
    } finally {
      sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  it.skipIf(!onPostgres())('and on PostgreSQL', async () => {
    const database = await createTestDatabase({ empty: true });
    cleanup.push(() => database.drop());
    const pool = createPostgresPool(database.url, 2);
    cleanup.push(() => pool.end());
    await migratePostgresToLatest(pool, before);
    for (const sql of rows) await pool.query(sql);
    await migratePostgresToLatest(pool, VERSION);
    expectBackfill((await pool.query('SELECT band_key, document_id FROM intake_minhash_bands')).rows, (await pool.query('SELECT ref, document_id FROM intake_message_refs')).rows);
  });
});
