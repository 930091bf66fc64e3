import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ParserLimits } from './common/parser-limits.js';
import { ConfigWatchedFolder, WatchedFolderOptions } from './common/schemas/watched-folders.js';

const Tier = z.strictObject({ limit: z.number().int().min(1), windowSeconds: z.number().int().min(1) });
const Throttle = z.strictObject({
  freeFailures: z.number().int().min(0),
  baseDelaySeconds: z.number().min(0),
  maxDelaySeconds: z.number().min(0),
  lockoutAfter: z.number().int().min(0),
  lockoutSeconds: z.number().min(0),
  forgetAfterSeconds: z.number().min(1),
});

/** Everything an operator may tune; the defaults are the spec's and the app's embedded defaults. */
export const ConfigSchema = z.strictObject({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(4791),
  /** PostgreSQL instead of the SQLite file in the data directory (blobs and config stay there). */
  databaseUrl: z
    .string()
    .regex(/^postgres(?:ql)?:\/\//i, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  rateLimits: z
    .strictObject({
      enabled: z.boolean().default(true),
      perRawKey: Tier.default({ limit: 60, windowSeconds: 60 }),
      perApiKey: Tier.default({ limit: 1000, windowSeconds: 60 }),
      perOrganization: Tier.default({ limit: 5000, windowSeconds: 60 }),
    })
    .prefault({}),
  uploads: z
    .strictObject({
      maxFileBytes: z.number().int().min(1).default(2 * 1024 ** 3),
      sessionTtlSeconds: z.number().int().min(60).default(3600),
    })
    .prefault({}),
  downloads: z.strictObject({ urlTtlSeconds: z.number().int().min(5).default(300) }).prefault({}),
  sessions: z.strictObject({ ttlSeconds: z.number().int().min(60).default(12 * 3600) }).prefault({}),
  /** Access administration: how long a rotated key's previous secret keeps working, how long an invitation is valid. */
  access: z
    .strictObject({
      keyRotationGraceSeconds: z.number().int().min(0).max(30 * 86400).default(86400),
      invitationTtlSeconds: z.number().int().min(300).default(7 * 86400),
    })
    .prefault({}),
  /** Layer locks of the redaction editor expire unless the holder sends a heartbeat within this time. */
  locks: z.strictObject({ ttlSeconds: z.number().int().min(5).default(120) }).prefault({}),
  /** Processing jobs: a job running past its kind's limit is stopped and fails; one interrupted more often fails. */
  jobs: z
    .strictObject({
      timeLimitSeconds: z
        .strictObject({
          scan: z.number().positive().default(300),
          ocr: z.number().positive().default(3600),
          detection: z.number().positive().default(600),
          transcription: z.number().positive().default(3600),
          summary: z.number().positive().default(600),
        })
        .prefault({}),
      maxAttempts: z.number().int().min(1).default(3),
    })
    .prefault({}),
  /** Where blobs live: the data directory (default), or an S3-compatible bucket shared by several machines. */
  blobStore: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('local') }),
      z.strictObject({
        kind: z.literal('s3'),
        bucket: z.string().min(1),
        prefix: z.string().default(''),
        endpoint: z.url({ protocol: /^https?$/ }).optional(),
        region: z.string().min(1).default('us-east-1'),
        forcePathStyle: z.boolean().default(true),
        accessKeyId: z.string().min(1).optional(),
        secretAccessKey: z.string().min(1).optional(),
      }),
    ])
    .default({ kind: 'local' }),
  /** Several processes on one database: a job's or export's lease, renewed while it runs; an expired one is taken back. */
  leases: z.strictObject({ seconds: z.number().min(1).max(3600).default(30) }).prefault({}),
  /** Exports: one running past the limit is stopped and fails; one interrupted by restarts this often fails. */
  exports: z
    .strictObject({
      timeLimitSeconds: z.number().positive().default(3600),
      maxAttempts: z.number().int().min(1).default(3),
      /** Exports processed at the same time; each spreads its pages over the worker pool. */
      concurrency: z.number().int().min(1).default(1),
    })
    .prefault({}),
  /** Optional OpenAI-compatible chat endpoint (llama.cpp, Ollama) for summaries; without one, summaries are local. */
  summary: z
    .strictObject({
      endpoint: z.url({ protocol: /^https?$/ }).optional().describe('Base URL; POST {endpoint}/v1/chat/completions'),
      model: z.string().min(1).default('default'),
      timeoutSeconds: z.number().positive().default(120),
      /** Longer documents are cut to this many characters before they are sent. */
      maxInputChars: z.number().int().min(1000).default(24_000),
    })
    .prefault({}),
  /** OpenAI-compatible speech-to-text server (whisper.cpp, faster-whisper-server, LocalAI); transcription needs one. */
  transcription: z
    .strictObject({
      endpoint: z.url({ protocol: /^https?$/ }).optional().describe('Base URL; POST {endpoint}/v1/audio/transcriptions'),
      model: z.string().min(1).default('whisper-1'),
      timeoutSeconds: z.number().positive().default(3600),
    })
    .prefault({}),
  /** Failed sign-ins and failed API-key authentications: growing delays, then a temporary lockout (docs/security.md).
   * The per-address counters apply to clients off loopback only: every local process shares 127.0.0.1. */
  loginThrottle: z
    .strictObject({
      enabled: z.boolean().default(true),
      perAccount: Throttle.default({ freeFailures: 5, baseDelaySeconds: 1, maxDelaySeconds: 60, lockoutAfter: 10, lockoutSeconds: 900, forgetAfterSeconds: 3600 }),
      perAddress: Throttle.default({ freeFailures: 20, baseDelaySeconds: 1, maxDelaySeconds: 60, lockoutAfter: 0, lockoutSeconds: 900, forgetAfterSeconds: 3600 }),
      apiKeyPerAddress: Throttle.default({ freeFailures: 50, baseDelaySeconds: 1, maxDelaySeconds: 30, lockoutAfter: 0, lockoutSeconds: 900, forgetAfterSeconds: 3600 }),
      /** Unknown secrets presented for one key lookup id (the `obs_<id>_` prefix); malformed keys share one counter. */
      apiKeyPerPrefix: Throttle.default({ freeFailures: 20, baseDelaySeconds: 1, maxDelaySeconds: 30, lockoutAfter: 0, lockoutSeconds: 900, forgetAfterSeconds: 3600 }),
    })
    .prefault({}),
  /** What a worker thread may decode from one file, its heap and the memory watchdog (docs/security.md). */
  parserLimits: ParserLimits.prefault({}),
  /** Largest JSON body accepted on either API surface. */
  bodyLimitBytes: z.number().int().min(1024).default(10 * 1024 * 1024),
  idempotencyRetentionHours: z.number().min(24).default(48),
  /** Folders watched for dropped files (docs/api.md, Watched folders); synced to the database at start. */
  watchedFolders: z.array(ConfigWatchedFolder).default([]),
  watchedFolderOptions: WatchedFolderOptions.prefault({}),
  /** Webhook delivery (docs/api.md "Webhooks"): the defaults are the documented contract. */
  webhooks: z
    .strictObject({
      timeoutSeconds: z.number().positive().max(300).default(10),
      /** Wait before each retry; attempts = 1 + its length. */
      retryScheduleSeconds: z.array(z.number().positive()).max(50).default([5, 30, 120, 600, 3600, 21600, 43200, 86400, 86400, 86400]),
      disableAfterHours: z.number().positive().default(72),
      secretOverlapHours: z.number().min(0).default(24),
      pollIntervalMs: z.number().int().min(10).default(1000),
      /** 0: a 3xx answer is a failed attempt; otherwise up to this many hops, each checked like the first. */
      maxRedirects: z.number().int().min(0).max(10).default(0),
      /** Finished deliveries (and their attempts) older than this are removed by maintenance; 0 keeps them all. */
      deliveryRetentionDays: z.number().min(0).default(30),
    })
    .prefault({}),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

