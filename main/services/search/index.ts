import { DomainError } from '../../common/errors.js';
import type { PageWord } from '../../common/schemas/pages.js';
import type { SearchBody, SearchHit, SearchRedactBody, SearchRedactResult } from '../../common/schemas/search.js';
import { findPageWords } from '../../db/queries/document-pages.js';
import { findDocumentsByIds, listLiveCaseDocumentNames } from '../../db/queries/documents.js';
import type { Executor } from '../../db/queries/executor.js';
import { listDocumentRedactions } from '../../db/queries/redactions.js';
import { listSearchPages } from '../../db/queries/search-pages.js';
import { requireCase } from '../cases.js';
import { recordChange } from '../change-log.js';
import type { ServiceContext } from '../context.js';
import { sourceForDocumentType } from '../redactions/app-items.js';
import { writeLayer } from '../redactions/layer-writer.js';
import type { BoxInput } from '../redactions/model.js';
import { uuidFrom } from '../redactions/suggestions.js';
import { contextOf, hitRef, matchBoxes } from './hits.js';
import { catchUpSearchIndex } from './index-sync.js';
import { compileSearch, type TextMatch } from './matcher.js';
import { servicePool } from '../../jobs/service-pool.js';
import type { SearchMatchTask } from '../../common/search-tasks.js';
import { cachedCasePages } from './page-cache.js';
import { buildPageText } from './page-text.js';

// Case-wide search and search-and-redact: the one front door of main/services/search/.

export { catchUpSearchIndex } from './index-sync.js';

interface PageMatches {
  document_id: number;
  page_number: number;
  unit: 'pdf_points' | 'image_pixels';
  file_name: string;
  /** The indexed string the matches were found in (text or folded): checked against the stored page. */
  indexed: string;
  matches: TextMatch[];
}

interface Cursor {
  d: number;
  p: number;
  s: number;
}

function invalidCursor(): DomainError {
  return new DomainError('validation_error', 'cursor is not valid for this search', [{ field: 'cursor', location: 'querystring', message: 'pass back a cursor returned by this search' }]);
}

function encodeSearchCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ l: 'search', ...cursor }), 'utf8').toString('base64url');
}

function decodeSearchCursor(raw: string | undefined): Cursor | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const { l, d, p, s } = (parsed ?? {}) as Record<string, unknown>;
  if (l !== 'search' || ![d, p, s].every((value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) throw invalidCursor();
  return { d: d as number, p: p as number, s: s as number };
}

/** Longest a search may match for; past it the caller narrows the query. */
export const SEARCH_DEADLINE_MS = 10_000;

/**
 * The matching itself runs on a worker thread: a linear-time pattern can still take seconds over a large case,
 * and the HTTP thread serves every organization. The worker stops between pages at the deadline; a page that
 * runs on past it is stopped by the pool (its thread replaced).
 */
async function matchOnWorker(spec: SearchMatchTask['spec'], reads: 'text' | 'folded' | 'both', pages: readonly { text: string; folded: string }[]): Promise<TextMatch[][]> {
  if (pages.length === 0) return [];
  const deadline = Date.now() + SEARCH_DEADLINE_MS;
  const slim = pages.map((page) => ({ text: reads === 'folded' ? '' : page.text, folded: reads === 'text' ? '' : page.folded }));
  const tooLong = () =>
    new DomainError('unprocessable_entity', `the search did not finish within ${SEARCH_DEADLINE_MS / 1000} s over this case; narrow the query or the documents`, [
      { field: 'query', message: `matching stopped after ${SEARCH_DEADLINE_MS / 1000} s` },
    ]);
  let result;
  try {
    result = await servicePool().run({ kind: 'search-match', spec, pages: slim, deadline }, { signal: AbortSignal.timeout(SEARCH_DEADLINE_MS + 2_000), onProgress: () => undefined });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) throw tooLong();
    throw error;
  }
  if (result.matches === null) throw tooLong();
  return result.matches;
}

