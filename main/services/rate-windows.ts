import type { Executor as Db } from '../db/queries/executor.js';
import { countRequests, deleteWindowsBefore } from '../db/queries/rate-windows.js';
import { sharesRateWindows } from '../db/dialect.js';

/** A fixed window of one rate-limit bucket ("tier:key") as it stands after counting a request. */
export interface RateWindow {
  hits: number;
  /** Epoch ms. */
  windowStart: number;
}

export interface RateWindows {
  /** Counts one request; a window older than `windowMs` restarts at `now` with it. */
  count(bucket: string, now: number, windowMs: number): Promise<RateWindow>;
}

/** Lapsed windows are forgotten once every this many counted requests. */
const PRUNE_EVERY = 1000;

/**
 * Where the windows are counted (db/dialect.ts decides): on PostgreSQL, rows every process on the database
 * counts (an office server's several processes share one allowance); on SQLite, this process's memory (a
 * desktop is one process, and a counted commit per request there costs an fsync: 490 req/s against 25,700).
 */
export function rateWindowsFor(db: Db, longestWindowMs: number): RateWindows {
  return sharesRateWindows(db) ? new SharedRateWindows(db, longestWindowMs) : new ProcessRateWindows(longestWindowMs);
}

interface Waiting {
  now: number;
  resolve: (window: RateWindow) => void;
  reject: (error: unknown) => void;
}

/**
 * Rows of `rate_windows`. Requests of one bucket that arrive while its count is on the way to the database
 * are counted together by the next statement (as a group commit): each still learns its exact place in the
 * window, and a busy key costs one row update per round trip instead of one per request.
 */
class SharedRateWindows implements RateWindows {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly counting = new Set<string>();
  private counted = 0;

  constructor(
    private readonly db: Db,
    private readonly longestWindowMs: number,
  ) {}

  count(bucket: string, now: number, windowMs: number): Promise<RateWindow> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(bucket) ?? [];
      queue.push({ now, resolve, reject });
      this.waiting.set(bucket, queue);
      if (!this.counting.has(bucket)) void this.flush(bucket, windowMs);
    });
  }

  private async flush(bucket: string, windowMs: number): Promise<void> {
    const queue = this.waiting.get(bucket);
    if (!queue) return;
    this.waiting.delete(bucket);
    this.counting.add(bucket);
    const now = Math.max(...queue.map((entry) => entry.now));
    try {
      const window = await countRequests(this.db, bucket, now, windowMs, queue.length);
      const first = window.hits - queue.length;
      queue.forEach((entry, index) => entry.resolve({ hits: first + index + 1, windowStart: window.windowStart }));
      this.counted += queue.length;
      if (this.counted >= PRUNE_EVERY) {
        this.counted = 0;
        await deleteWindowsBefore(this.db, now - this.longestWindowMs);
      }
    } catch (error) {
      for (const entry of queue) entry.reject(error);
    } finally {
      this.counting.delete(bucket);
      if (this.waiting.has(bucket)) void this.flush(bucket, windowMs);
    }
  }
}

class ProcessRateWindows implements RateWindows {
  private readonly windows = new Map<string, RateWindow>();
  private counted = 0;

  constructor(private readonly longestWindowMs: number) {}

  count(bucket: string, now: number, windowMs: number): Promise<RateWindow> {
    const current = this.windows.get(bucket);
    const window = current && current.windowStart > now - windowMs ? { hits: current.hits + 1, windowStart: current.windowStart } : { hits: 1, windowStart: now };
    this.windows.set(bucket, window);
    this.counted += 1;
    if (this.counted % PRUNE_EVERY === 0) {
      for (const [key, value] of this.windows) if (value.windowStart <= now - this.longestWindowMs) this.windows.delete(key);
    }
    return Promise.resolve(window);
  }
}
