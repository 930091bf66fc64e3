import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportAssembleResult, ExportBurnTask, PageCheck } from '../../main/common/export-tasks.js';
import { assemble } from '../../worker/burn-in/assemble.js';
import { burnPages } from '../../worker/burn-in/burn.js';
import { verify } from '../../worker/burn-in/verify.js';
import { pageContent } from '../../worker/burn-in/vector/redact.js';
import { SETTINGS } from '../helpers/burn-producers.js';
import { tempDir } from '../helpers/instance.js';
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
  const source = { documentId: 5, path: path.join(dir, 'source.pdf'), documentType: 'pdf' as const };
  fs.writeFileSync(source.path, await pagePdf({ content: PAGE, resources: helvetica }));
  const start = 72 + (await helveticaWidth('Keepword ', 12));
  const task: ExportBurnTask = {
    kind: 'export-burn',
    exportId: 1,
    source,
    pages: [{ page: 1, boxes: [box(start - 0.5, 696, start + (await helveticaWidth('Secretword', 12)) + 0.5, 711)], words: null }],
    allPages: false,
    settings: SETTINGS,
    workPrefix: path.join(dir, 'work'),
  };
  const burned = await burnPages(task, () => undefined);
  output = path.join(dir, 'out.pdf');
  assembled = await assemble({ kind: 'export-assemble', exportId: 1, outputPath: output, cover: null, documents: [{ source, pageCount: burned.pageCount, burned: burned.pages }], settings: SETTINGS, workPrefix: task.workPrefix }, () => undefined);
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

describe('verification of the written file: a planted change outside the boxes is refused', () => {
  it('the correct output passes: the page redacted in its content, certified, nothing refused', async () => {
    expect(assembled.checks[0]?.certify?.method).toBe('vector');
    const result = await verified({ path: output, sha256: assembled.sha256, checks: assembled.checks });
    expect(result.refused).toBeUndefined();
    expect(result.verification.certificates?.[0]?.passed).toBe(true);
  }, 60_000);

  it('a line far from the box erased: refused for its words and its pixels', async () => {
    const result = await verified(await planted('erased.pdf', (content) => content.replace(/\(Farline stays here\) ?Tj/u, '')));
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]).toMatchObject({ documentId: 5, page: 1 });
    expect(result.refused?.[0]?.reason).toMatch(/^the rewritten page failed its check: .*word\(s\) outside the drawn areas are missing/u);
    expect(result.refused?.[0]?.reason).toMatch(/pixel\(s\) outside the drawn areas differ/u);
    expect(result.verification.certificates?.[0]?.passed).toBe(false);
  }, 60_000);

  it('a line far from the box moved by 3 points: refused', async () => {
    const result = await verified(await planted('moved.pdf', (content) => content.replace(/72 300 Td/u, '75 300 Td')));
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]?.reason).toMatch(/pixel\(s\) outside the drawn areas differ/u);
  }, 60_000);

  it('one glyph far from the box changed (an "e" to an "c"): refused by its pixels', async () => {
    const result = await verified(await planted('glyph.pdf', (content) => content.replace('(Farline stays here)', '(Farline stays herc)')));
    expect(result.refused).toHaveLength(1);
    expect(result.refused?.[0]?.reason).toMatch(/outside the drawn areas/u);
  }, 60_000);
});
