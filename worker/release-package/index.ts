import fs from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ReleasePackageResult, ReleasePackageTask } from '../../main/common/release-package-tasks.js';
import { coverLetterPdf, withholdingIndexPdf } from './documents.js';
import { addPlaceholderPage } from './placeholders.js';
import { READ_WHOLE, WRITE_WHOLE } from '../pdf-lib-load.js';

// Front door of the release package's own documents for the pool (task `release-package`); assembly
// (worker/burn-in/assemble.ts) uses placeholders.ts and stamps.ts directly.

/** A one-page PDF holding the placeholder of pages withheld in full, as the preview shows it. */
async function placeholderPdf(exemption: string, from: number, to: number): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  const [font, bold] = [out.embedStandardFont(StandardFonts.Helvetica), out.embedStandardFont(StandardFonts.HelveticaBold)];
  addPlaceholderPage(out, font, bold, exemption, from, to);
  return out.save(WRITE_WHOLE);
}

/** One page of an assembled file, copied into a PDF of its own. */
async function singlePagePdf(file: string, page: number): Promise<Uint8Array> {
  const whole = await PDFDocument.load(await fs.readFile(file), READ_WHOLE);
  const single = await PDFDocument.create();
  const [copied] = await single.copyPages(whole, [page - 1]);
  single.addPage(copied!);
  return single.save(WRITE_WHOLE);
}

export async function releasePackageDocument(task: ReleasePackageTask): Promise<ReleasePackageResult> {
  const document = task.document;
  switch (document.type) {
    case 'withholding-index':
      return { kind: 'release-package', bytes: await withholdingIndexPdf(document) };
    case 'cover-letter':
      return { kind: 'release-package', bytes: await coverLetterPdf(document.letter) };
    case 'placeholder':
      return { kind: 'release-package', bytes: await placeholderPdf(document.exemption, document.from, document.to) };
    case 'single-page':
      return { kind: 'release-package', bytes: await singlePagePdf(document.path, document.page) };
  }
}
