import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DocumentRow } from '../../db/schema.js';
import type { IntakeFormat, IntakeLimits } from '../../common/intake-tasks.js';
import type { Runtime } from '../../runtime.js';
import type { WorkerPool } from '../../jobs/pool.js';
import { CoalescedPass } from '../../jobs/coalesced-pass.js';
import { systemClock, type ServiceContext } from '../context.js';
import { commitOutcomeFiles, storeOutcome } from './store.js';
import { transact } from '../../db/transaction.js';

/** Documented in docs/api.md (Documents → Intake limits). */
export const INTAKE_LIMITS: IntakeLimits = {
  maxAttachments: 500,
  maxContainerMessages: 10_000,
  inlineImageMinBytes: 10 * 1024,
  maxRenderedPages: 500,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 200,
  conversionTimeoutMs: 120_000,
};
/** Attachments inside attachments: a document deeper than this fails plainly. */
export const MAX_NESTING_DEPTH = 20;
/** One intake task (a PST can be long). */
const TASK_TIME_LIMIT_MS = 30 * 60_000;
const MAX_ATTEMPTS = 3;
const POLL_INTERVAL_MS = 1_000;

export const NEEDS_LIBREOFFICE =
  'needs LibreOffice to convert: install it (Debian/Ubuntu: apt-get install libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress; Windows and macOS: the installer from libreoffice.org) and the file converts by itself within a minute';

/**
 * soffice on PATH (or OBSCURA_SOFFICE), looked up at most once a minute so an install is noticed; a change of
 * either setting is noticed at once.
 */
let sofficeCache: { at: number; key: string; path: string | null } | null = null;
export function findSoffice(now = Date.now()): string | null {
  const explicit = process.env.OBSCURA_SOFFICE;
  const key = `${explicit ?? ''}\0${process.env.PATH ?? ''}`;
  if (sofficeCache && sofficeCache.key === key && now - sofficeCache.at < 60_000) return sofficeCache.path;
  const candidates = explicit !== undefined ? [explicit] : (process.env.PATH ?? '').split(path.delimiter).flatMap((dir) => (dir ? [path.join(dir, 'soffice'), path.join(dir, 'soffice.exe')] : []));
  const found = candidates.find((file) => file !== '' && fs.existsSync(file)) ?? null;
  sofficeCache = { at: now, key, path: found };
  return found;
}

function formatOf(row: DocumentRow, head: Buffer): IntakeFormat {
  if (row.document_type === 'office') return 'office';
  if (row.document_type === 'text') return 'text';
  if (row.media_type === 'application/mbox') return 'mbox';
  if (row.media_type === 'application/vnd.ms-outlook') return head.subarray(0, 4).toString('latin1') === '!BDN' ? 'pst' : 'msg';
  return 'eml';
}

const SYSTEM = (organizationId: number): ServiceContext => ({ actor: { type: 'system', id: 'intake', organizationId }, requestId: null, clock: systemClock });

/**
 * Converts e-mail, Office and text documents into PDF on the worker pool, oldest first: at most one task per
 * thread, and one LibreOffice conversion at a time. A document is claimed by its intake row (converting);
 * rows left converting by a stopped process go back to pending at start.
 */
