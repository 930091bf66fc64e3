import type { Executor } from '../../db/queries/executor.js';
import type { EmailHeaders } from '../../common/schemas/documents.js';

/** Near-duplicate when the estimated Jaccard similarity of 5-word shingles is at least this (docs/api.md). */
export const NEAR_DUPLICATE_THRESHOLD = 0.8;
/**
 * LSH bands over the 64 MinHash minima (migration 19): 16 bands of 4. A pair at or above the threshold
 * differs in at most 12 minima, which can spoil at most 12 bands: at least 4 bands agree whole, so the band
 * lookup misses no near-duplicate.
 */
const BANDS = 16;
const ROWS = 4;
/** SQLite's bound-parameter ceiling is far above this; chunks keep IN lists short on both engines. */
const CHUNK = 500;

export function similarity(a: readonly number[], b: readonly number[]): number {
  let same = 0;
  for (let index = 0; index < a.length; index += 1) if (a[index] === b[index]) same += 1;
  return a.length === 0 ? 0 : same / a.length;
}

/** Band number and 12 bits of each of its minima, packed below 2^52 (the migration computes the same). */
export function bandKeys(signature: readonly number[]): number[] {
  const keys: number[] = [];
  for (let band = 0; band < BANDS && (band + 1) * ROWS <= signature.length; band += 1) {
    let key = band;
    for (let row = 0; row < ROWS; row += 1) key = key * 4096 + ((signature[band * ROWS + row] ?? 0) & 4095);
    keys.push(key);
  }
  return keys;
}

/** Short IN lists for both engines (the intake service's batched reads use it too). */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

/** The Message-IDs a message answers (In-Reply-To and References), each once. */
function referencesOf(email: EmailHeaders | null): string[] {
  return [...new Set([email?.in_reply_to, ...(email?.references ?? [])].filter((ref): ref is string => Boolean(ref)))];
}

/** The first earlier copy in the case: same original bytes, or same Message-ID and body hash (two indexed lookups). */
export async function findExactDuplicate(
  db: Executor,
  caseId: number,
  documentId: number,
  facts: { originalSha256: string; messageId: string | null; bodyHash: string | null },
): Promise<number | null> {
  const earlier = () =>
    db.selectFrom('document_intake as i').innerJoin('documents as d', 'd.id', 'i.document_id').select(['d.id', 'd.duplicate_of']).where('i.case_id', '=', caseId).where('d.id', '<', documentId).where('d.deleted_at', 'is', null);
  const found = [await earlier().where('i.original_sha256', '=', facts.originalSha256).orderBy('d.id').limit(1).executeTakeFirst()];
  if (facts.messageId && facts.bodyHash) found.push(await earlier().where('i.message_id', '=', facts.messageId).where('i.body_hash', '=', facts.bodyHash).orderBy('d.id').limit(1).executeTakeFirst());
  const first = found.filter((row) => row !== undefined).sort((a, b) => a.id - b.id)[0];
  return first ? (first.duplicate_of ?? first.id) : null;
}

/** The most similar earlier converted document of the case at or above the threshold (exact duplicates left out), among those sharing a band. */
export async function findNearDuplicate(db: Executor, caseId: number, documentId: number, signature: readonly number[]): Promise<{ id: number; score: number } | null> {
  const keys = bandKeys(signature);
  if (keys.length === 0) return null;
  const candidates = await db.selectFrom('intake_minhash_bands').select('document_id').distinct().where('case_id', '=', caseId).where('band_key', 'in', keys).where('document_id', '<', documentId).execute();
  let best: { id: number; score: number } | null = null;
  for (const part of chunks(candidates.map((row) => row.document_id))) {
    const rows = await db
      .selectFrom('document_intake as i')
      .innerJoin('documents as d', 'd.id', 'i.document_id')
      .select(['d.id', 'i.minhash'])
      .where('d.id', 'in', part)
      .where('d.deleted_at', 'is', null)
      .where('d.duplicate_of', 'is', null)
      .where('i.minhash', 'is not', null)
      .execute();
    for (const row of rows) {
      const score = similarity(signature, JSON.parse(row.minhash ?? '[]') as number[]);
      if (score >= NEAR_DUPLICATE_THRESHOLD && (!best || score > best.score || (score === best.score && row.id < best.id))) best = { id: row.id, score };
    }
  }
  return best;
}

/** Records a converted document's band keys (not for exact duplicates: they are never candidates) and the Message-IDs it names. */
export async function indexIntakeFacts(db: Executor, caseId: number, documentId: number, facts: { minhash: readonly number[] | null; duplicateOf: number | null; email: EmailHeaders | null }): Promise<void> {
  if (facts.minhash && facts.duplicateOf === null) {
    const keys = [...new Set(bandKeys(facts.minhash))];
    if (keys.length > 0) await db.insertInto('intake_minhash_bands').values(keys.map((band_key) => ({ case_id: caseId, band_key, document_id: documentId }))).onConflict((oc) => oc.doNothing()).execute();
  }
  for (const part of chunks(referencesOf(facts.email))) {
    await db.insertInto('intake_message_refs').values(part.map((ref) => ({ case_id: caseId, ref, document_id: documentId }))).onConflict((oc) => oc.doNothing()).execute();
  }
}

