import { afterEach, describe, expect, it } from 'vitest';
import { rateWindowsFor } from '../../main/services/rate-windows.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { onPostgres } from '../helpers/test-database.js';

// The counters behind the rate limits (shared rows on PostgreSQL, process memory on SQLite): concurrent
// requests of one key each get their own place in the window, and a lapsed window starts again.

let instance: TestInstance | undefined;
afterEach(async () => {
  await instance?.close();
  instance = undefined;
});

describe(`rate windows (${onPostgres() ? 'PostgreSQL rows' : 'SQLite: process memory'})`, () => {
  it('counts 200 concurrent requests of one bucket as 1…200, and other buckets apart', async () => {
    instance = await startInstance();
    const windows = rateWindowsFor(instance.runtime.db, 60_000);
    const now = Date.now();
    const counted = await Promise.all(Array.from({ length: 200 }, (_, index) => windows.count(index % 4 === 3 ? 'api-key:other' : 'api-key:busy', now, 60_000)));
    const busy = counted.filter((_, index) => index % 4 !== 3).map((window) => window.hits);
    expect(busy.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, index) => index + 1));
    expect(counted.filter((_, index) => index % 4 === 3).map((window) => window.hits).toSorted((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(new Set(counted.map((window) => window.windowStart))).toEqual(new Set([now]));
  });

  it('a window older than its length starts again at the request', async () => {
    instance = await startInstance();
    const windows = rateWindowsFor(instance.runtime.db, 1000);
    expect(await windows.count('raw-key:x', 10_000, 1000)).toEqual({ hits: 1, windowStart: 10_000 });
    expect(await windows.count('raw-key:x', 10_999, 1000)).toEqual({ hits: 2, windowStart: 10_000 });
    expect(await windows.count('raw-key:x', 11_000, 1000)).toEqual({ hits: 1, windowStart: 11_000 });
  });
});
