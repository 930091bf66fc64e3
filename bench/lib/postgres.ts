import { startCluster, type Cluster } from '../../test/helpers/postgres-cluster.js';

// A throwaway PostgreSQL cluster for the benchmarks' PostgreSQL column (the test suite's helper, with fsync
// and synchronous commit on, as durable as SQLite's synchronous=FULL). Null, with the reason, when none can start.

export interface BenchPostgres {
  /** A fresh, empty database of the cluster. */
  database(name: string): Promise<string>;
  stop(): void;
}

export async function startBenchPostgres(log: (message: string) => void): Promise<BenchPostgres | { skipped: string }> {
  let cluster: Cluster;
  try {
    cluster = await startCluster({ durable: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] ?? 'unknown' : String(error);
    log(`  PostgreSQL column skipped: ${reason}`);
    return { skipped: reason };
  }
  log(`  PostgreSQL cluster on 127.0.0.1:${cluster.port}`);
  return {
    database: (name) => cluster.createDatabase(name),
    stop: () => cluster.stop(),
  };
}
