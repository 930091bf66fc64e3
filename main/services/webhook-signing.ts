import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the spec asks for 24 to 64). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The three Standard Webhooks headers. Each secret adds one `v1,<signature>` entry, space-separated, so
 * during a rotation's overlap a receiver holding either the old or the new secret can verify.
 */
export function signWebhook(secrets: readonly string[], webhookId: string, at: Date, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('a webhook needs at least one secret to be signed');
  const signatures = secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body));
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
