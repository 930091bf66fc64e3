import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, isUniqueViolation } from '../../main/db/dialect.js';
import { transact } from '../../main/db/transaction.js';
import { toProblem } from '../../main/http/shared/errors.js';
import { createCase, startInstance, type TestInstance } from '../helpers/instance.js';
import { onPostgres } from '../helpers/test-database.js';

// The database seam itself, on whichever database the suite runs (OBSCURA_TEST_DATABASE): real constraint
// errors map to 409 conflict, concurrent read-then-write transactions lose no update, and the NOCASE columns
// stay case-insensitive for lookups and uniqueness.

let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
});

afterAll(async () => {
  await instance.close();
});

describe('database seam', () => {
  it('runs on the database the suite asked for', () => {
    expect(dialectOf(instance.runtime.db)).toBe(onPostgres() ? 'postgres' : 'sqlite');
  });

  it('a unique violation raised by the database answers 409 conflict in the envelope', async () => {
    const db = instance.runtime.db;
    await db.insertInto('settings').values({ key: 'dialect-test', value: 'a' }).execute();
    const error = await db
      .insertInto('settings')
      .values({ key: 'dialect-test', value: 'b' })
      .execute()
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );
    expect(isUniqueViolation(error)).toBe(true);
    expect(toProblem(error)).toMatchObject({ status: 409, code: 'conflict' });
    expect((await db.selectFrom('settings').select('value').where('key', '=', 'dialect-test').executeTakeFirst())?.value).toBe('a');
  });

  it('concurrent read-then-write transactions through transact() lose no update', async () => {
    const db = instance.runtime.db;
    await db.insertInto('settings').values({ key: 'counter', value: '0' }).execute();
    const increments = 12;
    await Promise.all(
      Array.from({ length: increments }, () =>
        transact(db, async (trx) => {
          const row = await trx.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow();
          // A pause between the read and the write, so the transactions really overlap.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await trx.updateTable('settings').set({ value: String(Number(row.value) + 1) }).where('key', '=', 'counter').execute();
        }),
      ),
    );
    expect((await db.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirst())?.value).toBe(String(increments));
  });

  it('role names are unique and found regardless of ASCII case, over HTTP', async () => {
    const created = await instance.request({ method: 'POST', url: '/api/v1/roles', body: { name: 'Case Clerk', scopes: ['cases:read'] } });
    expect(created.statusCode, created.body).toBe(201);
    const clash = await instance.request({ method: 'POST', url: '/api/v1/roles', body: { name: 'case clerk', scopes: ['cases:read'] } });
    expect(clash.statusCode, clash.body).toBe(409);
    expect((clash.json() as { error: { code: string } }).error.code).toBe('conflict');
  });

  it('case lists read the same ids as numbers, in order', async () => {
    const ids = [await createCase(instance, 'first'), await createCase(instance, 'second')];
    const listed = await instance.request({ method: 'GET', url: '/api/v1/cases?limit=100' });
    const data = (listed.json() as { data: { id: string }[] }).data.map((entry) => entry.id);
    expect(data.filter((id) => ids.includes(id))).toEqual(ids);
  });
});
