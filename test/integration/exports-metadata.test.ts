import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIGURE_INFO, PHOTO_METADATA, pdftexWithFigures } from '../../bench/lib/producers.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { pdftotext, qpdfCheck, qpdfExpanded } from '../helpers/pdf-tools.js';
import { findWord, popplerWords, withoutSafeguards } from '../helpers/fidelity-support.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { createBoxes } from '../helpers/v1-redactions-support.js';

// Metadata nested in the pages that stay: pdfTeX's /PTEX.InfoDict (the included figure's Author and Title) and
// /PTEX.FileName, and EXIF/GPS, XMP, Photoshop/IPTC and comment segments in a kept JPEG. The source is made by
// pdfTeX at test time; the output is read by qpdf (every stream decompressed). Needs npm run build:main.

function hexForms(text: string): string[] {
  const latin = Buffer.from(text, 'latin1').toString('hex');
  const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), ...[...text].map((char) => Buffer.from([0, char.charCodeAt(0)]))]).toString('hex');
  return [text, latin, latin.toUpperCase(), utf16, utf16.toUpperCase()];
}

describe('exports strip metadata nested in kept pages', () => {
  let harness: Harness;
  let source: Buffer;

  beforeAll(async () => {
    harness = await startExportHarness();
    await withoutSafeguards(harness.instance);
    source = await pdftexWithFigures(['Alpha Hiddenword Omega stays here.', 'A second line that stays.']);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('the pdfTeX source really carries the metadata (the test can fail)', () => {
    const expanded = qpdfExpanded(source);
    expect(expanded).toContain('/PTEX.InfoDict');
    for (const value of Object.values(PHOTO_METADATA)) expect(expanded).toContain(value);
    expect(hexForms(FIGURE_INFO.author).some((form) => expanded.includes(form))).toBe(true);
  });

  /** One export of the source twice: once with a box (rewritten in its content), once without (copied). */
  async function exportBoth() {
    const { instance } = harness;
    const caseId = await createCase(instance, 'Nested metadata');
    const [redacted] = await uploadDocuments(instance, caseId, [
      { name: 'redacted.pdf', bytes: source },
      { name: 'copied.pdf', bytes: source },
    ]);
    const word = findWord(popplerWords(source), 'Hiddenword');
    await createBoxes(instance, redacted?.id ?? '', [{ kind: 'rectangle', layer: 'B6', coordinates: { page: 1, units: 'pdf_points', box: { x1: word.x1 - 0.5, y1: word.y1 - 0.5, x2: word.x2 + 0.5, y2: word.y2 + 0.5 } } }]);
    const { exported, bytes } = await exportFile(instance, { case_id: caseId, options: { labels: false } });
    expect(qpdfCheck(bytes)).toMatch(/No syntax or stream encoding errors/);
    // Both pages come from the source's objects (one rewritten, one as it was): the figure and the photo travel.
    expect(exported.summary?.burn?.vector_pages).toBe(1);
    const text = pdftotext(bytes);
    // The second document had no box: its copy of the word stays, the first one's is gone.
    expect(text.match(/Hiddenword/g)?.length).toBe(1);
    expect(text.match(/Alpha/g)?.length).toBe(2);
    return qpdfExpanded(bytes);
  }

  let expanded: Promise<string> | null = null;
  const released = () => (expanded ??= exportBoth());

  it('pdfTeX /PTEX.* keys (the included figure\'s InfoDict with Author and Title, its file name) are gone', async () => {
    const output = await released();
    expect(output).not.toMatch(/\/PTEX\./);
    for (const value of [FIGURE_INFO.author, FIGURE_INFO.title]) for (const form of hexForms(value)) expect(output.includes(form), `${value} as ${form}`).toBe(false);
    // The figure itself is still drawn (its form XObject stays).
    expect(output).toMatch(/\/Subtype \/Form/);
  }, 120_000);

  it('a kept JPEG loses EXIF/GPS, XMP, Photoshop/IPTC and comment segments and keeps JFIF', async () => {
    const output = await released();
    for (const [kind, value] of Object.entries(PHOTO_METADATA)) expect(output.includes(value), `${kind} segment`).toBe(false);
    expect(output).not.toContain('http://ns.adobe.com/xap/1.0/');
    expect(output).not.toContain('Photoshop 3.0');
    expect(output).not.toMatch(/Exif\0\0/);
    expect(output.match(/\/DCTDecode/g)?.length).toBeGreaterThanOrEqual(1);
    expect(output).toContain('JFIF');
  }, 120_000);
});
