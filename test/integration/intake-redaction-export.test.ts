import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIntake } from '../../main/services/intake/index.js';
import type { IntakeRunner } from '../../main/services/intake/runner.js';
import { exportFile, startExportHarness, type Harness } from '../helpers/export-fixtures.js';
import { encodings, pdftotext, qpdfExpanded } from '../helpers/pdf-tools.js';
import { popplerWords, type BoxedWord } from '../helpers/fidelity-support.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { composeMessage, documentBytes, settledIntake } from '../helpers/intake-support.js';
import { html, libreOfficeFile, removeOfficeFixtures } from '../helpers/office-fixtures.js';
import { createBoxes } from '../helpers/v1-redactions-support.js';

// A box over a To address in an e-mail's rendered header, and over a word of a .docx LibreOffice converted:
// the export must lose that word everywhere (pdftotext, every stream qpdf decompresses) and keep every other
// word where it stood (pdftotext -bbox of the converted PDF against the export). Release safeguards are off
// (startExportHarness): this is about burn-in of converted documents, not the release workflow.

let harness: Harness;
let intake: IntakeRunner;

beforeAll(async () => {
  harness = await startExportHarness();
  intake = await startIntake(harness.instance.runtime, harness.pool);
}, 120_000);
afterAll(async () => {
  await intake?.stop();
  await harness?.close();
  removeOfficeFixtures();
});

function overlaps(word: BoxedWord, box: { x1: number; y1: number; x2: number; y2: number }): boolean {
  return word.x1 < box.x2 && word.x2 > box.x1 && word.y1 < box.y2 && word.y2 > box.y1;
}

/** Boxes `secret` in the converted document, exports it alone, and checks the leak and fidelity rules. */
async function redactAndExport(documentId: string, caseId: string, secret: string, wordOf: (word: BoxedWord) => boolean): Promise<void> {
  const { instance } = harness;
  const converted = await documentBytes(instance, documentId);
  const before = popplerWords(converted);
  const target = before.find(wordOf);
  if (!target) throw new Error(`no word for ${secret}: ${before.map((word) => word.text).join(' ')}`);
  const box = { x1: target.x1 - 0.5, y1: target.y1, x2: target.x2 + 0.5, y2: target.y2 };
  await createBoxes(instance, documentId, [{ kind: 'rectangle', layer: 'B6', coordinates: { page: target.page, units: 'pdf_points', box } }]);
  const { exported, bytes } = await exportFile(instance, { case_id: caseId, filters: { document_ids: [documentId] } });
  expect(exported.summary?.redactions).toBe(1);
  const text = pdftotext(bytes);
  expect(text).not.toContain(secret);
  const expanded = qpdfExpanded(bytes);
  for (const form of encodings(secret)) expect(expanded.includes(form), `${secret} as ${JSON.stringify(form)}`).toBe(false);
  // Every other word is still there, at its place (within 1.5 pt); under the box only its exemption label
  // (the rendered e-mail draws glyph ids with a ToUnicode map, so any glyph left would be read back here).
  const after = popplerWords(bytes);
  expect(after.filter((word) => word.page === target.page && overlaps(word, box) && word.text !== '(b)(6)').map((word) => word.text)).toEqual([]);
  expect(after.length).toBeGreaterThan(10);
  const padded = { x1: box.x1 - 1, y1: box.y1 - 1, x2: box.x2 + 1, y2: box.y2 + 1 };
  const lost = before
    .filter((word) => !(word.page === target.page && overlaps(word, padded)))
    .filter((word) => !after.some((out) => out.page === word.page && out.text === word.text && Math.abs(out.x1 - word.x1) <= 1.5 && Math.abs(out.y1 - word.y1) <= 1.5))
    .map((word) => `${word.page}:${word.text}`);
  expect(lost).toEqual([]);
}

describe('redactions on converted e-mail and Office documents', () => {
  it('a To address in a rendered e-mail header is gone from the export, everything else stays', async () => {
    const { instance } = harness;
    const caseId = await createCase(instance, 'Redacted mail');
    const raw = await composeMessage({
      from: 'Ana Núñez <ana.nunez@example.org>',
      to: 'Private Person <hidden.requester@example.com>',
      cc: 'desk@city.example.gov',
      subject: 'Dock permit decision',
      text: 'The permit for the east dock is granted. The fee is due by the end of June.',
      messageId: '<permit-1@example.org>',
    });
    const [document] = await uploadDocuments(instance, caseId, [{ name: 'permit.eml', bytes: raw }]);
    const id = document?.id ?? '';
    expect(await settledIntake(instance, id)).toMatchObject({ status: 'converted' });
    await redactAndExport(id, caseId, 'hidden.requester@example.com', (word) => word.text.includes('hidden.requester@example.com'));
  }, 120_000);

  it('a word of a LibreOffice-converted .docx is gone from the export, everything else stays', async () => {
    const { instance } = harness;
    const caseId = await createCase(instance, 'Redacted docx');
    const docx = libreOfficeFile('memo.html', html('Harbour memo', 'The dredging contract goes to Pier Seven Holdings.', 'Informant: Zebulon Quartermaine lives on Quay Street.'), 'docx:MS Word 2007 XML');
    const [document] = await uploadDocuments(instance, caseId, [{ name: 'memo.docx', bytes: docx }]);
    const id = document?.id ?? '';
    expect(await settledIntake(instance, id, 120_000)).toMatchObject({ status: 'converted' });
    await redactAndExport(id, caseId, 'Quartermaine', (word) => word.text === 'Quartermaine');
  }, 180_000);
});
