import type { FastifyReply } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';
import { DomainError } from '../../common/errors.js';

type TierName = 'raw-key' | 'api-key' | 'organization';

interface Tier {
  name: TierName;
  limit: number;
  windowSeconds: number;
  limiter: RateLimiterMemory;
}

/**
 * The spec's three tiers, each a fixed window per key. The raw x-api-key tier is counted before
 * authentication so that guessing keys is throttled too. Headers follow the IETF RateLimit fields draft.
 */
export class RateLimits {
  private readonly tiers: Map<TierName, Tier>;
  readonly policyHeader: string;

  constructor(private readonly config: Config['rateLimits']) {
    const tiers: Tier[] = [
      { name: 'raw-key', ...config.perRawKey, limiter: new RateLimiterMemory({ points: config.perRawKey.limit, duration: config.perRawKey.windowSeconds }) },
      { name: 'api-key', ...config.perApiKey, limiter: new RateLimiterMemory({ points: config.perApiKey.limit, duration: config.perApiKey.windowSeconds }) },
      {
        name: 'organization',
        ...config.perOrganization,
        limiter: new RateLimiterMemory({ points: config.perOrganization.limit, duration: config.perOrganization.windowSeconds }),
      },
    ];
    this.tiers = new Map(tiers.map((tier) => [tier.name, tier]));
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
    try {
      const result = await tier.limiter.consume(`${tierName}:${key}`);
      this.setRemaining(reply, tier, result);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      reply.header('RateLimit', `"${tier.name}";r=0;t=${retryAfter}`);
      reply.header('Retry-After', String(retryAfter));
      throw new DomainError('rate_limited', `too many requests (${tier.name} limit ${tier.limit} per ${tier.windowSeconds} s); retry in ${retryAfter} s`);
    }
  }

  /** RateLimit names the tier closest to running out, as the draft asks for a single most relevant item. */
  private setRemaining(reply: FastifyReply, tier: Tier, result: RateLimiterRes) {
    const remaining = result.remainingPoints;
    const reset = Math.max(0, Math.ceil(result.msBeforeNext / 1000));
    const previous = reply.getHeader('RateLimit');
    const previousRemaining = typeof previous === 'string' ? Number(/;r=(\d+)/.exec(previous)?.[1] ?? Infinity) : Infinity;
    if (remaining <= previousRemaining) reply.header('RateLimit', `"${tier.name}";r=${remaining};t=${reset}`);
  }
}
