import type { Executor } from '../../db/queries/executor.js';
import { listAllCaseDocuments } from '../../db/queries/documents.js';
import { listDocumentRedactions } from '../../db/queries/redactions.js';
import type { ReleaseLayoutPage } from '../../common/export-tasks.js';
import { requireCase } from '../cases.js';
import type { ServiceContext } from '../context.js';
import { boxFromRow } from '../redactions/model.js';
import { gatherReleaseMaterial } from './material.js';
import type { IndexRow } from '../../common/schemas/releases.js';
import { indexRows, releasedPages, type ReleaseDocument } from './withholding-index.js';

// The withholding index as it stands, for the Release screen: the same rows the release will carry, cited by
// document page (stamp numbers exist only once the pages are assembled).

export async function previewIndex(db: Executor, ctx: ServiceContext, caseId: number): Promise<IndexRow[]> {
  await requireCase(db, ctx, caseId);
  const release = await gatherReleaseMaterial(db, { organization_id: ctx.actor.organizationId, case_id: caseId });
  const documents: ReleaseDocument[] = [];
  const layout: ReleaseLayoutPage[] = [];
  for (const row of (await listAllCaseDocuments(db, ctx.actor.organizationId, caseId)).filter((document) => !document.deleted_at)) {
    const holdings = release.withholdings.filter((entry) => entry.document_id === row.id);
    const withheld = (page: number) => holdings.find((entry) => (entry.page_from ?? 1) <= page && (entry.page_to ?? Infinity) >= page);
    const applied = (await listDocumentRedactions(db, row.id)).map(boxFromRow).filter((box) => box.state === 'accepted' && !withheld(box.page));
    documents.push({ documentId: row.id, title: row.file_name.replace(/\.[A-Za-z0-9]{1,5}$/, ''), sha256: row.sha256, applied });
    const pages = new Set(applied.map((box) => box.page));
    const entries: ReleaseLayoutPage[] = [...pages].map((page) => ({ documentId: row.id, from: page, to: page, withheld: null }));
    // A whole document withheld is shown as from page 1 (its length is known once assembled).
    for (const holding of holdings) entries.push({ documentId: row.id, from: holding.page_from ?? 1, to: holding.page_to ?? holding.page_from ?? 1, withheld: holding.exemption });
    layout.push(...entries.sort((a, b) => a.from - b.from));
  }
  return indexRows(releasedPages(layout, documents, null, { ...release, previous: null }), documents, release);
}
