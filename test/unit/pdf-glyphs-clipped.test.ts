import { describe, expect, it } from 'vitest';
import { openPdf } from '../../worker/burn-in/pdfjs.js';
import { hiddenContent, readGlyphs } from '../../worker/pdf-glyphs/index.js';
import { popplerText, release, SETTINGS } from '../helpers/burn-producers.js';
import { helvetica, pagePdf } from '../helpers/vector-pdfs.js';

// Text a clipping path cuts away whole (overflowing a form field, a text frame's clip) is hidden: poppler's
// pdftotext reads it, no viewer shows it. The scan reports it as `clipped`, and a release leaves it out.

const content = [
  'BT /F1 12 Tf 72 700 Td (Visible line stays) Tj ET',
  // Clipped to a band around y 600: the line at 600 shows, the one at 560 is cut away.
  'q 72 590 300 25 re W n BT /F1 12 Tf 72 600 Td (Inside the clip) Tj 0 -40 Td (Overflow Zanzibarique) Tj ET Q',
].join('\n');

describe('text cut away by a clipping path', () => {
  it('is found as hidden (clipped), and a release carries none of it', async () => {
    const source = await pagePdf({ content, resources: helvetica });
    expect(popplerText(source)).toContain('Zanzibarique');
    const document = await openPdf(source);
    try {
      const hidden = hiddenContent(await readGlyphs(document, await document.getPage(1)));
      expect(hidden).toEqual([expect.objectContaining({ kind: 'clipped', text: 'Overflow Zanzibarique' })]);
    } finally {
      await document.destroy();
    }
    const corner = { x1: 2, y1: 2, x2: 6, y2: 6, points: [], label: null };
    const { bytes } = await release(source, new Map([[1, [corner]]]), SETTINGS);
    const text = popplerText(bytes);
    expect(text).not.toContain('Zanzibarique');
    expect(text).toContain('Visible line stays');
    expect(text).toContain('Inside the clip');
  });
});
