import os from 'node:os';
import type { Executor } from '../main/db/queries/executor.js';
import { WorkerPool } from '../main/jobs/pool.js';
import { startIntake } from '../main/services/intake/index.js';
import { findExactDuplicate, findNearDuplicate, NEAR_DUPLICATE_THRESHOLD, rethread, rethreadCase, similarity } from '../main/services/intake/relations.js';
import { createCase, minimalPdf, startInstance, uploadDocuments } from '../test/helpers/instance.js';
import { composeMessage } from '../test/helpers/intake-support.js';
import { fmt, fmtInt } from './lib/format.js';
import type { Benchmark, BenchReport } from './types.js';

// Issue 19: e-mail intake of generated messages (nodemailer's MIME composer): 30% carry an attachment (a PDF
// or a text file), 20% are duplicates (half the same bytes again, half the same Message-ID and body under
// other transport headers). All are uploaded first; then the intake runner converts them on the worker pool
// and the clock runs until every message and attachment has settled. Peak memory is the process RSS (the
// worker threads live in it), sampled every 50 ms.
//
// Scaling: de-duplication and threading look up indexed neighbours of each message (migration 19). After
// each run, 100 of the case's messages are looked up again as intake does (exact, near, threading) and by a
// whole-case scan (every signature compared, every message threaded again: what intake did before), timed per
// message: the indexed cost stays flat as the case grows, the scan's grows with it.
//
// BENCH_INTAKE_MESSAGES (default 1000; a list such as 1000,3000 runs each size and prints a scaling line),
// BENCH_INTAKE_THREADS (pool size, default the pool's own).

const WORDS = (
  'the harbour committee reviewed the dredging tender and the lighthouse repairs budget for the coming year ' +
  'please send the signed contract to the records office before friday so the council can approve the payment ' +
  'minutes of the meeting are attached together with the inspection report of the east pier and the ferry schedule'
).split(' ');

function envCount(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

function paragraph(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)] ?? 'the').join(' ');
}

interface Generated {
  name: string;
  bytes: Buffer;
  duplicate: boolean;
  attachment: boolean;
}

async function generate(count: number): Promise<Generated[]> {
  const random = seeded(19);
  const originals: Generated[] = [];
  const out: Generated[] = [];
  const uniqueCount = Math.round(count * 0.8);
  for (let index = 0; index < uniqueCount; index += 1) {
    const attachment = index % 10 < 3;
    const text = Array.from({ length: 2 + Math.floor(random() * 6) }, () => paragraph(random, 40 + Math.floor(random() * 80))).join('\n\n');
    const bytes = await composeMessage({
      from: `sender${index % 97}@example.org`,
      to: [`clerk${index % 13}@city.example.gov`, `member${index % 31}@example.net`],
      subject: `Harbour matter ${index}`,
      messageId: `<bench-${index}@example.org>`,
      date: new Date(Date.UTC(2025, 0, 1, 0, index)),
      text: `Message ${index}.\n\n${text}`,
      attachments: attachment ? [index % 2 === 0 ? { filename: `report-${index}.pdf`, content: minimalPdf(`Report ${index}`) } : { filename: `notes-${index}.txt`, content: `Notes ${index}\n${paragraph(random, 60)}` }] : [],
    });
    const entry = { name: `message-${index}.eml`, bytes, duplicate: false, attachment };
    originals.push(entry);
    out.push(entry);
  }
  for (let index = 0; out.length < count; index += 1) {
    const original = originals[Math.floor(random() * originals.length)] as Generated;
    // Half: the very same file from another mailbox export; half: the same message with other transport headers.
    const bytes = index % 2 === 0 ? original.bytes : Buffer.concat([Buffer.from(`Received: from relay${index}.example.net by mx.example.gov; Tue, 1 Apr 2025 10:00:00 +0000\r\n`), original.bytes]);
    out.push({ name: `copy-${index}.eml`, bytes, duplicate: true, attachment: original.attachment });
  }
  return out;
}

interface RunResult {
  count: number;
  threads: number;
  messagesMs: number;
  elapsedMs: number;
  perSecond: number;
  pages: number;
  children: number;
  duplicates: number;
  near: number;
  failed: number;
  peakRss: number;
  uploadMs: number;
  cpuMs: number;
  expectedDuplicates: number;
  expectedChildren: number;
  indexedMs: number;
  scanMs: number;
}

