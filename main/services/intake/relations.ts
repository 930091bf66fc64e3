import type { Executor } from '../../db/queries/executor.js';
import type { EmailHeaders } from '../../common/schemas/documents.js';

/** Near-duplicate when the estimated Jaccard similarity of 5-word shingles is at least this (docs/api.md). */
export const NEAR_DUPLICATE_THRESHOLD = 0.8;

export function similarity(a: readonly number[], b: readonly number[]): number {
  let same = 0;
  for (let index = 0; index < a.length; index += 1) if (a[index] === b[index]) same += 1;
  return a.length === 0 ? 0 : same / a.length;
}

/** The first earlier copy in the case: same original bytes, or same Message-ID and body hash. */
export async function findExactDuplicate(
  db: Executor,
  caseId: number,
  documentId: number,
  facts: { originalSha256: string; messageId: string | null; bodyHash: string | null },
): Promise<number | null> {
  let query = db
    .selectFrom('document_intake as i')
    .innerJoin('documents as d', 'd.id', 'i.document_id')
    .select(['d.id', 'd.duplicate_of'])
    .where('i.case_id', '=', caseId)
    .where('d.id', '<', documentId)
    .where('d.deleted_at', 'is', null);
  query = query.where((eb) =>
    facts.messageId && facts.bodyHash
      ? eb.or([eb('i.original_sha256', '=', facts.originalSha256), eb.and([eb('i.message_id', '=', facts.messageId), eb('i.body_hash', '=', facts.bodyHash)])])
      : eb('i.original_sha256', '=', facts.originalSha256),
  );
  const row = await query.orderBy('d.id').executeTakeFirst();
  return row ? (row.duplicate_of ?? row.id) : null;
}

/** The most similar earlier converted document of the case at or above the threshold (exact duplicates left out). */
export async function findNearDuplicate(db: Executor, caseId: number, documentId: number, signature: readonly number[]): Promise<{ id: number; score: number } | null> {
  const rows = await db
    .selectFrom('document_intake as i')
    .innerJoin('documents as d', 'd.id', 'i.document_id')
    .select(['d.id', 'i.minhash'])
    .where('i.case_id', '=', caseId)
    .where('d.id', '<', documentId)
    .where('d.deleted_at', 'is', null)
    .where('d.duplicate_of', 'is', null)
    .where('i.minhash', 'is not', null)
    .execute();
  let best: { id: number; score: number } | null = null;
  for (const row of rows) {
    const score = similarity(signature, JSON.parse(row.minhash ?? '[]') as number[]);
    if (score >= NEAR_DUPLICATE_THRESHOLD && (!best || score > best.score)) best = { id: row.id, score };
  }
  return best;
}

/**
 * Groups a case's messages into threads: Message-ID against In-Reply-To/References, and, for a message
 * whose references reach no message of the case, the same subject without Re:/Fwd:. A thread's id is
 * `t<lowest document id>`. A message no other message of its thread answers is "inclusive" (it holds the
 * thread's history as far as it goes); in a thread joined by subject alone, the latest one is.
 */
export async function rethread(db: Executor, caseId: number): Promise<void> {
  const rows = await db
    .selectFrom('document_intake as i')
    .innerJoin('documents as d', 'd.id', 'i.document_id')
    .select(['d.id', 'd.email', 'd.thread_id', 'd.duplicate_of', 'i.subject_key', 'i.thread_inclusive'])
    .where('i.case_id', '=', caseId)
    .where('i.status', '=', 'converted')
    .where('d.email', 'is not', null)
    .where('d.deleted_at', 'is', null)
    .orderBy('d.id')
    .execute();
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
    const targets = [email.in_reply_to, ...email.references].filter((ref): ref is string => Boolean(ref));
    for (const ref of targets) {
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
  const members = new Map<number, number[]>();
  for (const row of rows) members.set(find(row.id), [...(members.get(find(row.id)) ?? []), row.id]);
  for (const row of rows) {
    const root = find(row.id);
    const group = members.get(root) ?? [];
    const anyLinks = group.some((id) => linked.has(id));
    const inclusive = row.duplicate_of === null && (anyLinks ? !answered.has(row.id) && linked.has(row.id) : row.id === Math.max(...group)) ? 1 : 0;
    const threadId = `t${root}`;
    if (row.thread_id !== threadId) await db.updateTable('documents').set({ thread_id: threadId }).where('id', '=', row.id).execute();
    if (row.thread_inclusive !== inclusive) await db.updateTable('document_intake').set({ thread_inclusive: inclusive }).where('document_id', '=', row.id).execute();
  }
}
