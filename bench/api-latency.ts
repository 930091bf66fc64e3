import path from 'node:path';
import { formatProfile, summariseProfile } from './lib/cpu-profile.js';
import { fmt, fmtInt } from './lib/format.js';
import { runLoad, type LoadStats } from './lib/load.js';
import { mainThreadProfile, startTarget } from './lib/target.js';
import type { BareTargetInput } from './targets/bare-api.js';
import type { ObscuraTargetInfo, ObscuraTargetInput } from './targets/obscura-api.js';
import type { Benchmark, BenchReport, BenchSettings } from './types.js';
import { startBenchPostgres } from './lib/postgres.js';

/** Issue 2's targets for GET /api/v1/cases/{id} at 32 connections. */
export const TARGET_RATIO = 0.6;
export const TARGET_P99_MS = 15;

export interface ApiLatencyResult {
  path: string;
  bodyBytes: number;
  connections: number;
  seconds: number;
  obscura: LoadStats;
  /** The same with rate limits counted (limits never reached): in memory on SQLite, shared rows on PostgreSQL. */
  limited: { sqlite: LoadStats; postgres: LoadStats | null };
  /** The same instance on PostgreSQL (issue 21); null when no cluster could start (postgresSkipped says why). */
  postgres: LoadStats | null;
  postgresSkipped: string | null;
  bare: LoadStats;
  ratio: number;
  profiles: string[];
}

async function measure(settings: BenchSettings, label: string, url: string, headers: Record<string, string>): Promise<LoadStats> {
  if (settings.warmupSeconds > 0) {
    settings.log(`  ${label}: warming up for ${settings.warmupSeconds} s`);
    await runLoad({ url, headers, connections: settings.connections, seconds: settings.warmupSeconds });
  }
  settings.log(`  ${label}: measuring for ${settings.seconds} s at ${settings.connections} connections`);
  const stats = await runLoad({ url, headers, connections: settings.connections, seconds: settings.seconds });
  if (stats.non2xx > 0 || stats.errors > 0 || stats.timeouts > 0) {
    throw new Error(`${label}: ${stats.non2xx} non-2xx responses, ${stats.errors} errors, ${stats.timeouts} timeouts; the run is not valid`);
  }
  return stats;
}

function row(name: string, stats: LoadStats): string[] {
  return [name, fmtInt(stats.rps), fmt(stats.p50), fmt(stats.p99), fmt(stats.p999), fmt(stats.mean), fmt(stats.max), fmtInt(stats.ok)];
}

/** A fresh instance (on OBSCURA_DATABASE_URL when set) measured on its own case, then stopped. */
async function measureTarget(settings: BenchSettings, label: string, input: ObscuraTargetInput, headers: Record<string, string>): Promise<LoadStats> {
  const target = await startTarget<ObscuraTargetInfo>('targets/obscura-api.ts', { profileDir: null, input });
  try {
    return await measure(settings, label, `${target.info.baseUrl}/api/v1/cases/${target.info.caseId}`, { ...headers, 'x-api-key': target.info.apiKey });
  } finally {
    await target.stop();
  }
}