/** The whole-case near-duplicate scan intake did before migration 19 (every earlier signature compared). */
async function scanNearDuplicate(db: Executor, caseId: number, documentId: number, signature: readonly number[]): Promise<number | null> {
  const rows = await db.selectFrom('document_intake as i').innerJoin('documents as d', 'd.id', 'i.document_id').select(['d.id', 'i.minhash']).where('i.case_id', '=', caseId).where('d.id', '<', documentId).where('d.deleted_at', 'is', null).where('d.duplicate_of', 'is', null).where('i.minhash', 'is not', null).execute();
  let best: { id: number; score: number } | null = null;
  for (const row of rows) {
    const score = similarity(signature, JSON.parse(row.minhash ?? '[]') as number[]);
    if (score >= NEAR_DUPLICATE_THRESHOLD && (!best || score > best.score)) best = { id: row.id, score };
  }
  return best?.id ?? null;
}

/** Milliseconds per message for intake's indexed lookups and for the whole-case scan, on 100 messages of the case. */
async function probeRelations(db: Executor, caseId: number): Promise<{ indexedMs: number; scanMs: number }> {
  const rows = await db
    .selectFrom('documents as d')
    .innerJoin('document_intake as i', 'i.document_id', 'd.id')
    .select(['d.id', 'i.original_sha256', 'i.message_id', 'i.body_hash', 'i.minhash'])
    .where('d.case_id', '=', caseId)
    .where('d.email', 'is not', null)
    .where('i.minhash', 'is not', null)
    .orderBy('d.id')
    .execute();
  const step = Math.max(1, Math.floor(rows.length / 100));
  const sample = rows.filter((_, index) => index % step === 0).slice(0, 100);
  const time = async (work: (trx: Executor, row: (typeof rows)[number], signature: number[]) => Promise<unknown>) => {
    const start = performance.now();
    for (const row of sample) await db.transaction().execute((trx) => work(trx, row, JSON.parse(row.minhash ?? '[]') as number[]));
    return (performance.now() - start) / Math.max(1, sample.length);
  };
  // Warm-up (JIT, page cache) before either is timed.
  for (const row of sample.slice(0, 10)) await db.transaction().execute((trx) => rethread(trx, caseId, row.id));
  const indexedMs = await time(async (trx, row, signature) => {
    await findExactDuplicate(trx, caseId, row.id, { originalSha256: row.original_sha256, messageId: row.message_id, bodyHash: row.body_hash });
    await findNearDuplicate(trx, caseId, row.id, signature);
    await rethread(trx, caseId, row.id);
  });
  const scanMs = await time(async (trx, row, signature) => {
    await findExactDuplicate(trx, caseId, row.id, { originalSha256: row.original_sha256, messageId: row.message_id, bodyHash: row.body_hash });
    await scanNearDuplicate(trx, caseId, row.id, signature);
    await rethreadCase(trx, caseId);
  });
  return { indexedMs, scanMs };
}

