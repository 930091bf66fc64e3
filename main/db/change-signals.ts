import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Counters bumped by every write to a table whose rows other layers cache. The main process is the only
 * database writer, so an in-process counter is enough to invalidate those caches at once.
 */
/**
 * On PostgreSQL a listener's own query runs on another connection, so a signal sent before the writing
 * transaction commits would make it read the old rows. Inside afterCommit() (transact() on PostgreSQL),
 * signals are held and delivered once the transaction has ended; elsewhere they go out at once.
 */
const held = new AsyncLocalStorage<(() => void)[]>();

function emit(deliver: () => void): void {
  const queue = held.getStore();
  if (queue) queue.push(deliver);
  else deliver();
}

export async function afterCommit<T>(run: () => Promise<T>): Promise<T> {
  const queue: (() => void)[] = [];
  try {
    return await held.run(queue, run);
  } finally {
    for (const deliver of queue) deliver();
  }
}

let credentialsEpoch = 0;

/** Called by the query functions that write api_keys or service_accounts. */
export function noteCredentialsChanged(): void {
  // Bumped now and again after commit: rows cached while the transaction was open are stale too.
  credentialsEpoch += 1;
  if (held.getStore()) emit(() => (credentialsEpoch += 1));
}

export function currentCredentialsEpoch(): number {
  return credentialsEpoch;
}

let casesEpoch = 0;

/** Called by the query functions that write `cases`, after the write has executed. */
export function noteCasesChanged(): void {
  casesEpoch += 1;
  if (held.getStore()) emit(() => (casesEpoch += 1));
}

export function currentCasesEpoch(): number {
  return casesEpoch;
}

const jobsQueuedListeners = new Set<() => void>();

/** Called by the query functions that put a job into `queued`, so a scheduler starts it without polling. */
export function noteJobsQueued(): void {
  emit(() => {
    for (const listener of jobsQueuedListeners) listener();
  });
}

/** Returns the unsubscribe function. Listeners run synchronously and must only schedule work. */
export function onJobsQueued(listener: () => void): () => void {
  jobsQueuedListeners.add(listener);
  return () => jobsQueuedListeners.delete(listener);
}

const exportsChangedListeners = new Set<(exportId: number) => void>();

/** Called by the query functions that change an export's status (queued, cancelled), so the runner reacts at once. */
export function noteExportChanged(exportId: number): void {
  emit(() => {
    for (const listener of exportsChangedListeners) listener(exportId);
  });
}

/** Returns the unsubscribe function. Listeners run synchronously and must only schedule work. */
export function onExportChanged(listener: (exportId: number) => void): () => void {
  exportsChangedListeners.add(listener);
  return () => exportsChangedListeners.delete(listener);
}

const jobsSettledListeners = new Set<(jobId: number) => void>();

/** Called by the query functions that move a job to completed or failed, so a waiter reacts without polling. */
export function noteJobSettled(jobId: number): void {
  emit(() => {
    for (const listener of jobsSettledListeners) listener(jobId);
  });
}

/** Returns the unsubscribe function. Listeners run synchronously and must only schedule work. */
export function onJobSettled(listener: (jobId: number) => void): () => void {
  jobsSettledListeners.add(listener);
  return () => jobsSettledListeners.delete(listener);
}

const watchedFoldersListeners = new Set<() => void>();

/** Called by the query functions that change a watched folder's settings, so its runner restarts with them. */
export function noteWatchedFoldersChanged(): void {
  emit(() => {
    for (const listener of watchedFoldersListeners) listener();
  });
}

/** Returns the unsubscribe function. Listeners run synchronously and must only schedule work. */
export function onWatchedFoldersChanged(listener: () => void): () => void {
  watchedFoldersListeners.add(listener);
  return () => watchedFoldersListeners.delete(listener);
}
