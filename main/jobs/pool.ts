import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { DEFAULT_PARSER_LIMITS, type ParserLimits } from '../common/parser-limits.js';
import type { ResultFor, WorkerEnvelope, WorkerProgress, WorkerTask } from '../common/worker-messages.js';

let workerLimits: ParserLimits = DEFAULT_PARSER_LIMITS;

/** The process's parser limits (config.json `parserLimits`); pools created afterwards hand them to their threads. */
export function configureWorkerLimits(limits: ParserLimits): void {
  workerLimits = limits;
}

/** Resident memory past which the watchdog stops running tasks. */
export function watchdogBytes(limits: ParserLimits): number {
  if (limits.watchdogRssMb > 0) return limits.watchdogRssMb * 1024 * 1024;
  return Math.min(8 * 1024 ** 3, Math.floor(os.totalmem() / 2));
}

/** How a task stopped by the watchdog fails: the job's error message. */
export class ResourceLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceLimitError';
  }
}

/**
 * One thread per core: OCR and burn-in must use every core to keep up with native tools, and the main
 * process (HTTP, SQLite writes) needs little CPU while they run.
 */
export function defaultPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * The compiled worker entry. From dist/main/jobs/pool.js it is ../../worker/index.js; when main/ runs from
 * sources (vitest), the same relative path does not exist and the build's dist/worker/index.js is used.
 */
export function workerEntry(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../worker/index.js'), path.resolve(here, '../../dist/worker/index.js')];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`worker entry not found (looked at ${candidates.join(', ')}); run npm run build:main`);
  return found;
}

/**
 * Each thread's young generation (three semi-spaces' worth). Reading a page makes many short-lived objects (a glyph,
 * its corners and bounds, pdf.js's text items); with V8's default the scavenger ran for a fifth of an export's
 * time, with 64 MB semi-spaces under a tenth (bench/profile-export.ts). V8 grows the space only as it is used.
 */
const YOUNG_GENERATION_MB = 192;

/**
 * V8 flags for every isolate of the process (V8's flags are process-wide; a thread's execArgv takes none). Without
 * allocation-site pretenuring: a page's readings (glyphs, text items) live from the burn to the check of the page,
 * so V8 learned to allocate every glyph made at that site in old space, where each store into it pays a write
 * barrier and the old space fills towards a full collection. Where that happened (bench/profile-export.ts) the glyph
 * reading took 380 against 80 ms a round; the pool's threads spent 5–12 % more CPU a warm export round
 * (docs/architecture.md, Export speed).
 */
export const WORKER_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;
let flagsSet = false;

/** Sets WORKER_V8_FLAGS once, before the first thread starts. */
export function setWorkerV8Flags(): void {
  if (flagsSet) return;
  flagsSet = true;
  for (const flag of WORKER_V8_FLAGS) v8.setFlagsFromString(flag);
}

export interface RunOptions {
  signal: AbortSignal;
  onProgress: (progress: WorkerProgress) => void;
  /**
   * The thread (its threadId) to run on if it is idle: one that keeps what the task reads (an export's sources,
   * worker/burn-in/kept-sources.ts). Busy or gone, any idle thread takes the task: a preference, never a wait.
   */
  thread?: number;
}

type Balancer = NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer'];
type BalancedTask = Parameters<NonNullable<Balancer>>[0];
type BalancedWorker = Parameters<NonNullable<Balancer>>[1][number];

/**
 * piscina's own rule (an idle thread; one task at a time, every task here being abortable), the task's preferred
 * thread first when it is idle.
 */
export function preferringBalancer(task: BalancedTask, workers: BalancedWorker[]): BalancedWorker | null {
  const wanted = (task[Piscina.queueOptionsSymbol as keyof BalancedTask] as { thread?: number } | null | undefined)?.thread;
  const usable = (worker: BalancedWorker) => worker.currentUsage === 0 && !worker.terminating && !worker.destroyed;
  if (wanted !== undefined) {
    const preferred = workers.find((worker) => worker.id === wanted && usable(worker));
    if (preferred) return preferred;
  }
  return workers.find(usable) ?? null;
}

