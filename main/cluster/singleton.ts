import { tryLock, type HeldLock } from '../db/locks.js';
import type { Runtime } from '../runtime.js';
import { processIdentity } from './identity.js';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Runs `start`'s runner only while this process owns the lock `name`: tries at once, then every third of
 * `leases.seconds`; the owner renews on the same beat and stops its runner if the lock was lost. Another
 * process takes over when the owner stops, dies or stalls past its lease.
 */
export class SingletonRunner {
  private lock: HeldLock | null = null;
  private runner: Stoppable | null = null;
  private timer: NodeJS.Timeout | null = null;
  private work: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly runtime: Runtime,
    readonly name: string,
    private readonly start: () => Promise<Stoppable>,
  ) {}

  /** Whether this process runs the singleton now. */
  get owned(): boolean {
    return this.runner !== null;
  }

  /** Makes the first attempt (awaited, so a lone process runs its singletons before it reports ready). */
  async begin(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), (this.runtime.config.leases.seconds * 1000) / 3);
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.work = this.work.then(() => this.step()).catch((error: unknown) => console.error(`obscura: ${this.name}:`, error));
    return this.work;
  }

  private async step(): Promise<void> {
    if (this.stopped) return;
    if (this.lock) {
      if (await this.lock.check()) return;
      console.error(`obscura: ${this.name}: ownership lost; stopping here (another process runs it)`);
      await this.drop();
      return;
    }
    const { db, config } = this.runtime;
    this.lock = await tryLock(db, this.name, { owner: processIdentity(), leaseSeconds: config.leases.seconds, now: () => new Date() });
    if (!this.lock) return;
    try {
      this.runner = await this.start();
    } catch (error) {
      await this.drop();
      throw error;
    }
  }

  private async drop(): Promise<void> {
    const runner = this.runner;
    this.runner = null;
    await runner?.stop();
    const lock = this.lock;
    this.lock = null;
    await lock?.release();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.work;
    await this.drop();
  }
}