/** The case's converted, present messages. */
function messages(db: Executor, caseId: number) {
  return db
    .selectFrom('document_intake as i')
    .innerJoin('documents as d', 'd.id', 'i.document_id')
    .where('i.case_id', '=', caseId)
    .where('i.status', '=', 'converted')
    .where('d.email', 'is not', null)
    .where('d.deleted_at', 'is', null);
}
function threadRows(db: Executor, caseId: number) {
  return messages(db, caseId).select(['d.id', 'd.email', 'd.thread_id', 'd.duplicate_of', 'i.subject_key', 'i.thread_inclusive']);
}
type ThreadRow = Awaited<ReturnType<ReturnType<typeof threadRows>['execute']>>[number];

async function idsWhere(query: Promise<{ id: number }[]>, into: Set<number>): Promise<void> {
  for (const row of await query) into.add(row.id);
}

/**
 * Threads the case's messages after `documentId` was converted, reading only what it can change: the threads
 * of the messages it names, of those naming it, and of those with its subject. Together they are whole
 * threads before and after (a thread only grows or splits through links to the new message), so
 * grouping them alone gives what grouping the whole case would.
 */
export async function rethread(db: Executor, caseId: number, documentId: number): Promise<void> {
  const me = await threadRows(db, caseId).where('d.id', '=', documentId).executeTakeFirst();
  if (!me) return;
  const email = JSON.parse(me.email ?? '{}') as EmailHeaders;
  const seeds = new Set<number>([documentId]);
  for (const part of chunks(referencesOf(email))) await idsWhere(messages(db, caseId).select('d.id as id').where('i.message_id', 'in', part).execute(), seeds);
  if (email.message_id) await idsWhere(db.selectFrom('intake_message_refs').select('document_id as id').where('case_id', '=', caseId).where('ref', '=', email.message_id).execute(), seeds);
  if (me.subject_key) await idsWhere(messages(db, caseId).select('d.id as id').where('i.subject_key', '=', me.subject_key).execute(), seeds);
  const threads = new Set<string>();
  for (const part of chunks([...seeds])) {
    for (const row of await db.selectFrom('documents').select('thread_id').where('id', 'in', part).where('thread_id', 'is not', null).execute()) threads.add(row.thread_id as string);
  }
  const members = new Set(seeds);
  for (const part of chunks([...threads])) await idsWhere(db.selectFrom('documents').select('id').where('case_id', '=', caseId).where('thread_id', 'in', part).execute(), members);
  const rows: ThreadRow[] = [];
  for (const part of chunks([...members])) rows.push(...(await threadRows(db, caseId).where('d.id', 'in', part).execute()));
  await assignThreads(db, rows.sort((a, b) => a.id - b.id));
}

/** Threads every message of the case again (the reference the incremental rethread must agree with). */
export async function rethreadCase(db: Executor, caseId: number): Promise<void> {
  await assignThreads(db, await threadRows(db, caseId).orderBy('d.id').execute());
}

/**
 * Groups messages into threads: Message-ID against In-Reply-To/References, and, for a message whose
 * references reach no message of the set, the same subject without Re:/Fwd:. A thread's id is
 * `t<lowest document id>`. A message no other message of its thread answers is "inclusive" (it holds the
 * thread's history as far as it goes); in a thread joined by subject alone, the latest one is.
 */
async function assignThreads(db: Executor, rows: ThreadRow[]): Promise<void> {
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(id, root);
    return root;
  };
  const union = (a: number, b: number) => {
    const [x, y] = [find(a), find(b)];
    if (x !== y) parent.set(Math.max(x, y), Math.min(x, y));
  };
  const byMessageId = new Map<string, number[]>();
  const headers = new Map<number, EmailHeaders>();
  for (const row of rows) {
    parent.set(row.id, row.id);
    const email = JSON.parse(row.email ?? '{}') as EmailHeaders;
    headers.set(row.id, email);
    if (email.message_id) byMessageId.set(email.message_id, [...(byMessageId.get(email.message_id) ?? []), row.id]);
  }
  const answered = new Set<number>();
  const linked = new Set<number>();
  const bySubject = new Map<string, number>();
  for (const row of rows) {
    const email = headers.get(row.id) as EmailHeaders;
    for (const ref of referencesOf(email)) {
      for (const target of byMessageId.get(ref) ?? []) {
        if (target === row.id) continue;
        union(row.id, target);
        answered.add(target);
        linked.add(row.id);
        linked.add(target);
      }
    }
  }
  for (const row of rows) {
    if (linked.has(row.id) || !row.subject_key) continue;
    const first = bySubject.get(row.subject_key);
    if (first === undefined) bySubject.set(row.subject_key, row.id);
    else union(row.id, first);
  }
  const groups = new Map<number, { latest: number; anyLinks: boolean }>();
  for (const row of rows) {
    const root = find(row.id);
    const group = groups.get(root) ?? { latest: row.id, anyLinks: false };
    group.latest = Math.max(group.latest, row.id);
    group.anyLinks ||= linked.has(row.id);
    groups.set(root, group);
  }
  for (const row of rows) {
    const root = find(row.id);
    const group = groups.get(root) as { latest: number; anyLinks: boolean };
    const inclusive = row.duplicate_of === null && (group.anyLinks ? !answered.has(row.id) && linked.has(row.id) : row.id === group.latest) ? 1 : 0;
    const threadId = `t${root}`;
    if (row.thread_id !== threadId) await db.updateTable('documents').set({ thread_id: threadId }).where('id', '=', row.id).execute();
    if (row.thread_inclusive !== inclusive) await db.updateTable('document_intake').set({ thread_inclusive: inclusive }).where('document_id', '=', row.id).execute();
  }
}
