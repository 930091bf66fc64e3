import { WorkerPool } from './pool.js';

// Services that answer a request with worker-thread work (the password probe and decryption, the page
// preview) use the instance's shared pool, handed over by serve.ts; a bare HTTP server (tests) gets one
// one-thread pool of its own, shared by all of them.
let shared: WorkerPool | null = null;
let own: WorkerPool | null = null;

export function useServicePool(pool: WorkerPool | null): void {
  shared = pool;
}

export function servicePool(): WorkerPool {
  if (shared) return shared;
  own ??= new WorkerPool(1);
  return own;
}