/** Every match in the case, page by page, from the index brought up to date first. */
async function findMatches(db: Executor, ctx: ServiceContext, caseId: number, body: SearchBody): Promise<PageMatches[]> {
  await requireCase(db, ctx, caseId);
  const spec = { query: body.query, mode: body.mode, wholeWord: body.whole_word, caseSensitive: body.case_sensitive };
  // Compiled here too: a bad pattern is a 400 before anything is read.
  const compiled = compileSearch(spec);
  const organizationId = ctx.actor.organizationId;
  const names = new Map((await listLiveCaseDocumentNames(db, organizationId, caseId)).map((row) => [row.id, row.file_name]));
  const documentIds = body.document_ids?.map(Number);
  if (documentIds) {
    const missing = documentIds.filter((id) => !names.has(id));
    if (missing.length > 0) {
      throw new DomainError('validation_error', `document_ids names documents that are not in case ${caseId}: ${missing.slice(0, 10).join(', ')}`, [
        { field: 'document_ids', message: `not documents of this case: ${missing.slice(0, 10).join(', ')}` },
      ]);
    }
  }
  await catchUpSearchIndex(db);
  const wanted = documentIds ? new Set(documentIds) : names;
  const cached = await cachedCasePages(db, organizationId, caseId);
  const pages = cached
    ? cached.filter((page) => wanted.has(page.document_id))
    : await listSearchPages(db, { organizationId, caseId, documentIds }, compiled.ftsQuery, compiled.reads);
  const found = await matchOnWorker(spec, compiled.reads, pages);
  const result: PageMatches[] = [];
  pages.forEach((page, index) => {
    const matches = found[index] ?? [];
    const indexed = compiled.reads === 'text' ? page.text : page.folded;
    if (matches.length > 0) result.push({ document_id: page.document_id, page_number: page.page_number, unit: page.unit, file_name: names.get(page.document_id) ?? '', indexed, matches });
  });
  return result;
}

/** The hits of some matches of one page, with their boxes (from the page's stored words). */
async function hitsOfPage(db: Executor, ctx: ServiceContext, page: PageMatches, matches: readonly TextMatch[]): Promise<{ hit: SearchHit; pieces: SearchHit['box'][] }[]> {
  const row = await findPageWords(db, ctx.actor.organizationId, page.document_id, page.page_number);
  if (!row) return [];
  const words = JSON.parse(row.words) as PageWord[];
  const text = buildPageText(row.text, words);
  // The index is caught up in the same read, so this differs only if OCR replaced the page in between.
  if (text.folded !== page.indexed && text.text !== page.indexed) return [];
  const hits: { hit: SearchHit; pieces: SearchHit['box'][] }[] = [];
  for (const match of matches) {
    const boxes = matchBoxes(text, words, match);
    if (!boxes) continue;
    hits.push({
      hit: {
        ref: hitRef(page.document_id, page.page_number, match),
        document_id: String(page.document_id),
        file_name: page.file_name,
        page: page.page_number,
        text: text.text.slice(match.start, match.end),
        context: contextOf(text.text, match),
        box: boxes.box,
        ...(boxes.pieces.length > 1 && { boxes: boxes.pieces }),
        units: page.unit === 'pdf_points' ? 'pdf_points' : 'pixels',
      },
      pieces: boxes.pieces,
    });
  }
  return hits;
}

const after = (cursor: Cursor | undefined, page: PageMatches, match: TextMatch) =>
  !cursor || page.document_id > cursor.d || (page.document_id === cursor.d && (page.page_number > cursor.p || (page.page_number === cursor.p && match.start > cursor.s)));

export interface SearchPage {
  hits: SearchHit[];
  total: number;
  cursor: string | null;
}

/** One page of hits in (document, page, position) order, the total over the whole case, and the next cursor. */
export async function searchCase(db: Executor, ctx: ServiceContext, caseId: number, body: SearchBody, page: { limit: number; cursor?: string | undefined }): Promise<SearchPage> {
  const cursor = decodeSearchCursor(page.cursor);
  const pages = await findMatches(db, ctx, caseId, body);
  const total = pages.reduce((sum, entry) => sum + entry.matches.length, 0);
  const hits: SearchHit[] = [];
  let more = false;
  for (const entry of pages) {
    const wanted = entry.matches.filter((match) => after(cursor, entry, match));
    if (wanted.length === 0) continue;
    if (hits.length >= page.limit) {
      more = true;
      break;
    }
    const slice = wanted.slice(0, page.limit - hits.length);
    hits.push(...(await hitsOfPage(db, ctx, entry, slice)).map((entry) => entry.hit));
    if (slice.length < wanted.length) {
      more = true;
      break;
    }
  }
  const last = hits.at(-1);
  const next = more && last ? { d: Number(last.document_id), p: last.page, s: Number(last.ref.split(':')[2]?.split('-')[0]) } : null;
  return { hits, total, cursor: next ? encodeSearchCursor(next) : null };
}

