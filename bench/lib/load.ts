import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadStats {
  /** Completed 2xx responses per second over the measured window. */
  rps: number;
  /** Latency percentiles in milliseconds, exact (from every 2xx response time, not a bucketed histogram). */
  p50: number;
  p99: number;
  p999: number;
  mean: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
}

/** One autocannon run; latencies are collected per response so sub-millisecond percentiles are exact. */
export function runLoad(options: LoadOptions): Promise<LoadStats> {
  return new Promise((resolve, reject) => {
    let times = new Float64Array(1 << 18);
    let count = 0;
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        pipelining: 1,
        timeout: 10,
        ...(options.headers && { headers: options.headers }),
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        const sorted = times.subarray(0, count).sort();
        const at = (q: number) => (count === 0 ? Number.NaN : (sorted[Math.min(count - 1, Math.ceil(q * count) - 1)] ?? Number.NaN));
        let sum = 0;
        for (const value of sorted) sum += value;
        const seconds = Math.min(elapsed, result.duration || elapsed);
        resolve({
          rps: count / seconds,
          p50: at(0.5),
          p99: at(0.99),
          p999: at(0.999),
          mean: count === 0 ? Number.NaN : sum / count,
          max: count === 0 ? Number.NaN : (sorted[count - 1] ?? Number.NaN),
          ok: count,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          seconds,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode < 200 || statusCode >= 300) return;
      if (count === times.length) {
        const grown = new Float64Array(times.length * 2);
        grown.set(times);
        times = grown;
      }
      times[count++] = responseTime;
    });
  });
}
