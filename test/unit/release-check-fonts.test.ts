import { describe, expect, it } from 'vitest';
import { bboxWords, popplerText, release, SETTINGS } from '../helpers/burn-producers.js';
import { qpdfExpanded } from '../helpers/pdf-tools.js';
import { libreOfficeFile } from '../helpers/office-fixtures.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { searchPdf, withheldOfPage } from '../../worker/release-check/index.js';

// A font program is not document text: LibreOffice embeds DejaVu with its licence ("… WHETHER IN AN ACTION OF
// CONTRACT …") in the font's name table. Boxing "whether" in such a document must not fail the release check
// on the licence, while the page text and every other place are still searched.

describe('font programs in the release check', () => {
  it('a word of the embedded font’s licence, boxed on the page, passes; the page text still fails when it leaks', async () => {
    const source = libreOfficeFile('minutes.txt', 'Members asked whether the quotation included haulage.\n\nThe meeting closed at nine.', 'pdf:writer_pdf_Export');
    expect(qpdfExpanded(source)).toMatch(/WHETHER/);
    const word = bboxWords(source).find((entry) => entry.text === 'whether');
    if (!word) throw new Error('pdftotext reads no "whether"');
    const box = { ...word, points: [], label: null };
    const document = await openPdf(new Uint8Array(source));
    const withheld = await withheldOfPage(document, 1, [box]).finally(() => document.destroy());
    expect(withheld).toEqual([{ text: 'whether', allowance: 0 }]);
    const { bytes } = await release(source, new Map([[1, [box]]]), SETTINGS);
    expect(qpdfExpanded(bytes)).toMatch(/WHETHER/);
    expect(popplerText(bytes)).not.toMatch(/whether/i);
    expect((await searchPdf(bytes, [{ outputPage: 1, withheld }])).leaks).toEqual([]);
    // The source itself, released as is, still fails: on its page text.
    const { leaks } = await searchPdf(source, [{ outputPage: 1, withheld }]);
    expect(leaks.map((leak) => leak.place)).toEqual(expect.arrayContaining(['page-text']));
  }, 180_000);
});
