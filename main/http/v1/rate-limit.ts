import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.js';
import { DomainError } from '../../common/errors.js';
import type { Executor as Db } from '../../db/queries/executor.js';
import type { Clock } from '../../services/context.js';
import { rateWindowsFor, type RateWindows } from '../../services/rate-windows.js';

type TierName = 'raw-key' | 'api-key' | 'organization';

interface Tier {
  name: TierName;
  limit: number;
  windowSeconds: number;
}

/**
 * The spec's three tiers, each a fixed window per key opened by its first request. The raw x-api-key tier is
 * counted before authentication so that guessing keys is throttled too. On PostgreSQL the windows are rows
 * every process counts (services/rate-windows.ts), so several servers share one allowance. Headers follow
 * the IETF RateLimit fields draft.
 */
export class RateLimits {
  private readonly tiers: Map<TierName, Tier>;
  private readonly windows: RateWindows;
  readonly policyHeader: string;

  constructor(
    private readonly config: Config['rateLimits'],
    db: Db,
    private readonly clock: Clock,
  ) {
    const tiers: Tier[] = [
      { name: 'raw-key', ...config.perRawKey },
      { name: 'api-key', ...config.perApiKey },
      { name: 'organization', ...config.perOrganization },
    ];
    this.tiers = new Map(tiers.map((tier) => [tier.name, tier]));
    this.windows = rateWindowsFor(db, 1000 * Math.max(...tiers.map((tier) => tier.windowSeconds)));
    this.policyHeader = tiers.map((tier) => `"${tier.name}";q=${tier.limit};w=${tier.windowSeconds}`).join(', ');
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /** Counts one request against a tier; sets the headers; throws rate_limited once the window is spent. */
  async consume(reply: FastifyReply, tierName: TierName, key: string): Promise<void> {
    if (!this.config.enabled) return;
    const tier = this.tiers.get(tierName);
    if (!tier) throw new Error(`unknown rate-limit tier ${tierName}`);
    reply.header('RateLimit-Policy', this.policyHeader);
    const now = this.clock.now().getTime();
    const windowMs = 1000 * tier.windowSeconds;
    const window = await this.windows.count(`${tierName}:${key}`, now, windowMs);
    const reset = Math.max(1, Math.ceil((window.windowStart + windowMs - now) / 1000));
    if (window.hits > tier.limit) {
      reply.header('RateLimit', `"${tier.name}";r=0;t=${reset}`);
      reply.header('Retry-After', String(reset));
      throw new DomainError('rate_limited', `too many requests (${tier.name} limit ${tier.limit} per ${tier.windowSeconds} s); retry in ${reset} s`);
    }
    this.setRemaining(reply, tier, tier.limit - window.hits, reset);
  }

  /** RateLimit names the tier closest to running out, as the draft asks for a single most relevant item. */
  private setRemaining(reply: FastifyReply, tier: Tier, remaining: number, reset: number) {
    const previous = reply.getHeader('RateLimit');
    const previousRemaining = typeof previous === 'string' ? Number(/;r=(\d+)/.exec(previous)?.[1] ?? Infinity) : Infinity;
    if (remaining <= previousRemaining) reply.header('RateLimit', `"${tier.name}";r=${remaining};t=${reset}`);
  }
}
