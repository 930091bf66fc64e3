import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { ADVERSARIAL_KINDS, latex, REAL_VERTICAL_PDF, verticalTextBox, type AdversarialPdf } from '../helpers/adversarial-pdfs.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { searchPdf, withheldOfPage, type Withheld } from '../../worker/release-check/index.js';

// The release check's reading of files no one on the team wrote the bytes of (test/helpers/adversarial-pdfs.ts:
// LuaLaTeX, pdfTeX, Chromium, tesseract): the withheld strings it takes from each source, glyph by glyph, under
// the box an independent reader placed; and that the source itself, released as is, fails.

async function withheldOf(pdf: AdversarialPdf): Promise<Withheld[]> {
  const document = await openPdf(new Uint8Array(pdf.bytes));
  try {
    return await withheldOfPage(document, pdf.page, [pdf.box]);
  } finally {
    await document.destroy();
  }
}

const allowanceOf = (withheld: readonly Withheld[], text: string) => withheld.find((entry) => entry.text === text)?.allowance;

type Kind = keyof typeof ADVERSARIAL_KINDS;

/** Kinds whose boxed secret the source draws nowhere else in view (allowance 0), and how the check folds it. */
const SECRET_ONLY_UNDER_THE_BOX: Kind[] = ['vertical-cjk', 'mailto-link', 'actual-text', 'ocr-layer', 'invisible-text', 'outline-title', 'hidden-layer', 'outside-crop-box', 'under-fill', 'link-uri'];

describe('withheld strings read from real producers’ files', () => {
  it.each(SECRET_ONLY_UNDER_THE_BOX)('%s: the boxed secret, with no allowance', async (kind) => {
    const pdf = await ADVERSARIAL_KINDS[kind]();
    const withheld = await withheldOf(pdf);
    expect(allowanceOf(withheld, pdf.secret.toLowerCase()), JSON.stringify(withheld)).toBe(0);
  });

  it('vertical CJK: the four glyphs of the column under the box, nothing of the glyphs above or below', async () => {
    const pdf = await ADVERSARIAL_KINDS['vertical-cjk']();
    expect((await withheldOf(pdf)).map((entry) => entry.text)).toEqual(['山田花子']);
  });

  it.skipIf(!fs.existsSync(REAL_VERTICAL_PDF))('real vertical Japanese (issue6387.pdf): a box over イーハトーヴォ in the first column withholds just that, allowed once per other column', async () => {
    const bytes = fs.readFileSync(REAL_VERTICAL_PDF);
    const box = verticalTextBox(bytes, 'イーハトーヴォ');
    expect(await withheldOf({ bytes, secret: 'イーハトーヴォ', kept: [], page: 1, box, hidden: [] })).toEqual([{ text: 'イーハトーヴォ', allowance: 8 }]);
  });

  it('a filled form field: its value is shown on the page outside the box, so the name is allowed once', async () => {
    const pdf = await ADVERSARIAL_KINDS['form-fields']();
    expect(allowanceOf(await withheldOf(pdf), 'vashti')).toBe(1);
  });

  it.each([
    ['hidden-layer', ['reviewer', 'note:', 'prior', 'conviction.']],
    ['outside-crop-box', ['outside', 'lives', 'shelter.']],
    ['invisible-text', ['prior', 'conviction.']],
  ] as [Kind, string[]][])('%s: the hidden words are withheld too', async (kind, words) => {
    const withheld = await withheldOf(await ADVERSARIAL_KINDS[kind]());
    for (const word of words) expect(allowanceOf(withheld, word), word).toBe(0);
  });

  // The image's data reaches pdf.js's object store after the operator list; the reader waits for it to learn
  // that the PNG has no alpha channel, so the copy under it is covered and gives the boxed name no allowance.
  it('under-image: the copy under the opaque PNG is hidden (covered), so the boxed secret has no allowance', async () => {
    const pdf = await ADVERSARIAL_KINDS['under-image']();
    expect(allowanceOf(await withheldOf(pdf), pdf.secret.toLowerCase())).toBe(0);
  });
});

describe('a source released as is fails the check', () => {
  it.each(Object.keys(ADVERSARIAL_KINDS) as Kind[])('%s', async (kind) => {
    const pdf = await ADVERSARIAL_KINDS[kind]();
    const { leaks } = await searchPdf(pdf.bytes, [{ outputPage: pdf.page, withheld: await withheldOf(pdf) }]);
    expect(leaks.some((leak) => leak.page === pdf.page && (leak.place === 'glyph-text' || leak.place === 'page-text' || leak.place === 'text-layer')), JSON.stringify(leaks)).toBe(true);
  });
});

describe('a correct output passes the check', () => {
  it('the outside-crop-box page set again by pdfTeX without its hidden line and with a rule for the name passes', async () => {
    const pdf = await ADVERSARIAL_KINDS['outside-crop-box']();
    const withheld = await withheldOf(pdf);
    const correct = latex('\\vspace*{2in}\nThe applicant \\rule{27pt}{7pt} asked for the permit file.\n\n\\bigskip\nPublic records office, permit desk.', '\\pdfpageattr{/CropBox [0 0 612 640]}');
    // Its words longer than two letters other than "the" (see the gap below).
    const longer = withheld.filter((entry) => entry.text.length > 2 && entry.text !== 'the');
    expect(longer.map((entry) => entry.text).sort()).toEqual(['lives', 'note:', 'outside', 'shelter.', 'vashti']);
    expect((await searchPdf(correct, [{ outputPage: 1, withheld: longer }])).leaks).toEqual([]);
  });

  // Short withheld words ("at", "the") are not searched in the format's own names, in font programs for fewer
  // than five characters, or in XMP markup: the correct output passes with every withheld word of the source.
  it('the same correct output passes with every withheld word of the source, two-letter ones and "the" included', async () => {
    const pdf = await ADVERSARIAL_KINDS['outside-crop-box']();
    const withheld = await withheldOf(pdf);
    expect(withheld.some((entry) => entry.text.length <= 3)).toBe(true);
    const correct = latex('\\vspace*{2in}\nThe applicant \\rule{27pt}{7pt} asked for the permit file.\n\n\\bigskip\nPublic records office, permit desk.', '\\pdfpageattr{/CropBox [0 0 612 640]}');
    expect((await searchPdf(correct, [{ outputPage: 1, withheld }])).leaks).toEqual([]);
  });
});
