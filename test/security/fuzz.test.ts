import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_CONFIG, runFuzz } from '../helpers/fuzz-requests.js';
import { createCase, startInstance, uploadDocuments, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

// The short fuzz run of CI: requests generated from every route's schemas (fast-check, fixed seed so a
// failure replays), through Fastify inject on a real instance. No answer may be 5xx and every body must sit
// in its surface's envelope. `npm run bench -- fuzz` is the long run (20,000+ requests).

const COUNT = Number(process.env.FUZZ_REQUESTS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

describe('security: fuzzing every route', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startInstance({ organizations: 2, config: FUZZ_CONFIG });
    const caseId = await createCase(instance, 'fuzz target');
    await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf('fuzz') }]);
  });
  afterAll(() => instance.close());

  it(`${COUNT} generated requests: no 5xx, every body in its envelope`, async () => {
    const counts = await runFuzz(instance, { count: COUNT, seed: SEED });
    console.log(`fuzz: ${counts.requests} requests over ${counts.routes} routes; by status ${JSON.stringify(counts.byStatus)}`);
    expect(counts.routes).toBeGreaterThan(60);
    expect(counts.problems).toEqual([]);
    // The run reached handlers, not only the guards: successes and validation answers both occur.
    expect(Object.keys(counts.byStatus).some((status) => status.startsWith('2'))).toBe(true);
    expect(counts.byStatus['400'] ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
