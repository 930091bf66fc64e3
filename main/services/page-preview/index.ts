import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { listCaseWithholdings } from '../../db/queries/withholdings.js';
import { DomainError } from '../../common/errors.js';
import type { BurnPageRequest, BurnSettings, ExportSource } from '../../common/export-tasks.js';
import type { ReleasePackageDocument } from '../../common/release-package-tasks.js';
import { ExportOptions } from '../../common/schemas/exports.js';
import { listDocumentPages } from '../../db/queries/document-pages.js';
import type { Executor } from '../../db/queries/executor.js';
import { listDocumentRedactions } from '../../db/queries/redactions.js';
import { releasableType, removeWorkFiles, requestsOf, settingsOf } from '../../jobs/export/index.js';
import { servicePool } from '../../jobs/service-pool.js';
import type { Runtime } from '../../runtime.js';
import type { ServiceContext } from '../context.js';
import { requireDocument } from '../documents.js';
import { boxFromRow } from '../redactions/model.js';

// "Preview as released": one page burned and assembled by the export's own worker tasks (export-burn, then
// export-assemble) with the document's accepted redactions and the default export options, cut to that page
// (a release-package task). Its box requests and labels are the export's own (jobs/export requestsOf).

/** A preview that takes longer than this is given up (the page is too large, or the pool too busy). */
const PREVIEW_TIMEOUT_MS = 120_000;

interface PreviewPlan {
  source: ExportSource;
  request: BurnPageRequest | null;
  isImage: boolean;
}

/** What the export would burn on this page: its accepted boxes, labelled as the export labels them. */
async function planOf(db: Executor, runtime: Runtime, ctx: ServiceContext, documentId: number, pageNumber: number, settings: BurnSettings): Promise<PreviewPlan> {
  const document = await requireDocument(db, ctx, documentId);
  const type = releasableType(document.document_type);
  if (!type) {
    throw new DomainError('validation_error', `document ${documentId} is ${document.document_type}: only PDF, PNG, JPEG and TIFF documents are released as PDF pages`, [
      { field: 'document_id', location: 'params', message: `a ${document.document_type} document has no released pages` },
    ]);
  }
  const isImage = type !== 'pdf';
  const exemptions = (await db.selectFrom('exemptions').select(['code']).where('organization_id', '=', ctx.actor.organizationId).execute()).sort((a, b) => b.code.length - a.code.length);
  const applied = (await listDocumentRedactions(db, document.id))
    .filter((row) => row.organization_id === ctx.actor.organizationId)
    .map(boxFromRow)
    .filter((box) => box.state === 'accepted' && box.page === pageNumber);
  const pages = (await listDocumentPages(db, ctx.actor.organizationId, document.id)).filter((page) => page.page_number === pageNumber);
  // Like the export: a PDF page without boxes is copied as it is (no request); an image page is always rendered.
  const [request] = requestsOf({ applied, pages }, isImage, settings.labels, exemptions, new Set());
  return { source: { documentId: document.id, path: await runtime.blobs.localPath(document.sha256), documentType: type }, request: request ?? null, isImage };
}

/** The withholding that takes this page out of the release in full, if any. */
async function withheldInFull(db: Executor, ctx: ServiceContext, caseId: number, documentId: number, pageNumber: number) {
  return (await listCaseWithholdings(db, ctx.actor.organizationId, caseId)).find(
    (row) => row.document_id === documentId && (row.page_from === null || (row.page_from <= pageNumber && pageNumber <= (row.page_to ?? row.page_from))),
  );
}

async function drawn(document: ReleasePackageDocument, signal: AbortSignal): Promise<Buffer> {
  const result = await servicePool().run({ kind: 'release-package', exportId: 0, document }, { signal, onProgress: () => undefined });
  return Buffer.from(result.bytes);
}

/** A one-page PDF: page `pageNumber` of the document as a release export would show it now. */
export async function previewPage(runtime: Runtime, ctx: ServiceContext, documentId: number, pageNumber: number): Promise<Buffer> {
  const document = await requireDocument(runtime.db, ctx, documentId);
  const withheld = await withheldInFull(runtime.db, ctx, document.case_id, documentId, pageNumber);
  const signal = AbortSignal.timeout(PREVIEW_TIMEOUT_MS);
  // The requester gets the placeholder page, drawn from the exemption alone: the page itself is not opened.
  if (withheld) return drawn({ type: 'placeholder', exemption: withheld.exemption, from: pageNumber, to: pageNumber }, signal);
  const settings = settingsOf(ExportOptions.parse({}));
  const plan = await planOf(runtime.db, runtime, ctx, documentId, pageNumber, settings);
  const workPrefix = path.join(runtime.blobs.tempDir, `preview-${randomUUID().slice(0, 8)}`);
  const onProgress = () => undefined;
  try {
    const burned =
      plan.request || plan.isImage
        ? await servicePool().run({ kind: 'export-burn', exportId: 0, source: plan.source, pages: plan.request ? [plan.request] : [], allPages: plan.isImage, settings, workPrefix }, { signal, onProgress })
        : null;
    const outputPath = `${workPrefix}-out.pdf`;
    const assembled = await servicePool().run(
      { kind: 'export-assemble', exportId: 0, outputPath, cover: null, documents: [{ source: plan.source, pageCount: burned?.pageCount ?? null, burned: burned?.pages ?? [] }], settings, workPrefix, stamps: null },
      { signal, onProgress },
    );
    if (pageNumber > assembled.pages) throw new DomainError('resource_not_found', `document ${documentId} has ${assembled.pages} page(s); there is no page ${pageNumber}`);
    return await drawn({ type: 'single-page', path: outputPath, page: pageNumber }, signal);
  } finally {
    await removeWorkFiles(workPrefix);
  }
}
