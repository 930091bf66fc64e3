import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflatedSize } from '../../worker/limits.js';

// The decompression count before pdf.js sees a file: small streams are inflated at once on the thread, large
// ones streamed; both count the same, stop past the cap, and count a damaged stream as far as it inflates.

describe('inflatedSize', () => {
  const zeros = (bytes: number) => deflateSync(Buffer.alloc(bytes), { level: 9 });

  it('counts a small stream exactly, and one past the cap as over it', async () => {
    const small = zeros(5_000_000);
    expect(small.length).toBeLessThan(64 * 1024);
    expect(await inflatedSize(small, 10_000_000)).toBe(5_000_000);
    expect(await inflatedSize(small, 1_000_000)).toBeGreaterThan(1_000_000);
    expect(await inflatedSize(small, 5_000_000)).toBe(5_000_000);
  });

  it('counts a large stream by streaming, the same way', async () => {
    const noise = randomBytes(200_000);
    const large = deflateSync(noise, { level: 0 });
    expect(large.length).toBeGreaterThan(64 * 1024);
    expect(await inflatedSize(large, 10_000_000)).toBe(200_000);
    expect(await inflatedSize(large, 100_000)).toBeGreaterThan(100_000);
  });

  it('counts a damaged or cut stream as far as it inflates, small or large', async () => {
    const text = Buffer.from('BT /F1 12 Tf 72 700 Td (hello) Tj ET\n'.repeat(2000));
    const whole = deflateSync(text);
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    const partial = await inflatedSize(cut, 10_000_000);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(text.length);
    const damaged = Buffer.from(whole);
    damaged.fill(0xff, 40, 60);
    const counted = await inflatedSize(damaged, 10_000_000);
    expect(counted).toBeGreaterThanOrEqual(0);
    expect(counted).toBeLessThanOrEqual(text.length);
    expect(await inflatedSize(Buffer.alloc(0), 10)).toBe(0);
  });
});
