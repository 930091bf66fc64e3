import { DomainError } from '../../common/errors.js';
import { LAYER_INFO, isLayer } from '../../common/redaction-catalog.js';
import type { PageWord } from '../../common/schemas/pages.js';
import type { QueueItem, QueueQuery, QueueResult, ValueDecisionBody } from '../../common/schemas/review-queue.js';
import { findPageWords } from '../../db/queries/document-pages.js';
import type { Executor } from '../../db/queries/executor.js';
import { listCasePendingRedactions } from '../../db/queries/redactions.js';
import { requireCase } from '../cases.js';
import type { ServiceContext } from '../context.js';
import { recordReviewDecisions } from '../redactions/integration.js';
import { contextOf } from '../search/hits.js';
import { buildPageText, foldQuery, type PageText } from '../search/page-text.js';

// Every pending suggestion of a case with the words under it, for review across documents, and decisions
// on one value ("this name") everywhere in the case.

const MAX_ITEMS = 5000;

type Box = QueueItem['box'];

function kindOf(reason: Record<string, unknown> | null): { kind: string; label: string; score: number | null } {
  const score = typeof reason?.score === 'number' ? reason.score : null;
  if (typeof reason?.entity === 'string') return { kind: reason.entity, label: typeof reason.label === 'string' ? reason.label : reason.entity, score };
  if (reason?.source === 'search') return { kind: 'search', label: 'Search', score };
  return { kind: 'manual', label: 'Other', score };
}

/** The words whose middle lies inside the box, as one string, and the page string around them. */
function wordsUnder(page: { text: PageText; words: PageWord[] } | null, box: Box): { text: string; context: string } {
  if (!page) return { text: '', context: '' };
  const inside = page.text.spans.filter((span) => {
    const word = page.words[span.word];
    if (!word) return false;
    const x = (word.x1 + word.x2) / 2;
    const y = (word.y1 + word.y2) / 2;
    return x >= box.x1 && x <= box.x2 && y >= box.y1 && y <= box.y2;
  });
  const first = inside[0];
  const last = inside.at(-1);
  if (!first || !last) return { text: '', context: '' };
  const text = inside.map((span) => page.text.text.slice(span.start, span.end)).join(' ');
  return { text, context: contextOf(page.text.text, { start: first.start, end: last.end }) };
}

const normal = (value: string) => foldQuery(value).trim().replace(/\s+/g, ' ');

async function loadQueue(db: Executor, ctx: ServiceContext, caseId: number): Promise<QueueItem[]> {
  await requireCase(db, ctx, caseId);
  const rows = await listCasePendingRedactions(db, ctx.actor.organizationId, caseId, MAX_ITEMS);
  const pages = new Map<string, { text: PageText; words: PageWord[] } | null>();
  const items: QueueItem[] = [];
  for (const row of rows) {
    const key = `${row.document_id}:${row.page_number}`;
    if (!pages.has(key)) {
      const stored = await findPageWords(db, ctx.actor.organizationId, row.document_id, row.page_number);
      const words = stored ? (JSON.parse(stored.words) as PageWord[]) : [];
      pages.set(key, stored ? { text: buildPageText(stored.text, words), words } : null);
    }
    const box = { x1: row.x1, y1: row.y1, x2: row.x2, y2: row.y2 };
    const reason = row.pending_reason ? (JSON.parse(row.pending_reason) as Record<string, unknown>) : null;
    items.push({
      id: String(row.id),
      redaction_id: row.redaction_id,
      document_id: String(row.document_id),
      file_name: row.file_name,
      page: row.page_number,
      layer: row.layer,
      exemption: isLayer(row.layer) ? LAYER_INFO[row.layer].exemption : row.layer,
      ...kindOf(reason),
      ...wordsUnder(pages.get(key) ?? null, box),
      box,
    });
  }
  return items;
}

function matches(item: QueueItem, query: { kind?: string | undefined; document_id?: string | undefined; value?: string | undefined }): boolean {
  if (query.kind && item.kind !== query.kind) return false;
  if (query.document_id && item.document_id !== query.document_id) return false;
  if (query.value && normal(item.text) !== normal(query.value)) return false;
  return true;
}

/** The pending suggestions of a case (at most 5,000), filtered, with counts per kind of the filtered set. */
export async function listCaseSuggestions(db: Executor, ctx: ServiceContext, caseId: number, query: QueueQuery): Promise<QueueResult> {
  const items = (await loadQueue(db, ctx, caseId)).filter((item) => matches(item, query));
  const byKind: Record<string, number> = {};
  for (const item of items) byKind[item.kind] = (byKind[item.kind] ?? 0) + 1;
  return { items, total: items.length, by_kind: byKind };
}

/** Accepts or rejects every pending suggestion of the case whose text is `value` (of `kind`, if given). */
export async function decideValueInCase(db: Executor, ctx: ServiceContext, caseId: number, body: ValueDecisionBody): Promise<{ decided: number; documents: number }> {
  // A value that folds to nothing (only marks, zero-width or control characters) would match every suggestion without words.
  if (normal(body.value) === '') {
    throw new DomainError('validation_error', 'value has no letters or digits once case, accents and invisible characters are set aside', [{ field: 'value', location: 'body', message: 'folds to an empty value' }]);
  }
  const items = (await loadQueue(db, ctx, caseId)).filter((item) => matches(item, { kind: body.kind, value: body.value }));
  const byDocument = new Map<number, QueueItem[]>();
  for (const item of items) byDocument.set(Number(item.document_id), [...(byDocument.get(Number(item.document_id)) ?? []), item]);
  for (const [documentId, group] of byDocument) {
    await recordReviewDecisions(
      db,
      ctx,
      documentId,
      group.map((item) => ({ redaction_id: item.id, decision: body.decision, reason: body.reason ?? `${body.decision === 'accept' ? 'accepted' : 'rejected'} everywhere in the case: ${body.value}` })),
    );
  }
  return { decided: items.length, documents: byDocument.size };
}
