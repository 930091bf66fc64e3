import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { documentBytes, pdfText, settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';

// No tool here writes a PST. pst-extractor's own test mailbox (example/testdata/enron.pst, MIT, public Enron
// corpus) is read from node_modules at test time when the installed package carries it; it is never committed.
const require = createRequire(import.meta.url);
const sample = (() => {
  try {
    return path.join(path.dirname(require.resolve('pst-extractor/package.json')), 'example', 'testdata', 'enron.pst');
  } catch {
    return '';
  }
})();
const present = sample !== '' && fs.existsSync(sample);

let h: IntakeHarness;
let caseId: string;

beforeAll(async () => {
  if (!present) return;
  h = await startIntakeInstance();
  caseId = await createCase(h.instance, 'PST intake');
});
afterAll(async () => {
  await h?.close();
});

describe.skipIf(!present)('PST (pst-extractor sample mailbox)', () => {
  it('expands a .pst into one e-mail child per message, each rendered with its header', async () => {
    const bytes = fs.readFileSync(sample);
    const [document] = await uploadDocuments(h.instance, caseId, [{ name: 'enron.pst', bytes }]);
    const id = document?.id ?? '';
    const state = await settledIntake(h.instance, id, 180_000);
    expect(state).toMatchObject({ status: 'converted', error: null, original: { format: 'pst', media_type: 'application/vnd.ms-outlook', size: bytes.length } });
    // pst-extractor's own expected output for this file (example/testdata/output.txt) lists 71 messages.
    expect(state.children).toBe(71);
    const listing = pdfText(await documentBytes(h.instance, id));
    expect(listing).toMatch(/Messages:\s+71\b/);
    // A message listed in pst-extractor's own expected output (example/testdata/output.txt).
    expect(listing.replace(/\s+/g, ' ')).toContain('West Texas Capacity');
    const family = ((await h.instance.request({ method: 'GET', url: `/api/v1/documents/${id}/family` })).json() as {
      data: { members: { depth: number; document: { id: string; attachment_index: number | null; email: { subject: string } | null } }[] };
    }).data;
    const children = family.members.filter((member) => member.depth === 1);
    expect(children).toHaveLength(state.children);
    expect(children.slice(0, 5).map((member) => member.document.attachment_index)).toEqual([0, 1, 2, 3, 4]);
    // The first few messages convert like any .eml, their header values in the text layer.
    for (const child of children.slice(0, 3)) {
      const childState = await settledIntake(h.instance, child.document.id, 120_000);
      expect(childState).toMatchObject({ status: 'converted', depth: 1, original: { format: 'eml' } });
      const email = ((await h.instance.request({ method: 'GET', url: `/api/v1/documents/${child.document.id}` })).json() as { data: { email: { subject: string; from: string } } }).data.email;
      expect(email.subject.length).toBeGreaterThan(0);
      const text = pdfText(await documentBytes(h.instance, child.document.id));
      expect(text).toContain(email.subject.slice(0, 20));
      expect(text).toContain('From');
    }
  }, 300_000);
});
