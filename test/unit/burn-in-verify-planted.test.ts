import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportAssembleResult, PageCheck } from '../../main/common/export-tasks.js';
import { asRects, comparePage } from '../../worker/burn-in/fidelity/index.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { verify } from '../../worker/burn-in/verify.js';
import { pageContent } from '../../worker/burn-in/vector/redact.js';
import { burnedAndAssembled, SETTINGS } from '../helpers/burn-producers.js';
import { tempDir } from '../helpers/temp.js';
import { box, helvetica, helveticaWidth, pagePdf } from '../helpers/vector-pdfs.js';

// Issue 29: the two-way check ((b) words, (c) pixels) of a page redacted in its content runs once, on the written
// file. A written page that differs from its source outside the boxes (a change planted in an otherwise correct
// output, far from any box) must still be refused there: nothing before assembly vouches for it.

const MIDDLE = 'BT /F1 12 Tf 72 700 Td (Keepword Secretword) Tj ET';
const FAR = 'BT /F1 12 Tf 72 300 Td (Farline stays here) Tj ET';
const PAGE = `${MIDDLE} ${FAR}`;

let dir: string;
let output: string;
let assembled: ExportAssembleResult;

beforeAll(async () => {
  dir = tempDir('obscura-verify-planted-');
  const start = 72 + (await helveticaWidth('Keepword ', 12));
  const boxed = box(start - 0.5, 696, start + (await helveticaWidth('Secretword', 12)) + 0.5, 711);
  ({ outputPath: output, assembled } = await burnedAndAssembled(dir, await pagePdf({ content: PAGE, resources: helvetica }), new Map([[1, [boxed]]]), SETTINGS, 5));
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The written file with its page's content changed by `plant`, saved beside it; the checks are the assembly's. */
async function planted(name: string, plant: (content: string) => string): Promise<{ path: string; sha256: string; checks: PageCheck[] }> {
  const doc = await PDFDocument.load(fs.readFileSync(output));
  const before = Buffer.from(pageContent(doc, 0)).toString('latin1');
  const after = plant(before);
  expect(after).not.toBe(before);
  doc.getPage(0).node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(Buffer.from(after, 'latin1'))));
  const bytes = await doc.save();
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), checks: assembled.checks };
}

async function verified(file: { path: string; sha256: string; checks: PageCheck[] }) {
  return verify({ kind: 'export-verify', exportId: 1, path: file.path, sha256: file.sha256, expectedPages: 1, checks: file.checks, structure: false });
}

/** The two-way check of the file's page against its source, as verification runs it: where (c) compared pixels. */
async function compared(file: string) {
  const [source, written] = await Promise.all([fs.readFileSync(path.join(dir, 'source.pdf')), fs.readFileSync(file)].map((bytes) => openPdf(new Uint8Array(bytes))));
  try {
    const [sourcePage, outputPage] = await Promise.all([source!.getPage(1), written!.getPage(1)]);
    return await comparePage({ source: { document: source!, page: sourcePage }, output: { document: written!, page: outputPage }, drawn: asRects(assembled.checks[0]?.certify?.drawn ?? []), kind: 'vector' });
  } finally {
    await Promise.all([source?.destroy(), written?.destroy()]);
  }
}

/** Pixels of the whole page at the comparison's 100 dpi (US Letter). */
const WHOLE_PAGE = Math.ceil((612 * 100) / 72) * Math.ceil((792 * 100) / 72);

