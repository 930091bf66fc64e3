import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPdf } from '../../bench/lib/producers.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext } from '../helpers/pdf-tools.js';
import { findWord, popplerWords, withoutSafeguards, type BoxedWord } from '../helpers/fidelity-support.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { createBoxes } from '../helpers/v1-redactions-support.js';

// Rendered pages keep their words in an invisible text layer. The layer's font is a glyphless CID font with a
// ToUnicode map, so Japanese, Chinese, Arabic, Turkish İ/Ş and € survive (Helvetica made them "?"). The source
// is printed by Chromium at test time; poppler reads both files. Needs npm run build:main.

const LINES = ['Japanese 東京都の公文書 records', 'Chinese 政府信息公开 申请', 'Arabic مرحبا بالعالم here', 'Turkish İstanbul Şişli Ilgaz', 'Amount € 250 Boxedword end'];
const HTML = `<!doctype html><html><head><meta charset="utf-8"><style>body{font:16px 'Noto Sans','Noto Sans CJK JP','Noto Sans Arabic',sans-serif;margin:60px} p{margin:0 0 18px}</style></head><body>${LINES.map((line) => `<p>${line}</p>`).join('')}</body></html>`;

/**
 * The output word stands where the source word does: along the line within 1.5 pt (a word drawn in two fonts,
 * like Chromium's Şişli, has its width estimated; poppler may split a source
 * word where its font changes, so the output word may span several), across it inside the source's box
 * (poppler's boxes span the font's own ascent and descent, which differ between the two fonts).
 */
function near(output: BoxedWord, source: BoxedWord): boolean {
  const middle = (output.y1 + output.y2) / 2;
  // poppler's -bbox gives a right-to-left word in the order its glyphs are drawn: the source draws Arabic in visual
  // order, the layer in reading order (from the right edge leftwards); either order stands for the same word.
  const reversed = Array.from(source.text).reverse().join('');
  return (output.text.includes(source.text) || (/[\u0590-\u08ff]/u.test(source.text) && output.text.includes(reversed))) && output.x1 <= source.x1 + 1.5 && output.x2 >= source.x2 - 1.5 && output.x2 - output.x1 <= source.x2 - source.x1 + 2 + (output.text.length - source.text.length) * 20 && middle > source.y1 && middle < source.y2;
}

describe('the invisible text layer of rendered pages is Unicode', () => {
  let harness: Harness;
  let source: Buffer;

  beforeAll(async () => {
    harness = await startExportHarness();
    await withoutSafeguards(harness.instance);
    source = await chromiumPdf(HTML);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('CJK, Arabic, Turkish and € words come back from pdftotext with their text and place', async () => {
    const { instance } = harness;
    const caseId = await createCase(instance, 'Unicode layer');
    const [document] = await uploadDocuments(instance, caseId, [{ name: 'multilingual.pdf', bytes: source }]);
    const sourceWords = popplerWords(source);
    const boxed = findWord(sourceWords, 'Boxedword');
    await createBoxes(instance, document?.id ?? '', [{ kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: { x1: boxed.x1 - 0.5, y1: boxed.y1, x2: boxed.x2 + 0.5, y2: boxed.y2 } } }]);
    const { exported, bytes } = await exportFile(instance, { case_id: caseId, options: { method: 'raster' } });
    expect(exported.summary?.burn?.raster_pages).toBe(1);
    const text = pdftotext(bytes);
    expect(text).not.toContain('Boxedword');
    expect(text).not.toContain('?');
    for (const expected of ['東京都の公文書', '政府信息公开', '申请', 'مرحبا', 'بالعالم', 'İstanbul', 'Şişli', 'Amount', '€']) expect(text, expected).toContain(expected);
    const outputWords = popplerWords(bytes);
    const misplaced: string[] = [];
    // Words beside the box may be withheld from the layer when their estimated extent reaches it; the rest
    // must stand where poppler finds them in the source.
    const lastLine = boxed.y1;
    for (const word of sourceWords.filter((entry) => entry.y1 > lastLine + 5)) {
      const match = outputWords.find((candidate) => near(candidate, word));
      if (!match) misplaced.push(`${word.text} ${JSON.stringify(outputWords.find((candidate) => candidate.text.includes(word.text)) ?? null)} vs ${JSON.stringify(word)} among ${outputWords.map((candidate) => candidate.text).join(' ')}`);
    }
    expect(misplaced).toEqual([]);
  }, 120_000);
});
