import { describe, expect, it } from 'vitest';
import { coverLetterPdf, type CoverLetter } from '../../worker/release-package/documents.js';
import { pdftotext } from '../helpers/pdf-tools.js';

// The cover letter's letterhead and appeal-rights paragraph (release settings), read back with pdftotext.
const base: CoverLetter = {
  requestNumber: 'FOIA-2026-0117',
  title: 'Permit complaint records',
  date: '2026-11-28',
  releaseNumber: 1,
  documents: 3,
  pages: 9,
  withheldInFull: 1,
  batesRange: 'REL-0001 to REL-0009',
  byExemption: [{ code: '(b)(6)', name: 'Personal privacy', count: 4 }],
};

describe('cover letter', () => {
  it('prints the letterhead first and the appeal rights after the counts', async () => {
    const appeal = 'You may appeal this response within 90 days to the Records Appeals Officer, 12 Court Street, Springfield.\nMark the envelope "FOIA Appeal".';
    const text = pdftotext(Buffer.from(await coverLetterPdf({ ...base, letterhead: 'City of Springfield\nOffice of Public Records\n12 Court Street', appealRights: appeal })));
    const order = ['City of Springfield', 'Office of Public Records', 'Records release', 'FOIA-2026-0117', 'Personal privacy', 'Your right to appeal', 'within 90 days', 'FOIA Appeal'].map((part) => text.indexOf(part));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('without them the letter is as before', async () => {
    const text = pdftotext(Buffer.from(await coverLetterPdf(base)));
    expect(text).toContain('Records release');
    expect(text).not.toContain('Your right to appeal');
  });

  it('a long appeal paragraph goes on to a second page rather than off the page', async () => {
    const appeal = Array.from({ length: 40 }, (_, index) => `Appeal sentence ${index + 1} explains one more step of the process in plain words.`).join('\n');
    const bytes = Buffer.from(await coverLetterPdf({ ...base, letterhead: 'Office', appealRights: appeal }));
    const text = pdftotext(bytes);
    expect(text).toContain('Appeal sentence 40');
    expect(text.split('\f').filter((page) => page.trim()).length).toBe(2);
  });
});
