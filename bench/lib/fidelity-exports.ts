import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';

// The export path of the release-fidelity bench: a served instance (runtime, Fastify, worker pool, export
// runner) from the compiled build, driven through its HTTP API with injected requests, one case per file.

type Load = <T>(file: string) => Promise<T>;

export interface ExportedFile {
  ms: number;
  bytes: Buffer;
  vectorPages: number;
  rendered: { page: number; reason: string }[];
  /** Growth of the black over cut glyphs, by index of the box as given. */
  grown: { index: number; growth: number }[];
  /** The page image of each rendered page: its bytes and its filter(s) as stored in the output. */
  renderedImages: { page: number; bytes: number; filter: string }[];
}

export type ExportOne = (name: string, bytes: Buffer, boxes: { page: number; box: { x1: number; y1: number; x2: number; y2: number } }[]) => Promise<ExportedFile>;

interface Json {
  data: Record<string, unknown>;
}

async function pageImages(bytes: Buffer, pages: readonly number[]): Promise<{ page: number; bytes: number; filter: string }[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return pages.map((number) => {
    const resources = doc.getPage(number - 1).node.Resources();
    const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    let total = 0;
    const filters: string[] = [];
    for (const [, ref] of xobjects?.entries() ?? []) {
      const stream = doc.context.lookup(ref);
      if (stream instanceof PDFRawStream && stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')) {
        total += stream.contents.length;
        filters.push(String(stream.dict.get(PDFName.of('Filter')) ?? 'none').replace(/^\//, ''));
      }
    }
    return { page: number, bytes: total, filter: filters.join('+') || 'none' };
  });
}

export async function runExports(dir: string, load: Load, body: (exportOne: ExportOne) => Promise<void>): Promise<void> {
  const { loadConfig } = await load<typeof import('../../main/config.js')>('config.js');
  const { createHttpServer } = await load<typeof import('../../main/http/server.js')>('http/server.js');
  const { openRuntime } = await load<typeof import('../../main/runtime.js')>('runtime.js');
  const { createOrganization } = await load<typeof import('../../main/services/bootstrap.js')>('services/bootstrap.js');
  const { systemClock } = await load<typeof import('../../main/services/context.js')>('services/context.js');
  const { WorkerPool } = await load<typeof import('../../main/jobs/pool.js')>('jobs/pool.js');
  const { startExportRunner } = await load<typeof import('../../main/jobs/export/index.js')>('jobs/export/index.js');
  const dataDir = path.join(dir, 'data');
  const runtime = await openRuntime(dataDir, loadConfig(dataDir, { port: 0, rateLimits: { enabled: false } }), systemClock);
  const org = await createOrganization(runtime.db, systemClock, { name: 'Bench', adminUsername: 'bench-fidelity' });
  const server = await createHttpServer(runtime, { logger: false });
  const host = new URL(await server.listen('127.0.0.1', 0)).host;
  const pool = new WorkerPool();
  const runner = startExportRunner(runtime, pool);
  let counter = 0;
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<Json> => {
    const response = await server.app.inject({
      method,
      url,
      headers: { host, 'x-api-key': org.api_key, ...(method !== 'GET' && { 'idempotency-key': `fidelity-${Date.now()}-${counter++}` }), ...(payload !== undefined && { 'content-type': 'application/json' }) },
      ...(payload !== undefined && { payload: JSON.stringify(payload) }),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    return response.json<Json>();
  };
  try {
    // The bench measures burn-in and verification, not the release workflow's approvals.
    await api('PATCH', '/api/v1/release-settings', { safeguards: { pending_suggestions: false, unprocessed_documents: false, case_approved: false, separation_of_duties: false, changed_after_approval: false } });
    await body(async (name, bytes, boxes) => {
      const caseId = String((await api('POST', '/api/v1/cases', { name: `Fidelity ${name}`.slice(0, 100) })).data.id);
      const session = (await api('POST', `/api/v1/cases/${caseId}/upload-sessions`, { files: [{ name: 'source.pdf', size: bytes.length }] })).data as { id: string; files: { upload_url: string }[] };
      const upload = await server.app.inject({ method: 'PUT', url: new URL(session.files[0]?.upload_url ?? '').pathname, headers: { host, 'content-type': 'application/pdf' }, payload: bytes });
      if (upload.statusCode !== 200) throw new Error(`upload failed: ${upload.body.slice(0, 200)}`);
      const documents = (await api('POST', `/api/v1/upload-sessions/${session.id}/complete`)).data as { documents: { id: string }[] };
      const documentId = documents.documents[0]?.id ?? '';
      const created = (await api('POST', `/api/v1/documents/${documentId}/redactions`, { redactions: boxes.map(({ page, box }) => ({ kind: 'rectangle', layer: 'B6', coordinates: { page, units: 'pdf_points', box } })) })).data as { redactions: { redaction_id: string }[] };
      // The export summary names a box's growth by its redaction_id (the row id differs).
      const ids = created.redactions.map((entry) => entry.redaction_id);
      const started = performance.now();
      const id = String((await api('POST', '/api/v1/exports', { case_id: caseId })).data.id);
      for (;;) {
        const current = (await api('GET', `/api/v1/exports/${id}`)).data as { status: string; error_message: string | null; summary: { burn?: { vector_pages: number; rendered: { page: number; reason: string }[]; grown?: { redaction_id: string; growth_pt: number }[] } } | null };
        if (current.status === 'completed') {
          const ms = performance.now() - started;
          const link = (await api('GET', `/api/v1/exports/${id}/download-url`)).data as { url: string };
          const download = await server.app.inject({ method: 'GET', url: new URL(link.url).pathname + new URL(link.url).search, headers: { host } });
          const output = download.rawPayload;
          const burn = current.summary?.burn;
          const rendered = burn?.rendered ?? [];
          return {
            ms,
            bytes: output,
            vectorPages: burn?.vector_pages ?? 0,
            rendered,
            grown: (burn?.grown ?? []).map((entry) => ({ index: ids.indexOf(entry.redaction_id), growth: entry.growth_pt })),
            renderedImages: await pageImages(output, rendered.map((entry) => entry.page)),
          };
        }
        if (current.status === 'failed' || current.status === 'cancelled') throw new Error(`export ${current.status}: ${current.error_message ?? ''}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
  } finally {
    await runner.stop();
    await pool.destroy();
    await server.close();
    await runtime.close();
  }
}
