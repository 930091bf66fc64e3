// Idempotency-Keys per attempt (docs/api.md, Idempotency). The server stores every answer it gives to a key,
// refusals (4xx) included, and refuses the key with another body. So a key lives exactly as long as one
// attempt: the same request sent again because no answer came back (network failure, 5xx, still running)
// reuses it and is applied at most once; any answer, or a changed request, starts a new attempt with a new key.
import { ApiError } from './errors.js';
import { newIdempotencyKey } from './http.js';

/** True when the server gave no final answer to the attempt, so retrying it must reuse its key. */
export function answerPending(failure: unknown): boolean {
  if (!(failure instanceof ApiError)) return true;
  if (failure.status === 0 || failure.status >= 500) return true;
  return failure.status === 409 && failure.code === 'conflict' && /still being processed/.test(failure.message);
}

export class AttemptKeys {
  private readonly attempts = new Map<string, { fingerprint: string; key: string }>();

  /** The key for sending `body` as the action `name`: the open attempt's when it is the same request, else a new one. */
  keyFor(name: string, body: unknown = null): string {
    const fingerprint = JSON.stringify(body) ?? '';
    const open = this.attempts.get(name);
    if (open && open.fingerprint === fingerprint) return open.key;
    const key = newIdempotencyKey();
    this.attempts.set(name, { fingerprint, key });
    return key;
  }

  /** Ends the attempt unless it is still waiting for an answer. */
  settle(name: string, failure?: unknown): void {
    if (failure === undefined || !answerPending(failure)) this.attempts.delete(name);
  }

  /** Sends once with the attempt's key and settles it by the outcome. */
  async send<T>(name: string, body: unknown, work: (key: string) => Promise<T>): Promise<T> {
    const key = this.keyFor(name, body);
    try {
      const result = await work(key);
      this.settle(name);
      return result;
    } catch (failure) {
      this.settle(name, failure);
      throw failure;
    }
  }
}