export class IntakeRunner {
  private stopped = false;
  private readonly running = new Map<number, { controller: AbortController; done: Promise<void>; office: boolean }>();
  private readonly passes = new CoalescedPass(() => this.fill(), () => this.stopped, 'intake failed to claim documents');
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly runtime: Runtime,
    private readonly pool: WorkerPool,
  ) {
    this.timer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async start(): Promise<void> {
    await this.runtime.db.updateTable('document_intake').set({ status: 'pending' }).where('status', '=', 'converting').execute();
    this.wake();
  }

  wake(): void {
    this.passes.wake();
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.pool.size) {
      const officeBusy = [...this.running.values()].some((entry) => entry.office);
      const soffice = findSoffice();
      const candidates = await this.runtime.db
        .selectFrom('documents as d')
        .leftJoin('document_intake as i', 'i.document_id', 'd.id')
        .selectAll('d')
        .select(['i.status as intake_status'])
        .where('d.document_type', 'in', ['email', 'office', 'text'])
        .where('d.deleted_at', 'is', null)
        .where((eb) => eb.or([eb('i.status', 'is', null), eb('i.status', '=', 'pending'), ...(soffice ? [eb('i.status', '=', 'needs_libreoffice')] : [])]))
        .orderBy('d.id')
        .limit(this.running.size + 8)
        .execute();
      const next = candidates.find((row) => !this.running.has(row.id) && !(officeBusy && row.document_type === 'office'));
      if (!next) return;
      const { intake_status: _status, ...row } = next;
      const claimed = await this.claim(row, soffice);
      if (!claimed) continue;
      const entry = { controller: new AbortController(), done: Promise.resolve(), office: row.document_type === 'office' };
      this.running.set(row.id, entry);
      entry.done = this.process(row, claimed, soffice, entry.controller.signal)
        .catch((error: unknown) => this.fail(row, `intake failed: ${error instanceof Error ? error.message : String(error)}`))
        .catch((error: unknown) => console.error(`intake of document ${row.id} could not be settled:`, error))
        .finally(() => {
          this.running.delete(row.id);
          this.wake();
        });
    }
  }

  /** pending → converting (the intake row made on first sight); null when the document must wait or has failed. */
  private async claim(row: DocumentRow, soffice: string | null): Promise<{ originalSha256: string; depth: number; format: IntakeFormat } | null> {
    const head = Buffer.alloc(4);
    const existing = await this.runtime.db.selectFrom('document_intake').selectAll().where('document_id', '=', row.id).executeTakeFirst();
    const originalSha256 = existing?.original_sha256 ?? row.sha256;
    const handle = await fsp.open(await this.runtime.blobs.localPath(originalSha256), 'r');
    await handle.read(head, 0, 4, 0).finally(() => handle.close());
    const format = (existing?.original_format as IntakeFormat | undefined) ?? formatOf(row, head);
    const now = new Date().toISOString();
    return transact(this.runtime.db, async (trx) => {
      let depth = existing?.depth ?? 0;
      if (!existing) {
        const parent = row.parent_document_id === null ? undefined : await trx.selectFrom('document_intake').select('depth').where('document_id', '=', row.parent_document_id).executeTakeFirst();
        depth = parent ? parent.depth + 1 : 0;
        await trx
          .insertInto('document_intake')
          .values({ document_id: row.id, organization_id: row.organization_id, case_id: row.case_id, status: 'pending', original_sha256: row.sha256, original_media_type: row.media_type, original_size: row.size, original_format: format, depth, created_at: now, updated_at: now })
          .execute();
      }
      const attempts = (existing?.attempts ?? 0) + 1;
      const fail = async (status: 'failed' | 'needs_libreoffice', error: string) => {
        const message = status === 'failed' ? `${row.file_name}: ${error}` : error;
        await trx.updateTable('document_intake').set({ status, error: message, updated_at: now }).where('document_id', '=', row.id).execute();
        return null;
      };
      if (format === 'office' && !soffice) return fail('needs_libreoffice', NEEDS_LIBREOFFICE);
      if (depth > MAX_NESTING_DEPTH) return fail('failed', `attached inside other messages more than ${MAX_NESTING_DEPTH} levels deep; not converted (limit: nesting depth ${MAX_NESTING_DEPTH}); the original is kept`);
      if (attempts > MAX_ATTEMPTS) return fail('failed', `intake was interrupted ${MAX_ATTEMPTS} times; not tried again`);
      await trx.updateTable('document_intake').set({ status: 'converting', attempts, updated_at: now }).where('document_id', '=', row.id).execute();
      return { originalSha256, depth, format };
    });
  }

  private async process(row: DocumentRow, claimed: { originalSha256: string; depth: number; format: IntakeFormat }, soffice: string | null, signal: AbortSignal): Promise<void> {
    const { runtime } = this;
    const workDir = path.join(runtime.blobs.tempDir, `intake-${row.id}-${randomUUID()}`);
    await fsp.mkdir(workDir, { recursive: true });
    const timeout = setTimeout(() => this.running.get(row.id)?.controller.abort(), TASK_TIME_LIMIT_MS);
    try {
      const task = {
        kind: 'intake' as const,
        documentId: row.id,
        sourcePath: await runtime.blobs.localPath(claimed.originalSha256),
        format: claimed.format,
        fileName: row.file_name,
        workDir,
        limits: INTAKE_LIMITS,
        soffice: claimed.format === 'office' ? soffice : null,
      };
      let result;
      try {
        result = await this.pool.run(task, { signal, onProgress: () => undefined });
      } catch (error) {
        if (this.stopped) return;
        throw signal.aborted ? new Error(`did not finish within ${TASK_TIME_LIMIT_MS / 60_000} minutes; stopped`) : error;
      }
      const { outcome } = result;
      if ('error' in outcome) {
        await this.fail(row, outcome.error);
        return;
      }
      const children = await commitOutcomeFiles(runtime.blobs, outcome);
      await transact(runtime.db, async (trx) => {
        const current = await trx.selectFrom('documents').selectAll().where('id', '=', row.id).executeTakeFirst();
        if (!current || current.deleted_at !== null) return;
        await storeOutcome(trx, SYSTEM(row.organization_id), current, claimed, outcome, children);
      });
      this.wake();
    } finally {
      clearTimeout(timeout);
      await fsp.rm(workDir, { recursive: true, force: true });
    }
  }

  /** The error names the file: a clerk reading a list of failures sees which upload each is. */
  private async fail(row: Pick<DocumentRow, 'id' | 'file_name'>, error: string): Promise<void> {
    const message = `${row.file_name}: ${error}`;
    await this.runtime.db.updateTable('document_intake').set({ status: 'failed', error: message, updated_at: new Date().toISOString() }).where('document_id', '=', row.id).execute();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    await this.passes.settled();
    for (const entry of this.running.values()) entry.controller.abort();
    await Promise.all([...this.running.values()].map((entry) => entry.done));
    // Whatever was converting goes back to pending for the next start.
    await this.runtime.db.updateTable('document_intake').set({ status: 'pending' }).where('status', '=', 'converting').execute().catch(() => undefined);
  }
}
