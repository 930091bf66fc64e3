import { FUZZ_CONFIG, runFuzz } from '../test/helpers/fuzz-requests.js';
import { createCase, minimalPdf, startInstance, uploadDocuments } from '../test/helpers/instance.js';
import { fmtInt } from './lib/format.js';
import type { Benchmark, BenchReport } from './types.js';

// Issue 16: the long fuzz run. Requests generated from every route's schemas (test/helpers/fuzz-requests.ts,
// the same generator as the CI suite) against a real instance through Fastify inject; reports the counts
// by status and every answer that was 5xx or outside its envelope (the target is none).
//
// BENCH_FUZZ_REQUESTS (default 20,000), BENCH_FUZZ_SEED (default: a new seed each run, printed).

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

export const fuzzBench: Benchmark = {
  name: 'fuzz',
  description: 'generated requests against every route: no 5xx, every body in its envelope',
  async run(settings): Promise<BenchReport> {
    const count = envInt('BENCH_FUZZ_REQUESTS', 20_000);
    const seed = envInt('BENCH_FUZZ_SEED', Math.floor(Math.random() * 2 ** 31) + 1);
    const instance = await startInstance({ organizations: 2, config: FUZZ_CONFIG });
    try {
      const caseId = await createCase(instance, 'fuzz target');
      await uploadDocuments(instance, caseId, [{ name: 'a.pdf', bytes: minimalPdf('fuzz') }]);
      settings.log(`fuzz: ${count} requests, seed ${seed} (replay with BENCH_FUZZ_SEED=${seed})`);
      const started = performance.now();
      const counts = await runFuzz(instance, { count, seed, onProgress: (done) => done % 5000 === 0 && settings.log(`  ${done} requests`) });
      const seconds = (performance.now() - started) / 1000;
      const statuses = Object.entries(counts.byStatus).sort(([a], [b]) => Number(a) - Number(b));
      const fivexx = statuses.filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0);
      return {
        title: `Fuzz: ${fmtInt(counts.requests)} requests over ${counts.routes} routes in ${seconds.toFixed(1)} s (seed ${seed})`,
        table: [['status', 'responses'], ...statuses.map(([status, n]) => [status, fmtInt(n)])],
        notes: counts.problems.map((entry) => `PROBLEM ${entry.problem}: ${entry.request}`),
        checks: [
          { name: 'at least 20,000 requests', pass: counts.requests >= 20_000, detail: `${counts.requests}` },
          { name: 'no 5xx', pass: fivexx === 0, detail: `${fivexx} responses 5xx` },
          { name: 'every body in its envelope', pass: counts.problems.length === 0, detail: `${counts.problems.length} problems` },
        ],
        data: { seed, seconds, ...counts },
      };
    } finally {
      await instance.close();
    }
  },
};
