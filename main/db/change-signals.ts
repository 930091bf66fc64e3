/**
 * Counters bumped by every write to a table whose rows other layers cache. The main process is the only
 * database writer, so an in-process counter is enough to invalidate those caches at once.
 */
let credentialsEpoch = 0;

/** Called by the query functions that write api_keys or service_accounts. */
export function noteCredentialsChanged(): void {
  credentialsEpoch += 1;
}

export function currentCredentialsEpoch(): number {
  return credentialsEpoch;
}

let casesEpoch = 0;

/** Called by the query functions that write `cases`, after the write has executed. */
export function noteCasesChanged(): void {
  casesEpoch += 1;
}

export function currentCasesEpoch(): number {
  return casesEpoch;
}

const jobsQueuedListeners = new Set<() => void>();

/** Called by the query functions that put a job into `queued`, so a scheduler starts it without polling. */
export function noteJobsQueued(): void {
  for (const listener of jobsQueuedListeners) listener();
}

/** Returns the unsubscribe function. Listeners run synchronously and must only schedule work. */
export function onJobsQueued(listener: () => void): () => void {
  jobsQueuedListeners.add(listener);
  return () => jobsQueuedListeners.delete(listener);
}
