import os from 'node:os';
import type { PageWord } from '../main/common/schemas/pages.js';
import { upsertDocumentPage } from '../main/db/queries/document-pages.js';
import { catchUpSearchIndex } from '../main/services/search/index.js';
import { createCase, minimalPdf, startInstance, type TestInstance } from '../test/helpers/instance.js';
import { uploadDocuments } from '../test/helpers/instance.js';
import { fmt, fmtInt } from './lib/format.js';
import type { Benchmark, BenchReport } from './types.js';

// Issue 18: case-wide search over a generated 10,000-page case (100 documents of 100 pages, about 250
// words a page, stored as OCR stores them), through Fastify inject on a real SQLite file: the index build,
// query latency per mode (targets p50 < 200 ms, p99 < 1 s) and search-and-redact of 5,000 hits.
//
// BENCH_SEARCH_DOCUMENTS (default 100), BENCH_SEARCH_PAGES (pages per document, default 100),
// BENCH_SEARCH_ROUNDS (queries per mode, default 20).

const P50_MS = 200;
const P99_MS = 1000;
const NAME = ['Jane', 'Roe'];
const VOCABULARY = (
  'the records request was received by the clerk and forwarded to the finance department for review of payroll ledgers ' +
  'contracts invoices and correspondence between the city council and outside vendors during the fiscal year ' +
  'responsive documents will be released after redaction of personal information under the applicable exemptions ' +
  'please contact the office if you have questions about the status of this request or the fees that apply ' +
  'Robert Linda Maria James Patricia Michael Okafor Johnson Nguyen Williams Garcia Miller'
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

/** About 250 words in 25 lines; `plant` puts "Jane Roe" in (across a line break when `broken`). */
function generatePage(random: () => number, plant: boolean, broken: boolean, pageIndex: number): { text: string; words: PageWord[] } {
  const lines: string[][] = [];
  for (let line = 0; line < 25; line += 1) {
    const words: string[] = [];
    for (let index = 0; index < 10; index += 1) words.push(VOCABULARY[Math.floor(random() * VOCABULARY.length)] ?? 'the');
    lines.push(words);
  }
  // Numbers for pattern searches: an account-like number on every page, an SSN-like one on every tenth.
  lines[3]?.push(`${String(pageIndex % 10_000).padStart(4, '0')}-${String((pageIndex * 7) % 10_000).padStart(4, '0')}`);
  if (pageIndex % 10 === 0) lines[7]?.push(`${String(100 + (pageIndex % 899))}-${String(10 + (pageIndex % 89))}-${String(1000 + (pageIndex % 8999))}`);
  if (plant) {
    if (broken) {
      lines[12]?.push(NAME[0] ?? '');
      lines[13]?.unshift(NAME[1] ?? '');
    } else lines[20]?.splice(4, 0, ...NAME);
  }
  const words: PageWord[] = [];
  lines.forEach((line, lineIndex) => {
    let x = 72;
    for (const text of line) {
      const width = text.length * 6;
      words.push({ text, x1: x, y1: 740 - lineIndex * 14, x2: x + width, y2: 750 - lineIndex * 14, confidence: 92 });
      x += width + 4;
    }
  });
  return { text: lines.map((line) => line.join(' ')).join('\n'), words };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Wall time and this process's CPU time (user + system): on a loaded machine the CPU time is what the work cost. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
}

async function populate(instance: TestInstance, caseId: string, documents: number, pagesPerDocument: number): Promise<number> {
  const random = seeded(18);
  let planted = 0;
  for (let first = 0; first < documents; first += 20) {
    const batch = Array.from({ length: Math.min(20, documents - first) }, (_, index) => ({ name: `doc-${first + index}.pdf`, bytes: minimalPdf(`search bench ${first + index}`) }));
    const uploaded = await uploadDocuments(instance, caseId, batch);
    await instance.runtime.db.transaction().execute(async (trx) => {
      for (const [offset, document] of uploaded.entries()) {
        for (let page = 1; page <= pagesPerDocument; page += 1) {
          const pageIndex = (first + offset) * pagesPerDocument + page;
          // Every other page names Jane Roe once: 5,000 hits on 10,000 pages, one in eight across a line break.
          const plant = pageIndex % 2 === 0;
          if (plant) planted += 1;
          const generated = generatePage(random, plant, pageIndex % 16 === 0, pageIndex);
          await upsertDocumentPage(trx, {
            organization_id: Number(instance.orgs[0]?.organization_id),
            document_id: Number(document.id),
            page_number: page,
            source: 'ocr',
            job_id: null,
            unit: 'pdf_points',
            width: 612,
            height: 792,
            rotation: 0,
            text: generated.text,
            words: JSON.stringify(generated.words),
            mean_confidence: 92,
            created_at: new Date().toISOString(),
          });
        }
      }
    });
  }
  return planted;
}

const QUERIES: { label: string; body: Record<string, unknown> }[] = [
  { label: 'text, rare name', body: { query: 'Harold Finch' } },
  { label: 'text, planted name', body: { query: 'jane roe' } },
  { label: 'text, common word', body: { query: 'payroll', whole_word: true } },
  { label: 'phrase', body: { query: 'finance department', mode: 'phrase' } },
  { label: 'terms (10)', body: { query: 'Okafor\nNguyen\nJane Roe\nHarold Finch\nGarcia\nMiller\nWilliams\nJohnson\nPatricia\nfiscal year', mode: 'terms' } },
  { label: 'pattern (SSN)', body: { query: String.raw`\b\d{3}-\d{2}-\d{4}\b`, mode: 'pattern' } },
];

export const searchBench: Benchmark = {
  name: 'search',
  description: 'case-wide search: index build, query p50/p99 per mode and search-redact of 5,000 hits on a 10,000-page case',
  async run(settings): Promise<BenchReport> {
    const documents = envCount('BENCH_SEARCH_DOCUMENTS', 100);
    const pagesPerDocument = envCount('BENCH_SEARCH_PAGES', 100);
    const rounds = envCount('BENCH_SEARCH_ROUNDS', 20);
    const instance = await startInstance({ organizations: 1, config: { rateLimits: { enabled: false } } });
    try {
      const caseId = await createCase(instance, 'Search bench');
      settings.log(`generating ${documents} documents of ${pagesPerDocument} pages`);
      const planted = await populate(instance, caseId, documents, pagesPerDocument);
      const build = await timed(() => catchUpSearchIndex(instance.runtime.db));
      settings.log(`indexed ${build.value} pages in ${fmt(build.ms)} ms`);
      const cold = await timed(() => instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search?limit=100`, body: { query: 'Harold Finch' } }));

      const table = [['query', 'hits', 'p50 ms', 'p99 ms', 'cpu p50 ms', 'cpu p99 ms']];
      const all: number[] = [];
      const allCpu: number[] = [];
      const data: Record<string, unknown>[] = [];
      for (const { label, body } of QUERIES) {
        const samples: number[] = [];
        const cpuSamples: number[] = [];
        let total = 0;
        for (let round = 0; round < rounds; round += 1) {
          const { ms, cpuMs, value } = await timed(() => instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search?limit=100`, body }));
          if (value.statusCode !== 200) throw new Error(`search ${label} failed: ${value.statusCode} ${value.body}`);
          total = (value.json() as { data: { total: number } }).data.total;
          samples.push(ms);
          cpuSamples.push(cpuMs);
        }
        samples.sort((a, b) => a - b);
        cpuSamples.sort((a, b) => a - b);
        all.push(...samples);
        allCpu.push(...cpuSamples);
        table.push([label, fmtInt(total), fmt(percentile(samples, 50)), fmt(percentile(samples, 99)), fmt(percentile(cpuSamples, 50)), fmt(percentile(cpuSamples, 99))]);
        data.push({ label, total, p50: percentile(samples, 50), p99: percentile(samples, 99), cpuP50: percentile(cpuSamples, 50), cpuP99: percentile(cpuSamples, 99) });
      }
      all.sort((a, b) => a - b);
      allCpu.sort((a, b) => a - b);
      const p50 = percentile(all, 50);
      const p99 = percentile(all, 99);

      const redact = await timed(() =>
        instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body: { query: 'Jane Roe', whole_word: true, layer: 'B6', state: 'pending' } }),
      );
      if (redact.value.statusCode !== 201) throw new Error(`search-redact failed: ${redact.value.statusCode} ${redact.value.body}`);
      const created = (redact.value.json() as { data: { created: number; hits: number } }).data;
      const again = await timed(() =>
        instance.request({ method: 'POST', url: `/api/v1/cases/${caseId}/search/redactions`, body: { query: 'Jane Roe', whole_word: true, layer: 'B6', state: 'pending' } }),
      );
      const second = (again.value.json() as { data: { created: number } }).data;
      return {
        title: `Search: ${fmtInt(documents * pagesPerDocument)}-page case (${documents} documents), ${rounds} rounds per query`,
        table,
        notes: [
          `index build: ${fmtInt(build.value)} pages in ${fmt(build.ms)} ms wall, ${fmt(build.cpuMs)} ms CPU (${fmt((build.ms / build.value) * 1000)} µs a page)`,
          `all queries: p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms wall; CPU p50 ${fmt(percentile(allCpu, 50))} ms, p99 ${fmt(percentile(allCpu, 99))} ms`,
          `first query after the build (page cache cold): ${fmt(cold.ms)} ms wall, ${fmt(cold.cpuMs)} ms CPU; load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`,
          `search-redact: ${fmtInt(created.hits)} hits (${fmtInt(planted)} planted), ${fmtInt(created.created)} redactions in ${fmt(redact.ms)} ms (${fmt(redact.cpuMs)} ms CPU); repeated: ${second.created} created in ${fmt(again.ms)} ms`,
        ],
        checks: [
          { name: `query p50 < ${P50_MS} ms`, pass: p50 < P50_MS, detail: `${fmt(p50)} ms` },
          { name: `query p99 < ${P99_MS} ms`, pass: p99 < P99_MS, detail: `${fmt(p99)} ms` },
          { name: 'search-redact finds every planted hit', pass: created.hits === planted, detail: `${created.hits} of ${planted}` },
          { name: 'search-redact is idempotent', pass: second.created === 0, detail: `${second.created} created on repeat` },
        ],
        data: { coldMs: cold.ms, buildMs: build.ms, buildCpuMs: build.cpuMs, pages: build.value, queries: data, p50, p99, redactMs: redact.ms, created, repeatMs: again.ms },
      };
    } finally {
      await instance.close();
    }
  },
};
