/** `run` on the first call only; every call returns that first call's promise (stop() may be called more than once). */
export function once<T>(run: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | null = null;
  return () => (started ??= run());
}