export const CONFIG_FILE_NAME = 'config.json';

/** Reads `config.json` from the data directory (optional), then OBSCURA_DATABASE_URL, then overrides from flags. */
export function loadConfig(dataDir: string, overrides: ConfigInput = {}): Config {
  const file = path.join(dataDir, CONFIG_FILE_NAME);
  let fromFile: unknown = {};
  if (fs.existsSync(file)) {
    try {
      fromFile = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
    }
  }
  const fromEnv = process.env.OBSCURA_DATABASE_URL ? { databaseUrl: process.env.OBSCURA_DATABASE_URL } : {};
  const merged = mergeDeep(mergeDeep(fromFile as Record<string, unknown>, fromEnv), overrides as Record<string, unknown>);
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    throw new Error(`invalid configuration (${file} and flags): ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

function mergeDeep(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) continue;
    const existing = result[key];
    result[key] =
      value && typeof value === 'object' && !Array.isArray(value) && existing && typeof existing === 'object'
        ? mergeDeep(existing as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}

/** Per-user data directory: XDG on Linux, Application Support on macOS, %APPDATA% on Windows. */
export function defaultDataDir(): string {
  if (process.env.OBSCURA_DATA_DIR) return process.env.OBSCURA_DATA_DIR;
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Obscura');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Obscura');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'obscura');
}