describe('verification of the written file: a planted change outside the boxes is refused', () => {
  it('the correct output passes: the page redacted in its content, certified, nothing refused', async () => {
    expect(assembled.checks[0]?.certify?.method).toBe('vector');
    const result = await verified({ path: output, sha256: assembled.sha256, checks: assembled.checks });
    expect(result.refused).toBeUndefined();
    expect(result.verification.certificates?.[0]?.passed).toBe(true);
    // Proven equal outside what changed: pixels compared in tiles around the box, not over the page.
    const comparison = await compared(output);
    expect(comparison.scope).toEqual({ tiles: 1, reason: null });
    expect(comparison.pixels.compared).toBeGreaterThan(0);
    expect(comparison.pixels.compared).toBeLessThan(WHOLE_PAGE / 20);
    expect(result.verification.certificates?.[0]?.pixels_compared).toBe(comparison.pixels.compared);
  }, 60_000);

  it('a line far from the box erased: refused for its words and its pixels', async () => {
    const result = await verified(await planted('erased.pdf', (content) => content.replace(/\(Farline stays here\) ?Tj/u, '')));
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]).toMatchObject({ documentId: 5, page: 1 });
    expect(result.refused?.[0]?.reason).toMatch(/^the rewritten page failed its check: .*word\(s\) outside the drawn areas are missing/u);
    expect(result.refused?.[0]?.reason).toMatch(/pixel\(s\) outside the drawn areas differ/u);
    expect(result.verification.certificates?.[0]?.passed).toBe(false);
  }, 60_000);

  it('a line far from the box moved by 3 points: no structural proof, the whole page compared, refused', async () => {
    const file = await planted('moved.pdf', (content) => content.replace(/72 300 Td/u, '75 300 Td'));
    const result = await verified(file);
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]?.reason).toMatch(/pixel\(s\) outside the drawn areas differ/u);
    const comparison = await compared(file.path);
    expect(comparison.scope.tiles).toBeNull();
    expect(comparison.scope.reason).toMatch(/differs/u);
    expect(comparison.pixels.compared).toBeGreaterThan(WHOLE_PAGE / 2);
  }, 60_000);

  // Changes the structural walk accepts as a builder's (a glyph removed with its advance kept, a black block drawn
  // after the content) are where pixels are compared: far from a box, they are refused by their tiles.
  it('a glyph far from the box removed with its advance kept: accepted by the walk, refused by its tile', async () => {
    const file = await planted('removed-far.pdf', (content) => content.replace(/\(Farline stays here\) ?Tj/u, '[(Farline stays h) -556 (re)] TJ'));
    const comparison = await compared(file.path);
    expect(comparison.scope).toEqual({ tiles: 2, reason: null });
    expect(comparison.problems.join('; ')).toMatch(/pixel\(s\) outside the drawn areas differ/u);
    const result = await verified(file);
    expect(result.refused).toHaveLength(1);
    expect(result.verification.certificates?.[0]?.passed).toBe(false);
  }, 60_000);

  it('an extra black rectangle drawn after the content, far from the box: accepted as a block, refused by its tile', async () => {
    const file = await planted('rectangle.pdf', (content) => `${content}q 0 g 400 500 30 20 re f Q\n`);
    const comparison = await compared(file.path);
    expect(comparison.scope).toEqual({ tiles: 2, reason: null });
    expect(comparison.pixels.differing).toBeGreaterThan(500);
    const result = await verified(file);
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]?.reason).toMatch(/pixel\(s\) outside the drawn areas differ .*between x 399\.\d/u);
  }, 60_000);

  it('an extra rectangle drawn inside the content (not after it): no structural proof, refused by the whole page', async () => {
    const file = await planted('inside.pdf', (content) => content.replace('BT', '0 g 400 500 30 20 re f BT'));
    const comparison = await compared(file.path);
    expect(comparison.scope.tiles).toBeNull();
    const result = await verified(file);
    expect(result.refused).toHaveLength(1);
  }, 60_000);

  it('the page cropped otherwise, content untouched: no structural proof (the operators do not say what a page shows)', async () => {
    const doc = await PDFDocument.load(fs.readFileSync(output));
    doc.getPage(0).setCropBox(0, 0, 612, 400);
    const file = path.join(dir, 'cropped.pdf');
    fs.writeFileSync(file, await doc.save());
    const comparison = await compared(file);
    expect(comparison.scope).toEqual({ tiles: null, reason: 'the page boxes or rotation differ' });
  }, 60_000);

  it('the content not wrapped in its own q … Q before the blocks: no structural proof', async () => {
    const file = await planted('unwrapped.pdf', (content) => content.replace(/^q\n/u, '').replace(/\nQ\n(q 0 g)/u, '\n$1'));
    const comparison = await compared(file.path);
    expect(comparison.scope.tiles).toBeNull();
  }, 60_000);

  // The rewriting's own read-back (rewrite-check.ts) runs here too, once, on the written file; the burn no longer
  // reads its pages back before assembly. A page failing it is refused (rendered), as the burn once did itself.
  it('the withheld word drawn again under its box: refused by the read-back of the rewriting, before the leak check fails it', async () => {
    const start = 72 + (await helveticaWidth('Keepword ', 12));
    const file = await planted('put-back.pdf', (content) => `${content}BT /F1 12 Tf ${start} 700 Td (Secretword) Tj ET\n`);
    const result = await verified(file);
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]).toMatchObject({ documentId: 5, page: 1 });
    expect(result.refused?.[0]?.reason).toBe('the rewritten page failed its check: 1 word(s) that lay under a box are still in its text; text still lies under a box');
    // Without the rewriting's lists the same file fails outright: the independent leak check (release-check).
    const unchecked = file.checks.map(({ rewriting: _, ...check }) => check);
    await expect(verified({ ...file, checks: unchecked })).rejects.toThrow(/text that lay under a redaction or was hidden in the source is still in document 5 page 1/u);
  }, 60_000);

  it('one glyph far from the box changed (an "e" to an "c"): refused by its pixels', async () => {
    const result = await verified(await planted('glyph.pdf', (content) => content.replace('(Farline stays here)', '(Farline stays herc)')));
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]?.reason).toMatch(/outside the drawn areas/u);
  }, 60_000);
});