async function runOnce(count: number, threads: number | undefined, settings: Parameters<Benchmark['run']>[0]): Promise<RunResult> {
  const instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
  const pool = new WorkerPool(threads);
  try {
    const caseId = await createCase(instance, 'Intake bench');
    settings.log(`generating ${count} messages`);
    const messages = await generate(count);
    const uploadStart = performance.now();
    for (let offset = 0; offset < messages.length; offset += 100) await uploadDocuments(instance, caseId, messages.slice(offset, offset + 100));
    const uploadMs = performance.now() - uploadStart;
    settings.log(`uploaded ${count} messages in ${fmt(uploadMs / 1000)} s; converting on ${pool.size} threads`);
    let peakRss = process.memoryUsage.rss();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    const runner = await startIntake(instance.runtime, pool);
    const db = instance.runtime.db;
    let messagesDoneMs = 0;
    try {
      for (;;) {
        const open = await db
          .selectFrom('documents as d')
          .leftJoin('document_intake as i', 'i.document_id', 'd.id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('d.case_id', '=', Number(caseId))
          .where('d.document_type', 'in', ['email', 'office', 'text'])
          .where((eb) => eb.or([eb('i.status', 'is', null), eb('i.status', 'in', ['pending', 'converting'])]))
          .executeTakeFirstOrThrow();
        const topOpen = await db
          .selectFrom('documents as d')
          .leftJoin('document_intake as i', 'i.document_id', 'd.id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('d.case_id', '=', Number(caseId))
          .where('d.parent_document_id', 'is', null)
          .where((eb) => eb.or([eb('i.status', 'is', null), eb('i.status', 'in', ['pending', 'converting'])]))
          .executeTakeFirstOrThrow();
        if (messagesDoneMs === 0 && Number(topOpen.n) === 0) messagesDoneMs = performance.now() - start;
        if (Number(open.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await runner.stop();
      clearInterval(sampler);
    }
    const elapsedMs = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    const rows = await db.selectFrom('documents as d').innerJoin('document_intake as i', 'i.document_id', 'd.id').select(['d.parent_document_id', 'd.duplicate_of', 'i.status', 'i.pages', 'i.near_duplicate_of']).where('d.case_id', '=', Number(caseId)).execute();
    const top = rows.filter((row) => row.parent_document_id === null);
    const children = await db.selectFrom('documents').select((eb) => eb.fn.countAll<number>().as('n')).where('case_id', '=', Number(caseId)).where('parent_document_id', 'is not', null).executeTakeFirstOrThrow();
    settings.log(`probing de-duplication and threading lookups at ${count} messages`);
    const probe = await probeRelations(db, Number(caseId));
    return {
      count,
      threads: pool.size,
      messagesMs: messagesDoneMs,
      elapsedMs,
      perSecond: count / (messagesDoneMs / 1000),
      pages: rows.reduce((sum, row) => sum + (row.pages ?? 0), 0),
      children: Number(children.n),
      duplicates: top.filter((row) => row.duplicate_of !== null).length,
      near: top.filter((row) => row.near_duplicate_of !== null).length,
      failed: rows.filter((row) => row.status === 'failed').length,
      peakRss,
      uploadMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      expectedDuplicates: messages.filter((message) => message.duplicate).length,
      expectedChildren: messages.filter((message) => message.attachment && !message.duplicate).length,
      ...probe,
    };
  } finally {
    await pool.destroy();
    await instance.close();
  }
}

export const intakeBench: Benchmark = {
  name: 'intake',
  description: 'e-mail intake: 1,000 generated messages (30% attachments, 20% duplicates) to PDF: messages/s, pages, duplicates, peak memory, dedup/threading lookup cost',
  async run(settings): Promise<BenchReport> {
    const counts = (process.env.BENCH_INTAKE_MESSAGES ?? '1000').split(',').map((value) => {
      const count = Number(value.trim());
      if (!Number.isInteger(count) || count < 1) throw new Error('BENCH_INTAKE_MESSAGES must be a positive integer or a comma-separated list of them');
      return count;
    });
    const threads = process.env.BENCH_INTAKE_THREADS ? envCount('BENCH_INTAKE_THREADS', 1) : undefined;
    const results: RunResult[] = [];
    for (const count of counts) results.push(await runOnce(count, threads, settings));
    const table = [['messages', 'threads', 'messages/s', 'all settled s', 'pages', 'attachments', 'duplicates', 'near-dups', 'failed', 'peak RSS MiB', 'CPU ms/msg', 'lookups ms/msg', 'whole-case scan ms/msg']];
    for (const r of results) {
      table.push([fmtInt(r.count), String(r.threads), fmt(r.perSecond), fmt(r.elapsedMs / 1000), fmtInt(r.pages), fmtInt(r.children), fmtInt(r.duplicates), fmtInt(r.near), fmtInt(r.failed), fmt(r.peakRss / 1024 / 1024, 0), fmt(r.cpuMs / r.count, 1), fmt(r.indexedMs), fmt(r.scanMs)]);
    }
    const notes = results.flatMap((r) => [
      `${fmtInt(r.count)}: messages converted in ${fmt(r.messagesMs / 1000)} s (${fmt(r.perSecond)} messages/s); with their attachments ${fmt(r.elapsedMs / 1000)} s; process CPU (main and worker threads) ${fmt(r.cpuMs / 1000)} s; upload through upload sessions ${fmt(r.uploadMs / 1000)} s (not in the rate)`,
    ]);
    const [first, last] = [results[0] as RunResult, results.at(-1) as RunResult];
    if (results.length > 1) {
      const growth = last.count / first.count;
      notes.push(
        `scaling ${fmtInt(first.count)} → ${fmtInt(last.count)} messages (×${fmt(growth, 1)}): messages/s ×${fmt(last.perSecond / first.perSecond)}; process CPU per message ×${fmt(last.cpuMs / last.count / (first.cpuMs / first.count))}; indexed lookups per message ×${fmt(last.indexedMs / first.indexedMs)}; whole-case scan per message ×${fmt(last.scanMs / first.scanMs)}`,
      );
    }
    notes.push(`lookups: exact, near-duplicate and threading for 100 messages of the case as intake does them (indexed) and by reading the whole case (what intake did before migration 19)`);
    notes.push(`load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
    return {
      title: `Intake: ${results.map((r) => `${fmtInt(r.count)} generated messages, ${fmtInt(r.expectedChildren)} with an attachment, ${fmtInt(r.expectedDuplicates)} duplicates`).join('; ')}`,
      table,
      notes,
      checks: results.flatMap((r) => [
        { name: `${r.count}: every duplicate found`, pass: r.duplicates === r.expectedDuplicates, detail: `${r.duplicates} of ${r.expectedDuplicates}` },
        { name: `${r.count}: every attachment a child document`, pass: r.children === r.expectedChildren, detail: `${r.children} of ${r.expectedChildren}` },
        { name: `${r.count}: nothing failed`, pass: r.failed === 0, detail: `${r.failed} failed` },
      ]),
      data: results,
    };
  },
};
