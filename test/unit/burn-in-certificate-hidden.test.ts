import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { shownWords } from '../../worker/burn-in/fidelity/index.js';
import { verify } from '../../worker/burn-in/verify.js';
import type { Glyph } from '../../worker/pdf-glyphs/index.js';
import type { SourceWord } from '../../worker/burn-in/words.js';
import { burnedAndAssembled } from '../helpers/burn-producers.js';
import { tempDir } from '../helpers/temp.js';
import { box, helvetica, helveticaWidth, pagePdf } from '../helpers/vector-pdfs.js';

// A page that holds text its viewer never shows (here a word under an opaque white rectangle) is rendered, and the
// release drops that text on purpose. Its certificate's (b) looks for the words a viewer shows: the covered word
// is not "missing", so a correct page is not certified as failed; the words that show are still looked for.

const dir = tempDir('obscura-certificate-hidden-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const CONTENT = [
  'BT /F1 12 Tf 72 700 Td (Keepword Secretword) Tj ET',
  'BT /F1 12 Tf 72 500 Td (Coveredword) Tj ET',
  '1 g 60 490 200 30 re f 0 g',
  'BT /F1 12 Tf 72 300 Td (Farline stays here) Tj ET',
].join(' ');

describe('page certificates of a page with hidden text', () => {
  it('a rendered page that drops only what its viewer never showed passes (b); the words that show were checked', async () => {
    const start = 72 + (await helveticaWidth('Keepword ', 12));
    const boxed = box(start - 0.5, 696, start + (await helveticaWidth('Secretword', 12)) + 0.5, 711);
    const { outputPath, assembled } = await burnedAndAssembled(dir, await pagePdf({ content: CONTENT, resources: helvetica }), new Map([[1, [boxed]]]));
    const result = await verify({ kind: 'export-verify', exportId: 1, path: outputPath, sha256: assembled.sha256, expectedPages: 1, checks: assembled.checks, structure: true });
    const [certificate] = result.verification.certificates ?? [];
    expect(certificate).toMatchObject({ method: 'raster', words_missing: 0, passed: true });
    expect(certificate?.fallback_reason).toContain('covered');
    // Keepword, Farline, stays, here: looked for and found; Coveredword not looked for.
    expect(certificate?.words_outside_checked).toBe(4);
  }, 60_000);

  it('shownWords keeps a word with a glyph that shows, drops one whose glyphs are all hidden, and keeps every word of a page without hidden glyphs', () => {
    const word = (text: string, x1: number, y1: number): SourceWord => ({ text, x1, y1, x2: x1 + 40, y2: y1 + 12, slackX: 1, slackY: 0.2 });
    const glyph = (x: number, y: number, hiddenBy: Glyph['hiddenBy'], overImage = false): Glyph => ({
      text: 'a', bytes: 'a', quad: [x, y, x + 6, y, x + 6, y + 10, x, y + 10], x1: x, y1: y, x2: x + 6, y2: y + 10, emSpan: null,
      vertical: false, isSpace: false, hiddenBy, overImage, annotation: false,
    });
    const shown = word('shown', 100, 500);
    const covered = word('covered', 100, 300);
    const layer = word('layer', 100, 100);
    const glyphs = [glyph(110, 501, null), glyph(110, 301, 'covered'), glyph(110, 101, 'invisible', true)];
    // An OCR layer over the page's own picture counts as shown (the rendered page carries it again).
    expect(shownWords([shown, covered, layer], glyphs)).toEqual([shown, layer]);
    expect(shownWords([shown, covered], [glyph(110, 501, null), glyph(110, 301, null)])).toEqual([shown, covered]);
  });
});
