import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFString, type PDFRef } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { renameFontsCarrying } from '../../worker/burn-in/font-names.js';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { searchPdf, withheldOfPage } from '../../worker/release-check/index.js';
import { bboxWords, boxOver, chromiumPdf, popplerText, release, SETTINGS } from '../helpers/burn-producers.js';
import { handWrittenPdf, tempDir } from '../helpers/temp.js';

// A boxed word that is also part of a font's name ("Roman" of TimesNewRomanPSMT, "Serif" of DejaVuSerif, a
// specimen's "courier"): the release check searches font names, so such a release used to be refused. The
// builder renames the embedded fonts that carry withheld text; a standard 14 font keeps its name (a reader finds
// it by that name), which the check takes as vocabulary. pdffonts, poppler's own reader, reads the names back.

const dir = tempDir('obscura-font-names-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function pdffonts(bytes: Uint8Array): string {
  const file = path.join(dir, `fonts-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync('pdffonts', [file], { encoding: 'utf8' });
}

async function releaseWithWordBoxed(source: Buffer, word: string) {
  const target = bboxWords(source, 1).find((entry) => entry.text === word);
  if (!target) throw new Error(`poppler finds no ${word}`);
  const box = boxOver(target);
  const { bytes } = await release(source, new Map([[1, [box]]]), SETTINGS);
  const opened = await openPdf(new Uint8Array(source));
  const withheld = await withheldOfPage(opened, 1, [box]).finally(() => opened.destroy());
  return { bytes, withheld, leaks: (await searchPdf(bytes, [{ outputPage: 1, withheld }])).leaks };
}

describe('fonts named with a boxed word', () => {
  it('an embedded font (Chromium, DejaVu Serif) is renamed: the release passes its check and the page reads as before', async () => {
    const source = await chromiumPdf('<body style="font-family: DejaVu Serif; font-size: 14pt"><p>Applicant Maria Serif lives at 12 Vega Road.</p><p>The second line stays.</p></body>');
    expect(pdffonts(source)).toMatch(/DejaVuSerif/);
    const { bytes, withheld, leaks } = await releaseWithWordBoxed(source, 'Serif');
    expect(withheld.map((entry) => entry.text)).toContain('serif');
    expect(leaks).toEqual([]);
    const fonts = pdffonts(bytes);
    expect(fonts).not.toMatch(/serif/i);
    // Still embedded, as a subset under its tag: the page is drawn from the same program.
    expect(fonts).toMatch(/[A-Z]{6}\+Font\d+\s+\S+.*\byes\b/);
    const text = popplerText(bytes);
    expect(text).not.toMatch(/Maria Serif/);
    expect(text).toContain('Applicant Maria');
    expect(text).toContain('The second line stays.');
  }, 120_000);

  it('a standard 14 font keeps its name (a reader needs it), and boxing that word in a specimen releases', async () => {
    const source = handWrittenPdf('BT /F1 14 Tf 72 700 Td (FONT: courier) Tj ET BT /F2 14 Tf 72 660 Td (A line in Helvetica stays.) Tj ET', { F1: 'Courier', F2: 'Helvetica' });
    const { bytes, leaks } = await releaseWithWordBoxed(source, 'courier');
    expect(leaks).toEqual([]);
    expect(pdffonts(bytes)).toMatch(/^Courier\s+Type 1\s+\S+\s+no\b/m);
    expect(popplerText(bytes)).toContain('A line in Helvetica stays.');
  }, 60_000);

  it('renames only embedded fonts, by the check\'s rule: folded, three characters or more, descriptor and family alike', async () => {
    const document = await PDFDocument.create();
    const context = document.context;
    const program = context.register(context.flateStream('not a real font program'));
    const descriptor = context.obj({ Type: 'FontDescriptor', FontName: PDFName.of('ABCDEF+TimesNewRomanPSMT'), FontFamily: PDFString.of('Times New Roman'), Flags: 34, FontFile2: program });
    const embedded = context.register(context.obj({ Type: 'Font', Subtype: 'TrueType', BaseFont: PDFName.of('ABCDEF+TimesNewRomanPSMT'), FontDescriptor: context.register(descriptor) }));
    const standard = context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: PDFName.of('Times-Roman') }));
    const system = context.register(context.obj({ Type: 'Font', Subtype: 'TrueType', BaseFont: PDFName.of('RomanSystemFont') }));
    const name = (ref: PDFRef) => context.lookup(ref, PDFDict).get(PDFName.of('BaseFont'))?.toString();

    expect(renameFontsCarrying(context, ['ro', 'Mt'])).toBe(0);
    expect(renameFontsCarrying(context, ['ROMAN'])).toBe(3);
    expect(name(embedded)).toBe('/ABCDEF+Font1');
    expect(descriptor.toString()).toContain('/FontName /ABCDEF+Font1');
    expect(descriptor.toString()).toContain('/FontFamily (Font1)');
    // Not embedded: a reader finds it by name, so it stays (the check still refuses a non-standard one).
    expect(name(standard)).toBe('/Times-Roman');
    expect(name(system)).toBe('/RomanSystemFont');
  });
});
