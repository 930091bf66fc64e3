import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { addPlaceholderPage } from '../../../worker/release-package/placeholders.js';
import { listCaseWithholdings } from '../../db/queries/withholdings.js';
import { z } from 'zod';
import { DomainError } from '../../common/errors.js';
import type { BurnPageRequest, ExportDocumentType, ExportSource } from '../../common/export-tasks.js';
import { LAYER_INFO } from '../../common/redaction-catalog.js';
import { ExportOptions } from '../../common/schemas/exports.js';
import { PageWord } from '../../common/schemas/pages.js';
import { listDocumentPages } from '../../db/queries/document-pages.js';
import type { Executor } from '../../db/queries/executor.js';
import { listDocumentRedactions } from '../../db/queries/redactions.js';
import { settingsOf } from '../../jobs/export-build.js';
import { servicePool } from '../../jobs/service-pool.js';
import type { Runtime } from '../../runtime.js';
import type { ServiceContext } from '../context.js';
import { requireDocument } from '../documents.js';
import { boxFromRow } from '../redactions/model.js';

// "Preview as released": one page burned and assembled by the export's own worker tasks (export-burn, then
// export-assemble) with the document's accepted redactions and the default export options, cut to that page.

const RELEASABLE: Readonly<Record<string, ExportDocumentType>> = { pdf: 'pdf', png: 'png', jpeg: 'jpeg', tiff: 'tiff' };
const PageWords = z.array(PageWord);
/** A preview that takes longer than this is given up (the page is too large, or the pool too busy). */
const PREVIEW_TIMEOUT_MS = 120_000;


interface PreviewPlan {
  source: ExportSource;
  request: BurnPageRequest | null;
  isImage: boolean;
}

/** What the export would burn on this page: its accepted boxes, labelled as the export labels them. */
async function planOf(db: Executor, runtime: Runtime, ctx: ServiceContext, documentId: number, pageNumber: number): Promise<PreviewPlan> {
  const document = await requireDocument(db, ctx, documentId);
  const type = RELEASABLE[document.document_type];
  if (!type) {
    throw new DomainError('validation_error', `document ${documentId} is ${document.document_type}: only PDF, PNG, JPEG and TIFF documents are released as PDF pages`, [
      { field: 'document_id', location: 'params', message: `a ${document.document_type} document has no released pages` },
    ]);
  }
  const isImage = type !== 'pdf';
  const exemptions = (await db.selectFrom('exemptions').select(['code']).where('organization_id', '=', ctx.actor.organizationId).execute()).sort((a, b) => b.code.length - a.code.length);
  const boxes = (await listDocumentRedactions(db, document.id))
    .filter((row) => row.organization_id === ctx.actor.organizationId)
    .map(boxFromRow)
    .filter((box) => box.state === 'accepted' && box.page === pageNumber && (box.source === 'image') === isImage)
    .map((box) => {
      const reason = box.reason?.trimStart() ?? '';
      const label = exemptions.find((entry) => reason.startsWith(entry.code))?.code ?? LAYER_INFO[box.layer].exemption;
      return { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2, points: box.points, label, id: box.redactionId };
    });
  const unit = isImage ? 'image_pixels' : 'pdf_points';
  const stored = (await listDocumentPages(db, ctx.actor.organizationId, document.id)).find((page) => page.page_number === pageNumber && page.unit === unit);
  const words = stored ? PageWords.parse(JSON.parse(stored.words)) : null;
  // Like the export: a PDF page without boxes is copied as it is; an image page is always rendered.
  const request = boxes.length > 0 || (isImage && words) ? { page: pageNumber, boxes, words } : null;
  return { source: { documentId: document.id, path: await runtime.blobs.localPath(document.sha256), documentType: type }, request, isImage };
}

async function removeWorkFiles(workPrefix: string): Promise<void> {
  const dir = path.dirname(workPrefix);
  const prefix = path.basename(workPrefix);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(prefix)).map((name) => fs.rm(path.join(dir, name), { force: true })));
}

/** The withholding that takes this page out of the release in full, if any. */
async function withheldInFull(db: Executor, ctx: ServiceContext, caseId: number, documentId: number, pageNumber: number) {
  return (await listCaseWithholdings(db, ctx.actor.organizationId, caseId)).find(
    (row) => row.document_id === documentId && (row.page_from === null || (row.page_from <= pageNumber && pageNumber <= (row.page_to ?? row.page_from))),
  );
}

/** A one-page PDF: page `pageNumber` of the document as a release export would show it now. */
export async function previewPage(runtime: Runtime, ctx: ServiceContext, documentId: number, pageNumber: number): Promise<Buffer> {
  const document = await requireDocument(runtime.db, ctx, documentId);
  const withheld = await withheldInFull(runtime.db, ctx, document.case_id, documentId, pageNumber);
  if (withheld) {
    // The requester gets the placeholder page, drawn from the exemption alone: the page itself is not opened.
    const out = await PDFDocument.create();
    const [font, bold] = [out.embedStandardFont(StandardFonts.Helvetica), out.embedStandardFont(StandardFonts.HelveticaBold)];
    addPlaceholderPage(out, font, bold, withheld.exemption, pageNumber, pageNumber);
    return Buffer.from(await out.save());
  }
  const plan = await planOf(runtime.db, runtime, ctx, documentId, pageNumber);
  const settings = settingsOf(ExportOptions.parse({}));
  const workPrefix = path.join(runtime.blobs.tempDir, `preview-${randomUUID().slice(0, 8)}`);
  const signal = AbortSignal.timeout(PREVIEW_TIMEOUT_MS);
  const onProgress = () => undefined;
  try {
    const burned =
      plan.request || plan.isImage
        ? await servicePool().run({ kind: 'export-burn', exportId: 0, source: plan.source, pages: plan.request ? [plan.request] : [], allPages: plan.isImage, settings, workPrefix }, { signal, onProgress })
        : null;
    const outputPath = `${workPrefix}-out.pdf`;
    await servicePool().run(
      { kind: 'export-assemble', exportId: 0, outputPath, cover: null, documents: [{ source: plan.source, pageCount: burned?.pageCount ?? null, burned: burned?.pages ?? [] }], settings, workPrefix, stamps: null },
      { signal, onProgress },
    );
    const whole = await PDFDocument.load(await fs.readFile(outputPath));
    if (pageNumber > whole.getPageCount()) throw new DomainError('resource_not_found', `document ${documentId} has ${whole.getPageCount()} page(s); there is no page ${pageNumber}`);
    const single = await PDFDocument.create();
    const [copied] = await single.copyPages(whole, [pageNumber - 1]);
    single.addPage(copied!);
    return Buffer.from(await single.save());
  } finally {
    await removeWorkFiles(workPrefix);
  }
}