/** What search-and-redact will write: the boxes of every hit, per document (read outside any transaction). */
export interface SearchRedactPlan {
  documents: { documentId: number; boxes: { box: BoxInput; pendingReason: Record<string, unknown> }[] }[];
  hits: number;
  documentCount: number;
}

/**
 * One redaction per hit (one per line piece when a hit spans lines) on the chosen layer, pending or
 * accepted. Ids derive from document, layer, page and box, so repeating the request creates nothing new.
 * Matching and reading happen here, before the transaction; applySearchRedactions holds only the writes.
 */
export async function planSearchRedactions(db: Executor, ctx: ServiceContext, caseId: number, body: SearchRedactBody): Promise<SearchRedactPlan> {
  const pages = await findMatches(db, ctx, caseId, body);
  const exclude = new Set(body.exclude ?? []);
  const byDocument = new Map<number, PageMatches[]>();
  for (const page of pages) byDocument.set(page.document_id, [...(byDocument.get(page.document_id) ?? []), page]);
  const documents = new Map((await findDocumentsByIds(db, ctx.actor.organizationId, [...byDocument.keys()])).map((row) => [row.id, row]));
  const plan: SearchRedactPlan = { documents: [], hits: 0, documentCount: 0 };
  for (const [documentId, documentPages] of byDocument) {
    const document = documents.get(documentId);
    if (!document) continue;
    const source = sourceForDocumentType(document.document_type);
    const seen = new Set<string>();
    const boxes: SearchRedactPlan['documents'][number]['boxes'] = [];
    const hitsBefore = plan.hits;
    for (const page of documentPages) {
      const wanted = page.matches.filter((match) => !exclude.has(hitRef(documentId, page.page_number, match)));
      for (const { hit, pieces } of await hitsOfPage(db, ctx, page, wanted)) {
        plan.hits += 1;
        for (const piece of pieces) {
          const redactionId = uuidFrom(`obscura-search|${documentId}|${body.layer}|${page.page_number}|${piece.x1.toFixed(2)}|${piece.y1.toFixed(2)}|${piece.x2.toFixed(2)}|${piece.y2.toFixed(2)}`);
          if (seen.has(redactionId)) continue;
          seen.add(redactionId);
          boxes.push({
            box: { redactionId, source, layer: body.layer, kind: 'rectangle', page: page.page_number, ...piece, points: [], reason: body.exemption ?? null, classificationType: null },
            pendingReason: { source: 'search', mode: body.mode, query: body.query.slice(0, 200), text: hit.text },
          });
        }
      }
    }
    if (plan.hits > hitsBefore) plan.documentCount += 1;
    if (boxes.length > 0) plan.documents.push({ documentId, boxes });
  }
  return plan;
}

/** Writes a plan: boxes already on the document (read again here) are skipped. Call inside a transaction. */
export async function applySearchRedactions(db: Executor, ctx: ServiceContext, caseId: number, body: SearchRedactBody, plan: SearchRedactPlan): Promise<SearchRedactResult> {
  await requireCase(db, ctx, caseId);
  const redactionIds: string[] = [];
  for (const { documentId, boxes: planned } of plan.documents) {
    const existing = new Set((await listDocumentRedactions(db, documentId)).map((row) => row.redaction_id));
    const boxes = planned.filter((entry) => !existing.has(entry.box.redactionId));
    if (boxes.length === 0) continue;
    const change = body.state === 'pending' ? { staged: boxes } : { upserts: boxes.map((entry) => entry.box) };
    const result = await writeLayer(db, ctx, documentId, body.layer, change, { origin: 'api' });
    const created = new Set(result.created);
    redactionIds.push(...result.boxes.filter((box) => created.has(box.redactionId)).map((box) => String(box.rowId)));
  }
  await recordChange(db, ctx, {
    action: 'search.redact',
    resourceType: 'case',
    resourceId: caseId,
    details: { mode: body.mode, query: body.query.slice(0, 200), layer: body.layer, state: body.state, hits: plan.hits, created: redactionIds.length },
  });
  return { created: redactionIds.length, redaction_ids: redactionIds, hits: plan.hits, documents: plan.documentCount };
}
