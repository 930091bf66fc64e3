import os from 'node:os';
import { WorkerPool } from '../main/jobs/pool.js';
import { startIntake } from '../main/services/intake/index.js';
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
// BENCH_INTAKE_MESSAGES (default 1000), BENCH_INTAKE_THREADS (pool size, default the pool's own).

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

export const intakeBench: Benchmark = {
  name: 'intake',
  description: 'e-mail intake: 1,000 generated messages (30% attachments, 20% duplicates) to PDF: messages/s, pages, duplicates, peak memory',
  async run(settings): Promise<BenchReport> {
    const count = envCount('BENCH_INTAKE_MESSAGES', 1000);
    const threads = process.env.BENCH_INTAKE_THREADS ? envCount('BENCH_INTAKE_THREADS', 1) : undefined;
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
      const failed = rows.filter((row) => row.status === 'failed').length;
      const pages = rows.reduce((sum, row) => sum + (row.pages ?? 0), 0);
      const duplicates = top.filter((row) => row.duplicate_of !== null).length;
      const near = top.filter((row) => row.near_duplicate_of !== null).length;
      const expectedDuplicates = messages.filter((message) => message.duplicate).length;
      const expectedChildren = messages.filter((message) => message.attachment && !message.duplicate).length;
      const perSecond = count / (messagesDoneMs / 1000);
      const table = [
        ['messages', 'threads', 'messages/s', 'all settled s', 'pages', 'attachments', 'duplicates', 'near-dups', 'failed', 'peak RSS MiB'],
        [fmtInt(count), String(pool.size), fmt(perSecond), fmt(elapsedMs / 1000), fmtInt(pages), fmtInt(Number(children.n)), fmtInt(duplicates), fmtInt(near), fmtInt(failed), fmt(peakRss / 1024 / 1024, 0)],
      ];
      return {
        title: `Intake: ${fmtInt(count)} generated messages, ${fmtInt(expectedChildren)} with an attachment, ${fmtInt(expectedDuplicates)} duplicates`,
        table,
        notes: [
          `messages converted in ${fmt(messagesDoneMs / 1000)} s (${fmt(perSecond)} messages/s); with their attachments ${fmt(elapsedMs / 1000)} s; process CPU (main and worker threads) ${fmt((cpu.user + cpu.system) / 1e6)} s`,
          `upload of ${fmtInt(count)} files through upload sessions: ${fmt(uploadMs / 1000)} s (not in the rate)`,
          `load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`,
        ],
        checks: [
          { name: 'every duplicate found', pass: duplicates === expectedDuplicates, detail: `${duplicates} of ${expectedDuplicates}` },
          { name: 'every attachment a child document', pass: Number(children.n) === expectedChildren, detail: `${children.n} of ${expectedChildren}` },
          { name: 'nothing failed', pass: failed === 0, detail: `${failed} failed` },
        ],
        data: { count, threads: pool.size, messagesMs: messagesDoneMs, elapsedMs, perSecond, pages, children: Number(children.n), duplicates, near, failed, peakRss, uploadMs },
      };
    } finally {
      await pool.destroy();
      await instance.close();
    }
  },
};