export async function runApiLatency(settings: BenchSettings): Promise<ApiLatencyResult> {
  const profileDirFor = (name: string) => (settings.profileDir ? path.join(settings.profileDir, `api-latency-${name}`) : null);
  // 1. The real instance, with the full per-request machinery.
  settings.log('starting an Obscura instance (temp data dir, rate limits lifted)');
  const obscura = await startTarget<ObscuraTargetInfo>('targets/obscura-api.ts', {
    profileDir: profileDirFor('obscura'),
  });
  const casePath = `/api/v1/cases/${obscura.info.caseId}`;
  const url = `${obscura.info.baseUrl}${casePath}`;
  const headers = { 'x-api-key': obscura.info.apiKey, accept: 'application/json' };
  let body: string;
  let obscuraStats: LoadStats;
  try {
    const probe = await fetch(url, { headers });
    body = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${casePath} answered ${probe.status}: ${body}`);
    obscuraStats = await measure(settings, 'obscura', url, headers);
  } finally {
    await obscura.stop();
  }
  const limitedSqlite = await measureTarget(settings, 'obscura, rate limits counted', { rateLimits: true }, headers);

  // 1b. The same instance on PostgreSQL, when a throwaway cluster can be started here.
  let postgresStats: LoadStats | null = null;
  let postgresSkipped: string | null = null;
  let limitedPostgres: LoadStats | null = null;
  const cluster = await startBenchPostgres(settings.log);
  if ('skipped' in cluster) postgresSkipped = cluster.skipped;
  else {
    try {
      process.env.OBSCURA_DATABASE_URL = await cluster.database('bench_api');
      const onPostgres = await startTarget<ObscuraTargetInfo>('targets/obscura-api.ts', { profileDir: profileDirFor('postgres') });
      try {
        postgresStats = await measure(settings, 'obscura on PostgreSQL', `${onPostgres.info.baseUrl}/api/v1/cases/${onPostgres.info.caseId}`, { ...headers, 'x-api-key': onPostgres.info.apiKey });
      } finally {
        await onPostgres.stop();
      }
      // A database of its own: the target creates its organization and admin afresh.
      process.env.OBSCURA_DATABASE_URL = await cluster.database('bench_api_limited');
      limitedPostgres = await measureTarget(settings, 'obscura on PostgreSQL, rate limits counted', { rateLimits: true }, headers);
    } finally {
      delete process.env.OBSCURA_DATABASE_URL;
      cluster.stop();
    }
  }

  // 2. The baseline, answering the same bytes, measured the same way (after the instance is gone).
  settings.log('starting the bare Fastify baseline');
  const bareInput: BareTargetInput = { path: casePath, body };
  const bare = await startTarget<{ baseUrl: string }>('targets/bare-api.ts', {
    profileDir: profileDirFor('bare'),
    input: bareInput,
  });
  let bareStats: LoadStats;
  try {
    const bareUrl = `${bare.info.baseUrl}${casePath}`;
    const probe = await fetch(bareUrl, { headers });
    const bareBody = await probe.text();
    if (probe.status !== 200 || bareBody !== body) throw new Error('the baseline does not answer the same bytes');
    bareStats = await measure(settings, 'bare', bareUrl, headers);
  } finally {
    await bare.stop();
  }

  const profiles = ['obscura', 'bare'].flatMap((name) => {
    const dir = profileDirFor(name);
    const file = dir ? mainThreadProfile(dir) : null;
    return file ? [file] : [];
  });
  return {
    path: '/api/v1/cases/{id}',
    bodyBytes: Buffer.byteLength(body),
    connections: settings.connections,
    seconds: settings.seconds,
    obscura: obscuraStats,
    limited: { sqlite: limitedSqlite, postgres: limitedPostgres },
    postgres: postgresStats,
    postgresSkipped,
    bare: bareStats,
    ratio: obscuraStats.rps / bareStats.rps,
    profiles,
  };
}

export const apiLatency: Benchmark = {
  name: 'api',
  description: 'GET /api/v1/cases/{id} with full auth and idempotency machinery vs a bare Fastify route returning the same JSON (issue 2)',
  async run(settings): Promise<BenchReport> {
    const result = await runApiLatency(settings);
    const notes = [
      `GET ${result.path}: ${result.bodyBytes}-byte JSON body, ${result.connections} connections, ${fmt(result.obscura.seconds, 1)} s / ${fmt(result.bare.seconds, 1)} s measured`,
      `ratio (obscura rps / bare rps): ${fmt(result.ratio, 3)}`,
      result.postgres
        ? `PostgreSQL (local cluster, fsync on, one pg pool): ${fmt(result.postgres.rps / result.obscura.rps, 3)}× the SQLite req/s; the checks apply to SQLite, the embedded default`
        : `PostgreSQL column skipped: ${result.postgresSkipped ?? 'unknown'}`,
    ];
    for (const file of result.profiles) notes.push('', formatProfile(summariseProfile(file), 'CPU profile'));
    return {
      title: 'API latency: GET /api/v1/cases/{id}',
      table: [
        ['server', 'req/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'mean ms', 'max ms', 'requests'],
        row('obscura (auth + idempotency), SQLite', result.obscura),
        row('  + rate limits counted (in process memory), SQLite', result.limited.sqlite),
        ...(result.postgres ? [row('obscura (auth + idempotency), PostgreSQL', result.postgres)] : []),
        ...(result.limited.postgres ? [row('  + rate limits counted (shared rows), PostgreSQL', result.limited.postgres)] : []),
        row('bare fastify (same bytes)', result.bare),
      ],
      notes,
      checks: [
        { name: `ratio >= ${TARGET_RATIO}`, pass: result.ratio >= TARGET_RATIO, detail: fmt(result.ratio, 3) },
        { name: `obscura p99 < ${TARGET_P99_MS} ms`, pass: result.obscura.p99 < TARGET_P99_MS, detail: `${fmt(result.obscura.p99)} ms` },
      ],
      data: result,
    };
  },
};
