import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { READ_WHOLE, WRITE_WHOLE } from '../../worker/pdf-lib-load.js';

// A worker thread runs one task at a time: pdf-lib's pauses for a timer (every 100 objects read, 50 written) only
// leave it idle. With timers frozen, reading and writing as the worker does must still finish; pdf-lib's own
// defaults (the control) must not, or this test proves nothing.

afterEach(() => {
  vi.useRealTimers();
});

/** Whether the promise settles while only microtasks run (timers frozen). */
async function settlesWithoutTimers(work: Promise<unknown>): Promise<boolean> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 10_000 && !settled; turn += 1) await Promise.resolve();
  return settled;
}

async function manyObjects(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let page = 0; page < 150; page += 1) document.addPage([200, 200]).drawText(`page ${page + 1}`, { x: 20, y: 100, size: 12 });
  return document.save({ useObjectStreams: false, ...WRITE_WHOLE });
}

describe('pdf-lib in worker tasks reads and writes without pausing for a timer', () => {
  it('loads and saves a file of several hundred objects with timers frozen; pdf-lib\'s defaults wait', async () => {
    const bytes = await manyObjects();
    vi.useFakeTimers();
    const loading = PDFDocument.load(bytes, { ...READ_WHOLE, updateMetadata: false });
    expect(await settlesWithoutTimers(loading)).toBe(true);
    const document = await loading;
    expect(document.getPageCount()).toBe(150);
    expect(await settlesWithoutTimers(document.save({ ...WRITE_WHOLE, useObjectStreams: true }))).toBe(true);
    // The control: the same work with pdf-lib's defaults stops at its first pause.
    expect(await settlesWithoutTimers(PDFDocument.load(bytes, { updateMetadata: false }))).toBe(false);
    expect(await settlesWithoutTimers(document.save({ useObjectStreams: true }))).toBe(false);
  });
});
