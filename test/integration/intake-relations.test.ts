import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEAR_DUPLICATE_THRESHOLD, rethreadCase, similarity } from '../../main/services/intake/relations.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { composeMessage, settledIntake, startIntakeInstance, type IntakeHarness } from '../helpers/intake-support.js';

// De-duplication and threading read only indexed neighbours of each new message (migration 19). Checked here
// against the whole-case answer on a tangled mailbox: replies that arrive before what they answer, replies
// to messages never received, replies under a new subject, chains joined by subject alone, subjects shared
// by unrelated chains,
// exact copies and lightly edited copies, uploaded in shuffled order.

const WORDS = 'harbour dredging tender lighthouse budget pier ferry council minutes contract payment records inspection survey bond insurance'.split(' ');

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

interface Planned {
  messageId: string;
  subject: string;
  inReplyTo?: string;
  references?: string[];
  text: string;
}

function plan(random: () => number): Planned[] {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const out: Planned[] = [];
  for (let topic = 0; topic < 8; topic += 1) {
    const subject = topic % 4 === 3 ? 'Weekly report' : `Topic ${topic}`;
    const chain: Planned[] = [{ messageId: `<t${topic}-0@example.org>`, subject, text: sentence(150) }];
    for (let reply = 1; reply < 6; reply += 1) {
      const parent = pick(chain);
      const kind = random();
      const entry: Planned =
        kind < 0.6
          ? { messageId: `<t${topic}-${reply}@example.org>`, subject: random() < 0.5 ? `Re: ${parent.subject.replace(/^Re: /, '')}` : `Re: changed subject ${topic}.${reply}`, inReplyTo: parent.messageId, references: [...(parent.references ?? []), parent.messageId], text: sentence(120) }
          : kind < 0.8
            ? { messageId: `<t${topic}-${reply}@example.org>`, subject: `RE: ${subject}`, inReplyTo: `<never-received-${topic}-${reply}@example.org>`, text: sentence(120) }
            : { messageId: `<t${topic}-${reply}@example.org>`, subject: `Fwd: ${subject}`, text: sentence(120) };
      chain.push(entry);
    }
    out.push(...chain);
  }
  // Lightly edited copies (near-duplicates) of a few messages, under new Message-IDs.
  for (let copy = 0; copy < 6; copy += 1) {
    const source = pick(out);
    const words = source.text.split(' ');
    words[Math.floor(random() * words.length)] = 'amended';
    out.push({ ...source, messageId: `<edit-${copy}@example.org>`, text: words.join(' ') });
  }
  return out;
}

let h: IntakeHarness;
beforeAll(async () => {
  h = await startIntakeInstance();
});
afterAll(async () => {
  await h.close();
});

describe('indexed de-duplication and threading', () => {
  it('agree with grouping and comparing the whole case', async () => {
    const random = seeded(1909);
    const caseId = await createCase(h.instance, 'Tangled mailbox');
    const files: { name: string; bytes: Buffer }[] = [];
    for (const [index, message] of plan(random).entries()) {
      const bytes = await composeMessage({
        from: 'desk@example.org',
        to: 'clerk@example.gov',
        subject: message.subject,
        messageId: message.messageId,
        inReplyTo: message.inReplyTo,
        references: message.references,
        date: new Date(Date.UTC(2025, 1, 1, 0, index)),
        text: message.text,
      });
      files.push({ name: `m${index}.eml`, bytes });
      if (index % 7 === 0) files.push({ name: `copy${index}.eml`, bytes });
    }
    for (let index = files.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [files[index], files[other]] = [files[other] as (typeof files)[number], files[index] as (typeof files)[number]];
    }
    const ids: string[] = [];
    for (let offset = 0; offset < files.length; offset += 20) ids.push(...(await uploadDocuments(h.instance, caseId, files.slice(offset, offset + 20))).map((document) => document.id));
    for (const id of ids) expect(await settledIntake(h.instance, id, 120_000)).toMatchObject({ status: 'converted' });

    const db = h.instance.runtime.db;
    const snapshot = () =>
      db
        .selectFrom('documents as d')
        .innerJoin('document_intake as i', 'i.document_id', 'd.id')
        .select(['d.id', 'd.thread_id', 'd.duplicate_of', 'i.thread_inclusive', 'i.near_duplicate_of', 'i.near_duplicate_score', 'i.minhash'])
        .where('d.case_id', '=', Number(caseId))
        .orderBy('d.id')
        .execute();
    const incremental = await snapshot();
    const threads = new Set(incremental.map((row) => row.thread_id));
    // The mailbox really is tangled: several threads, some of several messages, exact and near duplicates.
    expect(threads.size).toBeGreaterThan(5);
    expect(threads.size).toBeLessThan(incremental.length / 2);
    expect(incremental.filter((row) => row.duplicate_of !== null).length).toBeGreaterThanOrEqual(5);
    expect(incremental.filter((row) => row.near_duplicate_of !== null).length).toBeGreaterThanOrEqual(3);

    await db.transaction().execute((trx) => rethreadCase(trx, Number(caseId)));
    const whole = await snapshot();
    expect(whole.map((row) => [row.id, row.thread_id, row.thread_inclusive])).toEqual(incremental.map((row) => [row.id, row.thread_id, row.thread_inclusive]));

    // Near-duplicates: the best earlier non-duplicate at or above the threshold, by comparing with every one.
    for (const row of incremental) {
      if (row.duplicate_of !== null || !row.minhash) continue;
      const signature = JSON.parse(row.minhash) as number[];
      let best: { id: number; score: number } | null = null;
      for (const other of incremental) {
        if (other.id >= row.id || other.duplicate_of !== null || !other.minhash) continue;
        const score = similarity(signature, JSON.parse(other.minhash) as number[]);
        if (score >= NEAR_DUPLICATE_THRESHOLD && (!best || score > best.score)) best = { id: other.id, score };
      }
      expect([row.id, row.near_duplicate_of]).toEqual([row.id, best?.id ?? null]);
    }
  }, 300_000);
});
