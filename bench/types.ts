/** Shared shapes of the benchmark registry: each benchmark is a module exporting one Benchmark. */

export interface BenchSettings {
  /** Measured seconds per target (BENCH_SECONDS, default 10). */
  seconds: number;
  /** Warm-up seconds per target before measuring (BENCH_WARMUP_SECONDS, default 3). */
  warmupSeconds: number;
  /** Concurrent connections (BENCH_CONNECTIONS, default 32). */
  connections: number;
  /** When set (BENCH_PROFILE=1), servers run under --cpu-prof and their profiles are summarised here. */
  profileDir: string | null;
  log(message: string): void;
}

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
  /** A correctness figure, not a performance target: when it fails, the run exits 1 even without BENCH_STRICT. */
  required?: boolean;
}

export interface BenchReport {
  title: string;
  /** Rendered as a table: first row is the header. */
  table: string[][];
  /** Free-form lines printed under the table (ratios, notes). */
  notes: string[];
  checks: Check[];
  /** Raw numbers for machines (printed with BENCH_JSON=1). */
  data: unknown;
}

export interface Benchmark {
  /** Short name used on the command line: `npm run bench -- NAME`. */
  name: string;
  description: string;
  run(settings: BenchSettings): Promise<BenchReport>;
}
