import { describe, expect, it } from 'vitest';
import { release } from '../helpers/burn-producers.js';
import { qpdfExpanded } from '../helpers/pdf-tools.js';
import { box, helvetica, helveticaWidth, pagePdf, pdftotext } from '../helpers/vector-pdfs.js';

// /ActualText outside the boxes stays in content redaction: an emoji flag drawn as the letters "FR" with the
// flag as its ActualText (as accsupp and Word write it) still copies and searches as the flag. A marked
// sequence with a glyph under a box loses its property list (the text could tell what was there), and nothing
// but /ActualText of a kept one travels (no /MCID into a structure tree the release drops).
// Oracles: poppler's pdftotext (which reads ActualText) and qpdf --qdf.

const FLAG = 'FEFFD83CDDEBD83CDDF7'; // U+1F1EB U+1F1F7, the French flag, in UTF-16BE with its BOM

describe('ActualText in content redaction', () => {
  it('keeps a flag ActualText away from every box, drops the one over a boxed word', async () => {
    const content = [
      `/Span <</ActualText <${FLAG}> /MCID 0>> BDC BT /F1 14 Tf 72 700 Td (FR) Tj ET EMC`,
      'BT /F1 14 Tf 120 700 Td (Keepword stays) Tj ET',
      '/Span <</ActualText (Hiddenflag) /MCID 1>> BDC BT /F1 14 Tf 72 600 Td (Secretword) Tj ET EMC',
    ].join('\n');
    const source = await pagePdf({ content, resources: helvetica });
    expect(pdftotext(source)).toContain('\u{1F1EB}\u{1F1F7}');
    const width = await helveticaWidth('Secretword', 14);
    const { bytes, pages } = await release(source, new Map([[1, [box(70, 595, 72 + width + 2, 615)]]]));
    expect(pages[0]?.method).toBe('vector');
    const text = pdftotext(bytes);
    expect(text).toContain('\u{1F1EB}\u{1F1F7}');
    expect(text).toContain('Keepword');
    expect(text).not.toMatch(/Hiddenflag|Secretword/);
    const expanded = qpdfExpanded(bytes);
    expect(expanded).not.toContain('Hiddenflag');
    expect(expanded).not.toContain('MCID');
    expect(expanded.toUpperCase()).toContain(`<${FLAG}>`);
  }, 60_000);
});
