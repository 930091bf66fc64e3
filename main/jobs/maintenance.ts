import { deleteExpiredDownloadTokens } from '../db/queries/download-tokens.js';
import { deleteIdempotencyKeysBefore } from '../db/queries/idempotency-keys.js';
import { deleteFinishedDeliveriesBefore } from '../db/queries/webhook-deliveries.js';
import type { Runtime } from '../runtime.js';
import { transact } from '../db/transaction.js';

/**
 * Periodic clean-up: expired idempotency records (kept at least the configured hours), download tokens, and
 * webhook deliveries finished longer ago than their retention (with their attempts).
 */
export async function runMaintenance(runtime: Runtime): Promise<void> {
  const now = runtime.clock.now();
  const cutoff = new Date(now.getTime() - runtime.config.idempotencyRetentionHours * 3600_000).toISOString();
  await deleteIdempotencyKeysBefore(runtime.db, cutoff);
  await deleteExpiredDownloadTokens(runtime.db, now.toISOString());
  const { deliveryRetentionDays } = runtime.config.webhooks;
  if (deliveryRetentionDays > 0) {
    await transact(runtime.db, (trx) => deleteFinishedDeliveriesBefore(trx, new Date(now.getTime() - deliveryRetentionDays * 86_400_000).toISOString()));
  }
}

export function scheduleMaintenance(runtime: Runtime, intervalMs = 3600_000): () => void {
  const timer = setInterval(() => {
    runMaintenance(runtime).catch((error: unknown) => console.error('maintenance failed:', error));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
