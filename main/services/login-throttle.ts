import { DomainError } from '../common/errors.js';

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

interface Entry {
  failures: number;
  /** Epoch ms before which attempts are refused. */
  blockedUntil: number;
  lastFailure: number;
  locked: boolean;
}

export interface FailureOutcome {
  failures: number;
  /** True when this failure started a lockout. */
  lockedNow: boolean;
}

const MAX_ENTRIES = 50_000;

/**
 * Counts failed attempts per name (an account, a client address) and answers with growing delays, then a
 * temporary lockout. In memory: a restart forgets it, which an attacker on this machine cannot cause
 * without already being able to stop the server.
 */
export class FailureThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly settings: ThrottleSettings,
    private readonly what: string,
  ) {}

  /** Throws rate_limited (with retry_after) while the name is delayed or locked out. */
  check(name: string, now: number): void {
    const entry = this.current(name, now);
    if (!entry || entry.blockedUntil <= now) return;
    const retryAfter = Math.max(1, Math.ceil((entry.blockedUntil - now) / 1000));
    const message = entry.locked
      ? `too many failed attempts for this ${this.what}; it is locked for ${retryAfter} s`
      : `too many failed attempts for this ${this.what}; retry in ${retryAfter} s`;
    throw new DomainError('rate_limited', message, undefined, { retry_after: retryAfter });
  }

  fail(name: string, now: number): FailureOutcome {
    const entry = this.current(name, now) ?? { failures: 0, blockedUntil: 0, lastFailure: now, locked: false };
    entry.failures += 1;
    entry.lastFailure = now;
    const { freeFailures, baseDelaySeconds, maxDelaySeconds, lockoutAfter, lockoutSeconds } = this.settings;
    let lockedNow = false;
    if (lockoutAfter > 0 && entry.failures >= lockoutAfter) {
      lockedNow = !entry.locked;
      entry.locked = true;
      entry.blockedUntil = now + lockoutSeconds * 1000;
    } else if (entry.failures > freeFailures) {
      const delay = Math.min(maxDelaySeconds, baseDelaySeconds * 2 ** (entry.failures - freeFailures - 1));
      entry.blockedUntil = now + delay * 1000;
    }
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(name)) this.evict(now);
    this.entries.set(name, entry);
    return { failures: entry.failures, lockedNow };
  }

  succeed(name: string): void {
    this.entries.delete(name);
  }

  private current(name: string, now: number): Entry | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const idleSince = Math.max(entry.lastFailure, entry.blockedUntil);
    if (now - idleSince > this.settings.forgetAfterSeconds * 1000) {
      this.entries.delete(name);
      return undefined;
    }
    return entry;
  }

  private evict(now: number): void {
    for (const name of [...this.entries.keys()]) this.current(name, now);
    // Still full: the oldest names go first (a Map iterates in insertion order).
    for (const name of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES) break;
      this.entries.delete(name);
    }
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
