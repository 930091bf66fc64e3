// `npm run bench [-- NAME ...] [--profile] [--json]`: runs the registered benchmarks (all by default).
//
// Environment: BENCH_SECONDS (measured seconds per target, default 10), BENCH_WARMUP_SECONDS (default 3),
// BENCH_CONNECTIONS (default 32), BENCH_PROFILE=1 (same as --profile: servers run under --cpu-prof and
// the hot spots are printed), BENCH_JSON=1 (same as --json: raw results as JSON at the end),
// BENCH_STRICT=1 (exit 1 when a target is missed). A failed check marked `required` (a correctness figure, e.g.
// release-fidelity's leaks) exits 1 always.
//
// To add a benchmark: write bench/NAME.ts exporting a Benchmark (see bench/types.ts) and list it below.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiLatency } from './api-latency.js';
import { exportBench } from './export.js';
import { detectionBench } from './detection.js';
import { fuzzBench } from './fuzz.js';
import { intakeBench } from './intake.js';
import { jobsBench } from './jobs.js';
import { renderTable } from './lib/format.js';
import { ocrBench } from './ocr.js';
import { redactionStore } from './redactions.js';
import { releaseFidelity } from './release-fidelity.js';
import { searchBench } from './search.js';
import type { Benchmark, BenchReport, BenchSettings } from './types.js';
import { watchedFolders } from './watched-folders.js';

const BENCHMARKS: readonly Benchmark[] = [releaseFidelity, apiLatency, redactionStore, detectionBench, ocrBench, watchedFolders, exportBench, searchBench, fuzzBench, intakeBench, jobsBench];

function numberFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

function usage(): string {
  const names = BENCHMARKS.map((bench) => `  ${bench.name.padEnd(10)} ${bench.description}`).join('\n');
  return `usage: npm run bench [-- NAME ...] [--profile] [--json]\n\nbenchmarks:\n${names}`;
}

function printReport(report: BenchReport): void {
  console.log(`\n== ${report.title}\n`);
  console.log(renderTable(report.table));
  for (const note of report.notes) console.log(note);
  console.log('');
  for (const check of report.checks) console.log(`${check.pass ? 'PASS' : 'FAIL'}  ${check.name} (${check.detail})${check.required ? ' [required]' : ''}`);
}

async function main(argv: string[]): Promise<number> {
  const flags = new Set(argv.filter((arg) => arg.startsWith('-')));
  const names = argv.filter((arg) => !arg.startsWith('-'));
  if (flags.has('--help') || flags.has('-h')) {
    console.log(usage());
    return 0;
  }
  const unknownFlags = [...flags].filter((flag) => !['--profile', '--json'].includes(flag));
  const unknownNames = names.filter((name) => !BENCHMARKS.some((bench) => bench.name === name));
  if (unknownFlags.length > 0 || unknownNames.length > 0) {
    console.error(`unknown ${[...unknownFlags, ...unknownNames].join(', ')}\n\n${usage()}`);
    return 2;
  }
  const selected = names.length === 0 ? BENCHMARKS : BENCHMARKS.filter((bench) => names.includes(bench.name));

  const profile = flags.has('--profile') || process.env.BENCH_PROFILE === '1';
  const profileDir = profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'obscura-bench-prof-')) : null;
  const settings: BenchSettings = {
    seconds: numberFromEnv('BENCH_SECONDS', 10, 1),
    warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 3, 0),
    connections: Math.round(numberFromEnv('BENCH_CONNECTIONS', 32, 1)),
    profileDir,
    log: (message) => console.error(message),
  };
  console.error(
    `node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), ${os.platform()} ${os.release()}` +
      (profileDir ? `\nCPU profiles go to ${profileDir}` : ''),
  );

  const reports: BenchReport[] = [];
  for (const bench of selected) {
    console.error(`\n[${bench.name}] ${bench.description}`);
    const report = await bench.run(settings);
    reports.push(report);
    printReport(report);
  }
  if (flags.has('--json') || process.env.BENCH_JSON === '1') {
    console.log(JSON.stringify(reports.map(({ title, checks, data }) => ({ title, checks, data })), null, 2));
  }
  const failed = reports.some((report) => report.checks.some((check) => !check.pass));
  const requiredFailed = reports.some((report) => report.checks.some((check) => check.required === true && !check.pass));
  return requiredFailed || (failed && process.env.BENCH_STRICT === '1') ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);
