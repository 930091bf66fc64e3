import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { RewrittenPage } from '../../main/common/export-tasks.js';
import { qpdfExpanded } from '../helpers/pdf-tools.js';
import { boxOver, pdflatex, popplerText, release, SETTINGS, stextWords } from '../helpers/burn-producers.js';

// Text inside form XObjects (pdfTeX's \pdfxform, drawn on two pages) is redacted in a copy of the form made
// for the page with the box: that page is redacted in its content, not rendered, and the other page keeps the
// original form with every word.

function pageText(bytes: Buffer, page: number): string {
  return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-', '-'], { input: bytes, encoding: 'utf8' });
}

describe('text inside form XObjects', () => {
  it('a box over a word of a shared form: the word leaves that page only, through a copy of the form', async () => {
    const source = pdflatex(
      [
        '\\setbox0=\\hbox{Formsecret stays beside Keepword}\\pdfxform0',
        '\\noindent\\pdfrefxform\\pdflastxform\\par Plain text of page one.\\newpage',
        '\\noindent\\pdfrefxform\\pdflastxform\\par Plain text of page two.',
      ].join('\n'),
    );
    expect(qpdfExpanded(source)).toMatch(/\/Subtype \/Form/);
    const secret = stextWords(source).find((word) => word.text === 'Formsecret');
    expect(secret).toBeDefined();
    const target = secret as NonNullable<typeof secret>;
    const box = { ...boxOver(target, 'r-form'), y1: target.baseline - 0.5, y2: target.baseline + 7 };
    const { bytes, pages } = await release(source, new Map([[1, [box]]]), { ...SETTINGS, padding: 0.5 });
    const page = pages[0] as RewrittenPage;
    expect(page.method, JSON.stringify(page)).toBe('vector');
    expect(page.forms).toHaveLength(1);
    expect(pageText(bytes, 1)).not.toContain('Formsecret');
    expect(pageText(bytes, 1)).toMatch(/stays beside Keepword/);
    expect(pageText(bytes, 1)).toContain('Plain text of page one.');
    expect(pageText(bytes, 2)).toMatch(/Formsecret stays beside Keepword/);
    // Two forms in the output: page 1's copy and page 2's original.
    expect(qpdfExpanded(bytes).match(/\/Subtype \/Form/g)).toHaveLength(2);
    expect(popplerText(bytes).match(/Keepword/g)).toHaveLength(2);
  });
});
