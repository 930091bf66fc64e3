/** Who is acting, for scoping, audit records and events. */
export interface Actor {
  type: 'api_key' | 'user' | 'system' | 'upload_url';
  id: string;
  organizationId: number;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface ServiceContext {
  actor: Actor;
  requestId: string | null;
  clock: Clock;
}

export function isoNow(ctx: { clock: Clock }): string {
  return ctx.clock.now().toISOString();
}