/** The worker threads; typed per task kind. Aborting a running task makes piscina replace its thread. */
export class WorkerPool {
  private readonly piscina: Piscina<WorkerEnvelope, unknown>;
  private readonly running = new Set<AbortController>();
  private readonly limits = workerLimits;
  private watchdog: NodeJS.Timeout | null = null;

  constructor(readonly size = defaultPoolSize()) {
    setWorkerV8Flags();
    // Threads start on demand and leave when idle, so an instance that runs no jobs holds none. They run the
    // compiled worker and take none of this process's flags: a loader such as tsx (tests, benchmarks) would
    // otherwise start in every thread and its source-map support alone grows each thread's heap fourfold.
    // Each thread's V8 heap is bounded; pictures and inflated streams (outside the heap) are bounded by the
    // parser limits the thread reads from workerData, and the watchdog below catches what slips past both.
    this.piscina = new Piscina({
      filename: workerEntry(),
      // piscina tries require() before import(); Node 20's require of an ES module can abort the whole process
      // (v8 IsGraphAsync fatal error, seen once in CI). Refusing it makes piscina take import() at once.
      execArgv: ['--no-experimental-require-module'],
      minThreads: 0,
      maxThreads: size,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.workerHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, stackSizeMb: 4 },
      workerData: { parserLimits: this.limits },
      loadBalancer: preferringBalancer,
    });
  }

  /** Checks resident memory twice a second while tasks run; past the limit every running task is stopped. */
  private watch(): void {
    if (this.watchdog) return;
    const limit = watchdogBytes(this.limits);
    this.watchdog = setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (rss <= limit) return;
      const reason = `the server's memory reached ${Math.round(rss / 1024 ** 2)} MiB, over the watchdog limit of ${Math.round(limit / 1024 ** 2)} MiB (parserLimits.watchdogRssMb); the task was stopped`;
      for (const controller of this.running) controller.abort(new ResourceLimitError(reason));
    }, 500);
    this.watchdog.unref();
  }

  async run<T extends WorkerTask>(task: T, options: RunOptions): Promise<ResultFor<T['kind']>> {
    const channel = new MessageChannel();
    channel.port1.on('message', (message: WorkerProgress) => options.onProgress(message));
    const controller = new AbortController();
    const forward = () => controller.abort(options.signal.reason);
    if (options.signal.aborted) forward();
    else options.signal.addEventListener('abort', forward, { once: true });
    this.running.add(controller);
    this.watch();
    try {
      const envelope: WorkerEnvelope = { task, progressPort: channel.port2 };
      // Read by the balancer on this side only (a symbol key is not sent to the thread).
      if (options.thread !== undefined) Object.assign(envelope, { [Piscina.queueOptionsSymbol]: { thread: options.thread } });
      const result = (await this.piscina.run(envelope, { transferList: [channel.port2], signal: controller.signal })) as ResultFor<T['kind']>;
      if (result.kind !== task.kind) throw new Error(`worker answered a ${task.kind} task with a ${result.kind} result`);
      return result;
    } catch (error) {
      // Stopped by the watchdog (not by the caller): fail with the reason; piscina has replaced the thread.
      if (controller.signal.reason instanceof ResourceLimitError && !options.signal.aborted) throw controller.signal.reason;
      if (isHeapLimitExit(error)) throw new ResourceLimitError(`the worker thread ran out of its ${this.limits.workerHeapMb} MiB heap (parserLimits.workerHeapMb) and was stopped`);
      throw error;
    } finally {
      options.signal.removeEventListener('abort', forward);
      this.running.delete(controller);
      if (this.running.size === 0 && this.watchdog) {
        clearInterval(this.watchdog);
        this.watchdog = null;
      }
      channel.port1.close();
    }
  }

  /** Stops every thread; running tasks are rejected. */
  destroy(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    return this.piscina.destroy();
  }
}

/** A thread that passed its resourceLimits exits with ERR_WORKER_OUT_OF_MEMORY. */
function isHeapLimitExit(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}
