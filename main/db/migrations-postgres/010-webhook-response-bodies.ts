// PostgreSQL twin of migrations/010-webhook-response-bodies.ts (translation rules in index.ts).
// Webhook answers are no longer kept by default (issue 16): a receiver's response body is stored in the
// attempt's response_excerpt only for endpoints an administrator opted in, and only from public addresses.
export const webhookResponseBodies = `
ALTER TABLE webhook_endpoints ADD COLUMN store_response_body BIGINT NOT NULL DEFAULT 0 CHECK (store_response_body IN (0, 1));
`;
