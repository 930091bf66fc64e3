import fsp from 'node:fs/promises';

export interface FileStat {
  size: number;
  mtimeMs: number;
}

export type Observation = { kind: 'stable'; stat: FileStat } | { kind: 'gone' } | { kind: 'not_a_file' };

interface Entry {
  absolute: string;
  last: FileStat | null;
  /** When `last` was first seen unchanged. */
  since: number;
  dueAt: number;
}

/** Stats at most this many files at once per tick, so a thousand dropped files do not flood the thread pool. */
const STAT_CONCURRENCY = 32;

/**
 * Decides when a waiting file is complete: its size and mtime must stay the same for `stabilityMs`,
 * judged from two stats at least that far apart. Writers that pause longer than that are indistinguishable
 * from finished ones; the threshold is per folder for that reason.
 */
export class StabilityTracker {
  private readonly entries = new Map<number, Entry>();
  private readonly timer: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly stabilityMs: number,
    private readonly settled: (fileId: number, observation: Observation) => void,
  ) {
    this.timer = setInterval(() => void this.tick(), Math.max(10, Math.min(500, Math.floor(stabilityMs / 4))));
    this.timer.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Starts (or restarts) watching a file; its stability is judged from the next stat on. */
  track(fileId: number, absolute: string): void {
    const now = Date.now();
    this.entries.set(fileId, { absolute, last: null, since: now, dueAt: now });
  }

  forget(fileId: number): void {
    this.entries.delete(fileId);
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = Date.now();
      const due = [...this.entries].filter(([, entry]) => entry.dueAt <= now);
      for (let start = 0; start < due.length; start += STAT_CONCURRENCY) {
        await Promise.all(due.slice(start, start + STAT_CONCURRENCY).map(([fileId, entry]) => this.check(fileId, entry)));
      }
    } finally {
      this.ticking = false;
    }
  }

  private async check(fileId: number, entry: Entry): Promise<void> {
    let observation: Observation | null = null;
    try {
      const stat = await fsp.lstat(entry.absolute);
      if (!stat.isFile()) observation = { kind: 'not_a_file' };
      else {
        const now = Date.now();
        const current = { size: stat.size, mtimeMs: stat.mtimeMs };
        const unchanged = entry.last !== null && entry.last.size === current.size && entry.last.mtimeMs === current.mtimeMs;
        if (unchanged && now - entry.since >= this.stabilityMs) observation = { kind: 'stable', stat: current };
        else {
          if (!unchanged) {
            entry.last = current;
            entry.since = now;
          }
          entry.dueAt = entry.since + this.stabilityMs;
        }
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') observation = { kind: 'gone' };
      else entry.dueAt = Date.now() + this.stabilityMs; // e.g. EACCES on the directory: look again later
    }
    if (observation && this.entries.get(fileId) === entry) {
      this.entries.delete(fileId);
      this.settled(fileId, observation);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.entries.clear();
  }
}
