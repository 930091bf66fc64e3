import type { PageWord } from '../../common/schemas/pages.js';
import { findPageWithCase } from '../../db/queries/document-pages.js';
import type { Executor } from '../../db/queries/executor.js';
import { deleteSearchPage, insertSearchPage } from '../../db/queries/search-pages.js';
import { clearStalePage, hasStalePages, listStalePages } from '../../db/queries/search-stale.js';
import { buildPageText } from './page-text.js';
import { transact } from '../../db/transaction.js';

// Folds pages queued by the document_pages triggers into the index, in batches of one transaction each.
// Transcripts (seconds, no boxes) are not searched.

const BATCH = 500;

async function indexBatch(trx: Executor): Promise<number> {
  const stale = await listStalePages(trx, BATCH);
  for (const { document_id, page_number } of stale) {
    await deleteSearchPage(trx, document_id, page_number);
    const row = await findPageWithCase(trx, document_id, page_number);
    if (row && row.unit !== 'seconds') {
      const page = buildPageText(row.text, JSON.parse(row.words) as PageWord[]);
      await insertSearchPage(trx, {
        organization_id: row.organization_id,
        case_id: row.case_id,
        document_id,
        page_number,
        unit: row.unit,
        text: page.text,
        folded: page.folded,
      });
    }
    await clearStalePage(trx, document_id, page_number);
  }
  return stale.length;
}

/** Brings the index up to date with document_pages; returns how many pages were (re)indexed or removed. */
export async function catchUpSearchIndex(db: Executor): Promise<number> {
  if (!(await hasStalePages(db))) return 0;
  let total = 0;
  for (;;) {
    const done = db.isTransaction ? await indexBatch(db) : await transact(db, indexBatch);
    total += done;
    if (done < BATCH) return total;
  }
}
