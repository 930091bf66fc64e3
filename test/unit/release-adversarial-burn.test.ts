import { describe, expect, it } from 'vitest';
import { foldText } from '../../main/common/fold-text.js';
import { ADVERSARIAL_KINDS } from '../helpers/adversarial-pdfs.js';
import { popplerText, release, SETTINGS } from '../helpers/burn-producers.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { searchPdf, withheldOfPage } from '../../worker/release-check/index.js';

// Every adversarial kind (test/helpers/adversarial-pdfs.ts) released by the real burn-in and assembly with its
// plain-view secret boxed: the release check finds nothing, and poppler (which honours /ActualText) reads the
// secret no more often than the source shows it outside the box, and every kept word still.

type Kind = keyof typeof ADVERSARIAL_KINDS;

describe('adversarial inputs released by the builder pass the release check', () => {
  it.each(Object.keys(ADVERSARIAL_KINDS) as Kind[])('%s', async (kind) => {
    const pdf = await ADVERSARIAL_KINDS[kind]();
    const box = { ...pdf.box, points: [], label: null };
    const { bytes } = await release(pdf.bytes, new Map([[pdf.page, [box]]]), SETTINGS);
    const source = await openPdf(new Uint8Array(pdf.bytes));
    const withheld = await withheldOfPage(source, pdf.page, [box]).finally(() => source.destroy());
    const { leaks } = await searchPdf(bytes, [{ outputPage: pdf.page, withheld }]);
    expect(leaks).toEqual([]);
    const text = foldText(popplerText(bytes));
    // As often as the source shows it outside the box (a form field's value on the page), no more.
    const secret = foldText(pdf.secret);
    const allowance = withheld.find((entry) => foldText(entry.text) === secret)?.allowance ?? 0;
    expect(text.split(secret).length - 1).toBeLessThanOrEqual(allowance);
    for (const word of pdf.kept) expect(text, word).toContain(foldText(word));
  }, 180_000);
});
