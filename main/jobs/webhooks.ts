import type { Runtime } from '../runtime.js';
import {
  claimDelivery,
  fanOutOutbox,
  listDueDeliveries,
  recoverInterruptedDeliveries,
  settleAttempt,
  type ClaimedAttempt,
} from '../services/webhook-deliveries.js';
import { systemResolver, type HostResolver } from '../services/webhook-destinations.js';
import { signWebhook } from '../services/webhook-signing.js';
import { sendWebhook } from './webhook-sender.js';
import { transact } from '../db/transaction.js';

/** Outbox events fanned out per transaction. */
const FAN_OUT_BATCH = 200;
/** Attempts in flight at once, across endpoints; each endpoint has at most one. */
const MAX_IN_FLIGHT = 16;
const USER_AGENT = 'Obscura-Webhooks/1';

export interface WebhookDispatcherOptions {
  /** Host name resolution; tests replace it to name hosts without DNS. */
  resolve?: HostResolver;
}

/**
 * Delivers the outbox to webhook endpoints: fans new events out into delivery rows, sends due deliveries
 * (one at a time per endpoint, oldest due first), and records each attempt. State lives in the database,
 * so a restart continues where the last process stopped; the main process is the only writer.
 */
export class WebhookDispatcher {
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busyEndpoints = new Set<number>();
  private readonly shutdown = new AbortController();
  private readonly resolve: HostResolver;

  constructor(
    private readonly runtime: Runtime,
    options: WebhookDispatcherOptions = {},
  ) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Settles what a previous process left in flight, then polls every webhooks.pollIntervalMs. */
  async start(): Promise<void> {
    await this.recover();
    this.timer = setInterval(() => void this.poll(), this.runtime.config.webhooks.pollIntervalMs);
    this.timer.unref();
    void this.poll();
  }

  /** Attempts left `in_flight` by a dead process become `interrupted`; their deliveries are due now. */
  async recover(): Promise<number> {
    const { db, clock } = this.runtime;
    return transact(db, (trx) => recoverInterruptedDeliveries(trx, clock));
  }

  /** One pass: fan out new events, start due deliveries. Concurrent calls coalesce into one more pass. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.pass()
      .catch((error: unknown) => console.error('webhook dispatcher pass failed:', error))
      .finally(() => {
        this.polling = null;
        if (this.pollAgain) {
          this.pollAgain = false;
          void this.poll();
        }
      });
    return this.polling;
  }

  /** Resolves once no pass and no attempt is running. */
  async idle(): Promise<void> {
    while (this.polling || this.inFlight.size > 0) {
      await Promise.all([this.polling, ...this.inFlight]);
    }
  }

  private async pass(): Promise<void> {
    const { db, clock } = this.runtime;
    while ((await transact(db, (trx) => fanOutOutbox(trx, clock, FAN_OUT_BATCH))) === FAN_OUT_BATCH) {
      if (this.stopped) return;
    }
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0 || this.stopped) return;
    // Fetch more than free slots: rows of endpoints already busy are skipped.
    const due = await listDueDeliveries(db, clock, free + this.busyEndpoints.size * 4 + 16);
    let started = 0;
    for (const delivery of due) {
      if (started >= free || this.stopped) break;
      if (this.busyEndpoints.has(delivery.endpoint_id)) continue;
      const claimed = await db.transaction().execute((trx) => claimDelivery(trx, clock, delivery));
      if (!claimed) continue;
      this.launch(claimed);
      started += 1;
    }
  }

  private launch(claimed: ClaimedAttempt): void {
    const { db, clock, config } = this.runtime;
    this.busyEndpoints.add(claimed.endpointId);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signWebhook(claimed.secrets, claimed.webhookId, claimed.startedAt, claimed.body),
    };
    const work = sendWebhook(
      { url: claimed.url, headers, body: claimed.body },
      {
        timeoutMs: config.webhooks.timeoutSeconds * 1000,
        maxRedirects: config.webhooks.maxRedirects,
        resolve: this.resolve,
        shutdown: this.shutdown.signal,
        keepResponseBody: claimed.storeResponseBody,
      },
    )
      .then((result) => transact(db, (trx) => settleAttempt(trx, clock, claimed, result, config.webhooks)))
      .catch((error: unknown) => console.error(`webhook delivery ${claimed.deliveryId} could not be settled:`, error))
      .finally(() => {
        this.inFlight.delete(work);
        this.busyEndpoints.delete(claimed.endpointId);
        // The endpoint is free again: its next due delivery need not wait for the timer.
        void this.poll();
      });
    this.inFlight.add(work);
  }

  /** Stops polling; attempts in flight are cut short and recorded `interrupted`, due again at the next start. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.shutdown.abort();
    await this.polling;
    await Promise.all([...this.inFlight]);
  }
}

export async function startWebhookDispatcher(runtime: Runtime, options: WebhookDispatcherOptions = {}): Promise<WebhookDispatcher> {
  const dispatcher = new WebhookDispatcher(runtime, options);
  await dispatcher.start();
  return dispatcher;
}
