import { DomainError } from '../common/errors.js';
import type { Executor as Db } from '../db/queries/executor.js';
import { deleteIdleThrottleEntries, deleteThrottleEntry, findThrottleEntry, putThrottleEntry } from '../db/queries/throttle-entries.js';
import { transact } from '../db/transaction.js';

/** Operator settings (config.json `loginThrottle`; docs/security.md). */
export interface ThrottleSettings {
  /** Failures allowed before delays start. */
  freeFailures: number;
  /** First delay once the free failures are spent; doubles with each further failure. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** Failures after which the name is locked out for lockoutSeconds (0: never locked). */
  lockoutAfter: number;
  lockoutSeconds: number;
  /** A name with no failure for this long starts afresh. */
  forgetAfterSeconds: number;
}

export interface FailureOutcome {
  failures: number;
  /** True when this failure started a lockout. */
  lockedNow: boolean;
}

/**
 * Whether a client address is this machine. Every local process shares it, so a per-address counter there
 * would let any of them lock out every clerk and integration: those counters apply to LAN clients only.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address;
  return bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** Forgotten names are removed once every this many failures. */
const PRUNE_EVERY = 200;

/**
 * Counts failed attempts per name (an account, a client address) and answers with growing delays, then a
 * temporary lockout. The counts live in the database (`throttle_entries`, migration 17), so every process
 * on it, servers behind one address or several, shares them, and a restart does not reset them.
 */
export class FailureThrottle {
  private failuresSincePrune = 0;

  constructor(
    private readonly settings: ThrottleSettings,
    private readonly what: string,
    private readonly db: Db,
    /** Which counter this is (account, address, api-key-address): names of different scopes never mix. */
    private readonly scope: string,
  ) {}

  /** Throws rate_limited (with retry_after) while the name is delayed or locked out. */
  async check(name: string, now: number): Promise<void> {
    const entry = await this.current(this.db, name, now);
    if (!entry || entry.blocked_until <= now) return;
    const retryAfter = Math.max(1, Math.ceil((entry.blocked_until - now) / 1000));
    const message = entry.locked
      ? `too many failed attempts for this ${this.what}; it is locked for ${retryAfter} s`
      : `too many failed attempts for this ${this.what}; retry in ${retryAfter} s`;
    throw new DomainError('rate_limited', message, undefined, { retry_after: retryAfter });
  }

  async fail(name: string, now: number): Promise<FailureOutcome> {
    const outcome = await transact(this.db, async (trx) => {
      const previous = await this.current(trx, name, now);
      const entry = { failures: (previous?.failures ?? 0) + 1, blocked_until: previous?.blocked_until ?? 0, last_failure: now, locked: previous?.locked ?? 0 };
      const { freeFailures, baseDelaySeconds, maxDelaySeconds, lockoutAfter, lockoutSeconds } = this.settings;
      let lockedNow = false;
      if (lockoutAfter > 0 && entry.failures >= lockoutAfter) {
        lockedNow = entry.locked === 0;
        entry.locked = 1;
        entry.blocked_until = now + lockoutSeconds * 1000;
      } else if (entry.failures > freeFailures) {
        const delay = Math.min(maxDelaySeconds, baseDelaySeconds * 2 ** (entry.failures - freeFailures - 1));
        entry.blocked_until = now + delay * 1000;
      }
      await putThrottleEntry(trx, { scope: this.scope, name, ...entry });
      return { failures: entry.failures, lockedNow };
    });
    this.failuresSincePrune += 1;
    if (this.failuresSincePrune >= PRUNE_EVERY) {
      this.failuresSincePrune = 0;
      await deleteIdleThrottleEntries(this.db, this.scope, now - this.settings.forgetAfterSeconds * 1000);
    }
    return outcome;
  }

  async succeed(name: string): Promise<void> {
    await deleteThrottleEntry(this.db, this.scope, name);
  }

  private async current(db: Db, name: string, now: number) {
    const row = await findThrottleEntry(db, this.scope, name);
    if (!row) return undefined;
    const idleSince = Math.max(Number(row.last_failure), Number(row.blocked_until));
    if (now - idleSince > this.settings.forgetAfterSeconds * 1000) return undefined;
    return { failures: Number(row.failures), blocked_until: Number(row.blocked_until), last_failure: Number(row.last_failure), locked: Number(row.locked) };
  }
}

/**
 * At most `limit` password checks at once: each scrypt holds 32 MiB and a core for ~100 ms, so a burst of
 * sign-ins queues here instead of taking every core (and a gigabyte) from the rest of the server.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
