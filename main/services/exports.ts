import { updateCase } from '../db/queries/cases.js';
import { z } from 'zod';
import type { Executor } from '../db/queries/executor.js';
import type { ExportRow, ReleasePageRow } from '../db/schema.js';
import { findLastBatesNumber, findLatestRelease, insertReleasePages } from '../db/queries/release-pages.js';
import { insertBlobIfAbsent } from '../db/queries/blobs.js';
import { findDocumentsByIds, listAllCaseDocuments } from '../db/queries/documents.js';
import {
  findExport,
  findExportById,
  insertExport,
  listExportsWithStatus,
  pageExports,
  updateExportIfStatus,
  claimOldestPendingExport,
  updateLeasedExport,
} from '../db/queries/exports.js';
import { DEFAULT_LEASE, leaseExpiry, leaseLapsed, type LeaseTerms } from '../cluster/identity.js';
import type { PageRequest } from '../db/queries/page.js';
import { DomainError, notFound, type ErrorDetail } from '../common/errors.js';
import { LAYERS } from '../common/redaction-catalog.js';
import type { CaseStatus } from '../common/schemas/cases.js';
import type { DownloadUrl } from '../common/schemas/documents.js';
import {
  DEFAULT_EXPORT_CASE_STATUSES,
  ExportOptions,
  ExportSummary,
  ResolvedExportFilters,
  type CreateExportBody,
  type Export,
  type ExportFormat,
} from '../common/schemas/exports.js';
import { recordChange } from './change-log.js';
import { requireCase } from './cases.js';
import { isoNow, type Clock, type ServiceContext } from './context.js';
import { issueDownloadUrl, type DownloadSettings } from './documents.js';
import { checkRelease } from './releases/safeguards.js';
import { releaseSettingsOf } from './releases/settings.js';
import { releaseStateMarks } from '../db/queries/case-approvals.js';
import { SAFEGUARDS, type Safeguard } from '../common/schemas/releases.js';

const JsonObject = z.record(z.string(), z.unknown());

export function toExport(row: ExportRow): Export {
  const file =
    row.result_sha256 !== null && row.result_size !== null && row.result_media_type !== null && row.result_file_name !== null
      ? { name: row.result_file_name, media_type: row.result_media_type, size: row.result_size, sha256: row.result_sha256 }
      : null;
  return {
    id: String(row.id),
    case_id: String(row.case_id),
    format: row.format,
    audience: row.audience,
    release_number: row.release_number,
    filters: ResolvedExportFilters.parse(JSON.parse(row.filters)),
    options: JsonObject.parse(JSON.parse(row.options)),
    status: row.status,
    progress: row.progress,
    attempts: row.attempts,
    error_message: row.error_message,
    file,
    summary: row.summary === null ? null : ExportSummary.parse(JSON.parse(row.summary)),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** The stored filters and options of an export, parsed. */
export function exportSettingsOf(row: ExportRow): { filters: ResolvedExportFilters; options: ExportOptions | null } {
  const filters = ResolvedExportFilters.parse(JSON.parse(row.filters));
  const options = row.format === 'pdf' || row.format === 'zip' ? ExportOptions.parse(JSON.parse(row.options)) : null;
  return { filters, options };
}

function invalid(message: string, details: ErrorDetail[]): DomainError {
  return new DomainError('validation_error', message, details.map((detail) => ({ ...detail, location: 'body' })));
}

function resolveOptions(format: ExportFormat, options: CreateExportBody['options']): ExportOptions | Record<string, never> {
  if (format === 'csv' || format === 'json') {
    if (options !== undefined) throw invalid('options apply to pdf and zip exports only', [{ field: 'options', message: `not allowed with format ${format}` }]);
    return {};
  }
  const resolved = ExportOptions.parse(options ?? {});
  if (format === 'zip' && resolved.cover_sheet) {
    throw invalid('cover_sheet applies to pdf exports only', [{ field: 'options.cover_sheet', message: 'a zip holds one file per document; use options.cover_letter in a zip' }]);
  }
  if (format === 'pdf' && resolved.audience === 'internal') {
    throw invalid('a pdf is always a release', [{ field: 'options.audience', message: 'internal records are json, csv or zip with options.audience internal' }]);
  }
  if (format === 'pdf' && (resolved.cover_letter || resolved.combined)) {
    const field = resolved.cover_letter ? 'options.cover_letter' : 'options.combined';
    throw invalid(`${field.slice(8)} applies to zip releases only`, [{ field, message: 'a pdf is one combined file; use options.cover_sheet for its first page' }]);
  }
  if (resolved.review_copies && (format !== 'zip' || resolved.audience !== 'internal')) {
    throw invalid('review_copies applies to internal zips only', [{ field: 'options.review_copies', message: 'review copies are internal: use format zip with options.audience internal' }]);
  }
  if (resolved.audience === 'internal') {
    const releaseOnly = (['stamps', 'combined', 'cover_letter'] as const).find((name) => (name === 'stamps' ? resolved.stamps !== null : resolved[name]));
    if (releaseOnly) throw invalid(`${releaseOnly} applies to releases only`, [{ field: `options.${releaseOnly}`, message: 'not allowed with options.audience internal' }]);
  }
  return resolved;
}

/** What the caller may do beyond exports:write; the HTTP route says, internal callers (watched folders) do not check. */
export interface ExportAccess {
  /** Run the release safeguards (on for requests through the API). */
  safeguards: boolean;
  /** The caller holds exports:override. */
  canOverride: boolean;
}

const UNCHECKED: ExportAccess = { safeguards: false, canOverride: false };

interface SafeguardRecord {
  outcome: 'passed' | 'overridden' | 'not_checked';
  blocks: unknown[];
  reason: string | null;
  by: string;
  /** Safeguards the organization had turned off when the release was requested: `passed` says nothing of them. */
  checks_off: Safeguard[];
  /** The case as it was checked: a newer layer version or withholding change fails the build (export-material.ts). */
  pinned: { layer_version: number; withholding: number };
}

/**
 * The safeguards of a release: 409 listing every block, unless the caller holds exports:override and gives a
 * reason, which the audit trail records (and the internal record; never the release).
 */
async function guardRelease(db: Executor, ctx: ServiceContext, body: CreateExportBody, filters: ResolvedExportFilters, access: ExportAccess): Promise<SafeguardRecord> {
  const by = `${ctx.actor.type}:${ctx.actor.id}`;
  const caseId = Number(body.case_id);
  const documentIds = filters.document_ids?.map(Number) ?? (await listAllCaseDocuments(db, ctx.actor.organizationId, caseId)).map((row) => row.id);
  const pinned = await releaseStateMarks(db, ctx.actor.organizationId, caseId, documentIds, filters.layers);
  const settings = await releaseSettingsOf(db, ctx.actor.organizationId);
  const checksOff = SAFEGUARDS.filter((name) => !settings.safeguards[name]);
  if (!access.safeguards) return { outcome: 'not_checked', blocks: [], reason: null, by, checks_off: [...SAFEGUARDS], pinned };
  const check = await checkRelease(db, { organizationId: ctx.actor.organizationId, caseId: Number(body.case_id), documentIds: filters.document_ids, layers: filters.layers });
  if (check.blocks.length === 0) return { outcome: 'passed', blocks: [], reason: null, by, checks_off: checksOff, pinned };
  if (!body.override) {
    const names = check.blocks.map((entry) => entry.check).join(', ');
    throw new DomainError('conflict', `the release is blocked by ${check.blocks.length} safeguard(s): ${names}; fix them (GET /cases/${body.case_id}/release-check) or override with a reason`, {
      blocks: check.blocks,
      override_scope: 'exports:override',
    });
  }
  if (!access.canOverride) {
    throw new DomainError('permission_denied', 'overriding release safeguards needs the scope exports:override', { required_scopes: ['exports:override'], blocks: check.blocks });
  }
  return { outcome: 'overridden', blocks: check.blocks, reason: body.override.reason, by, checks_off: checksOff, pinned };
}

function caseStatusGuard(status: CaseStatus, allowed: readonly CaseStatus[]): DomainError | null {
  if (allowed.includes(status)) return null;
  return new DomainError('conflict', `the case is ${status}; filters.case_statuses allows ${allowed.join(', ')}`, { status, case_statuses: allowed });
}

/** Validates the request against the case as it is now and queues the export; the runner is woken by the insert. */
export async function createExport(db: Executor, ctx: ServiceContext, body: CreateExportBody, access: ExportAccess = UNCHECKED): Promise<Export> {
  const caseId = Number(body.case_id);
  const caseRow = await requireCase(db, ctx, caseId);
  const options = resolveOptions(body.format, body.options);
  const audience = body.format === 'csv' || body.format === 'json' || ('audience' in options && options.audience === 'internal') ? 'internal' : 'release';
  if (body.override && audience === 'internal') throw invalid('override applies to releases only', [{ field: 'override', message: 'internal records have no safeguards' }]);
  const given = body.filters ?? { include_pending: false, document_statuses: ['active' as const] };
  const filters: ResolvedExportFilters = {
    document_ids: given.document_ids ?? null,
    layers: given.layers ?? [...LAYERS],
    include_pending: given.include_pending,
    document_statuses: given.document_statuses,
    case_statuses: given.case_statuses ?? [...DEFAULT_EXPORT_CASE_STATUSES],
  };
  if (filters.document_ids) {
    const rows = await findDocumentsByIds(db, ctx.actor.organizationId, filters.document_ids.map(Number));
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    const problems = filters.document_ids.flatMap((id, index): ErrorDetail[] => {
      const row = byId.get(id);
      if (!row || row.case_id !== caseId) return [{ field: `filters.document_ids.${index}`, message: `no document ${id} in case ${caseId}` }];
      const status = row.deleted_at ? 'deleted' : 'active';
      if (!filters.document_statuses.includes(status)) {
        return [{ field: `filters.document_ids.${index}`, message: `document ${id} is ${status}; filters.document_statuses allows ${filters.document_statuses.join(', ')}` }];
      }
      return [];
    });
    if (problems.length > 0) throw invalid(`invalid filters: ${problems[0]?.message ?? ''}`, problems);
  }
  const guard = caseStatusGuard(caseRow.status as CaseStatus, filters.case_statuses);
  if (guard) throw guard;
  const safeguards = audience === 'release' ? await guardRelease(db, ctx, body, filters, access) : null;
  const now = isoNow(ctx);
  const id = await insertExport(db, {
    organization_id: ctx.actor.organizationId,
    case_id: caseId,
    format: body.format,
    audience,
    safeguards: safeguards ? JSON.stringify(safeguards) : null,
    filters: JSON.stringify(filters),
    options: JSON.stringify(options),
    status: 'pending',
    progress: 0,
    attempts: 0,
    created_by: `${ctx.actor.type}:${ctx.actor.id}`,
    created_at: now,
    updated_at: now,
  });
  const created = await getExport(db, ctx, id);
  await recordChange(db, ctx, { action: 'export.create', resourceType: 'export', resourceId: id, details: { format: body.format, audience, case_id: String(caseId), ...(safeguards && { safeguards: safeguards.outcome, safeguards_off: safeguards.checks_off }) }, event: { type: 'export.created', payload: { export: created } } });
  if (safeguards?.outcome === 'overridden') {
    await recordChange(db, ctx, { action: 'export.safeguards_override', resourceType: 'export', resourceId: id, details: { case_id: String(caseId), reason: safeguards.reason, blocks: safeguards.blocks } });
  }
  return created;
}

async function requireExport(db: Executor, ctx: ServiceContext, id: number): Promise<ExportRow> {
  const row = await findExport(db, ctx.actor.organizationId, id);
  if (!row) throw notFound('export');
  return row;
}

export async function getExport(db: Executor, ctx: ServiceContext, id: number): Promise<Export> {
  return toExport(await requireExport(db, ctx, id));
}

export async function listExportPage(db: Executor, ctx: ServiceContext, page: PageRequest) {
  const result = await pageExports(db, ctx.actor.organizationId, page);
  return { items: result.rows.map(toExport), nextAfterId: result.nextAfterId };
}

function stateConflict(row: ExportRow, what: string, allowed: readonly string[]): DomainError {
  return new DomainError('conflict', `the export is ${row.status}; only ${allowed.join(' or ')} exports can be ${what}`, { status: row.status, allowed_statuses: allowed });
}

/** pending or processing → cancelled; running work is stopped by the runner, which watches for this change. */
export async function cancelExport(db: Executor, ctx: ServiceContext, id: number): Promise<Export> {
  const row = await requireExport(db, ctx, id);
  const now = isoNow(ctx);
  const allowed = ['pending', 'processing'] as const;
  if (!(await updateExportIfStatus(db, id, allowed, { status: 'cancelled', finished_at: now, updated_at: now }))) throw stateConflict(row, 'cancelled', allowed);
  const cancelled = await getExport(db, ctx, id);
  await recordChange(db, ctx, { action: 'export.cancel', resourceType: 'export', resourceId: id, details: { previous_status: row.status }, event: { type: 'export.cancelled', payload: { export: cancelled, previous_status: row.status } } });
  return cancelled;
}

/** failed → pending, as new: attempts, progress and the error are cleared. */
export async function retryExport(db: Executor, ctx: ServiceContext, id: number): Promise<Export> {
  const row = await requireExport(db, ctx, id);
  const now = isoNow(ctx);
  const reset = { status: 'pending' as const, progress: 0, attempts: 0, error_message: null, summary: null, started_at: null, finished_at: null, updated_at: now };
  if (!(await updateExportIfStatus(db, id, 'failed', reset))) throw stateConflict(row, 'retried', ['failed']);
  const retried = await getExport(db, ctx, id);
  await recordChange(db, ctx, { action: 'export.retry', resourceType: 'export', resourceId: id, details: { previous_error: row.error_message }, event: { type: 'export.retried', payload: { export: retried } } });
  return retried;
}

/** A fresh single-use URL of the finished file; before completion (or after a failure or cancellation) 409. */
export async function createExportDownloadUrl(db: Executor, ctx: ServiceContext, id: number, settings: DownloadSettings): Promise<DownloadUrl> {
  const row = await requireExport(db, ctx, id);
  if (row.status !== 'completed' || row.result_sha256 === null) {
    throw new DomainError('conflict', `the export is ${row.status}; its file can be downloaded once it is completed`, { status: row.status });
  }
  return issueDownloadUrl(db, ctx, 'export', id, settings);
}

/** What a download token of an export unlocks: only a completed export's verified file. */
export async function exportDownloadTarget(db: Executor, organizationId: number, id: number) {
  const row = await findExport(db, organizationId, id);
  if (!row || row.status !== 'completed' || row.result_sha256 === null || row.result_file_name === null || row.result_media_type === null || row.result_size === null) {
    return null;
  }
  return { sha256: row.result_sha256, fileName: row.result_file_name, mediaType: row.result_media_type, size: row.result_size };
}

// The runner's side. It acts as the system within the export's organization, so audit records and events
// land where the export's owner sees them.

function systemContext(row: ExportRow, clock: Clock): ServiceContext {
  return { actor: { type: 'system', id: 'exports', organizationId: row.organization_id }, requestId: null, clock };
}

/** Takes the oldest pending export and marks it processing under `lease` (one more attempt). Call inside a transaction. */
export async function claimNextExport(db: Executor, clock: Clock, lease: LeaseTerms = DEFAULT_LEASE): Promise<ExportRow | null> {
  const row = await claimOldestPendingExport(db, { owner: lease.owner, expiresAt: leaseExpiry(lease.seconds), now: clock.now().toISOString() });
  return row ?? null;
}

export async function exportStatus(db: Executor, id: number): Promise<ExportRow['status'] | null> {
  return (await findExportById(db, id))?.status ?? null;
}

export async function setExportProgress(db: Executor, clock: Clock, id: number, progress: number): Promise<void> {
  await updateExportIfStatus(db, id, 'processing', { progress: Math.min(1, Math.max(0, progress)), updated_at: clock.now().toISOString() });
}

/** A release's number and its pages, stored with it so a supplemental release continues and compares. */
export interface FinishedRelease {
  number: number;
  /** The first stamp number this release used, when it continued the case's sequence by default. */
  continuedFrom: number | null;
  pages: Omit<ReleasePageRow, 'export_id' | 'case_id'>[];
}

async function recordRelease(db: Executor, row: ExportRow, release: FinishedRelease): Promise<void> {
  const latest = await findLatestRelease(db, row.case_id);
  const last = await findLastBatesNumber(db, row.case_id);
  if ((latest?.release_number ?? 0) + 1 !== release.number || (release.continuedFrom !== null && last !== null && last >= release.continuedFrom)) {
    throw new Error('another release of this case completed while this one was built; retry it to number it after that one');
  }
  await updateExportIfStatus(db, row.id, 'processing', { release_number: release.number });
  await insertReleasePages(db, release.pages.map((page) => ({ ...page, export_id: row.id, case_id: row.case_id })));
}

export interface FinishedExportFile {
  sha256: string;
  size: number;
  mediaType: string;
  fileName: string;
}

/**
 * Records the verified file (its blob row first, in the same transaction) and writes `export.completed`.
 * Returns false when the export left `processing` meanwhile (cancelled): the caller then keeps no file.
 */
export async function completeExport(db: Executor, clock: Clock, id: number, file: FinishedExportFile, summary: ExportSummary, release?: FinishedRelease, owner?: string): Promise<boolean> {
  const now = clock.now().toISOString();
  // Checked first so that a cancelled export writes nothing, not even the blob row; nor one whose lease another process took.
  const current = await findExportById(db, id);
  if (current?.status !== 'processing' || (owner !== undefined && current.lease_owner !== owner)) return false;
  if (release) await recordRelease(db, current, release);
  await insertBlobIfAbsent(db, file.sha256, file.size, now);
  const changed = await updateExportIfStatus(db, id, 'processing', {
    status: 'completed',
    progress: 1,
    error_message: null,
    result_sha256: file.sha256,
    result_size: file.size,
    result_media_type: file.mediaType,
    result_file_name: file.fileName,
    summary: JSON.stringify(summary),
    finished_at: now,
    updated_at: now,
  });
  if (changed) await recordOutcome(db, clock, id, 'completed');
  // The queue's "Released" filter and badge read the case's latest release from the case row.
  if (changed && release) await updateCase(db, current.organization_id, current.case_id, { last_release_number: release.number, last_released_at: now });
  return changed;
}

/** Marks a processing export failed with a reason for the client and writes `export.failed`. */
export async function failExport(db: Executor, clock: Clock, id: number, message: string, owner?: string): Promise<boolean> {
  const now = clock.now().toISOString();
  const values = { status: 'failed' as const, error_message: message, finished_at: now, updated_at: now, lease_owner: null, lease_expires_at: null };
  const changed = owner === undefined ? await updateExportIfStatus(db, id, 'processing', values) : await updateLeasedExport(db, id, owner, values);
  if (changed) await recordOutcome(db, clock, id, 'failed');
  return changed;
}

async function recordOutcome(db: Executor, clock: Clock, id: number, outcome: 'completed' | 'failed'): Promise<void> {
  const row = await findExportById(db, id);
  if (!row) return;
  await recordChange(db, systemContext(row, clock), {
    action: `export.${outcome === 'completed' ? 'complete' : 'fail'}`,
    resourceType: 'export',
    resourceId: id,
    event: { type: `export.${outcome}`, payload: { export: toExport(row) } },
  });
}

/** An export stopped by a clean shutdown goes back to pending; the interrupted attempt is not counted. */
export async function requeueStoppedExport(db: Executor, clock: Clock, id: number, owner: string = DEFAULT_LEASE.owner): Promise<void> {
  const row = await findExportById(db, id);
  if (!row) return;
  await updateLeasedExport(db, id, owner, { status: 'pending', progress: 0, attempts: Math.max(0, row.attempts - 1), started_at: null, updated_at: clock.now().toISOString(), lease_owner: null, lease_expires_at: null });
}

/**
 * Exports whose lease lapsed (expired, or held by a gone process of this machine) go back to pending with
 * their attempts kept, so an export that kills the process every time fails after `maxAttempts` instead of
 * looping. Live leases of other processes are left alone. Runs at start and periodically.
 */
export async function recoverInterruptedExports(db: Executor, clock: Clock, maxAttempts: number): Promise<{ requeued: number; failed: number }> {
  let requeued = 0;
  let failed = 0;
  const now = clock.now();
  for (const row of await listExportsWithStatus(db, 'processing')) {
    if (!leaseLapsed(row.lease_owner, row.lease_expires_at, new Date())) continue;
    if (row.attempts >= maxAttempts) {
      const message = `interrupted ${row.attempts} times (the process stopped while it ran); not started again — retry it once the cause is fixed`;
      if (await updateLeasedExport(db, row.id, row.lease_owner, { lease_owner: null, lease_expires_at: null })) {
        await failExport(db, clock, row.id, message);
        failed += 1;
      }
    } else if (await updateLeasedExport(db, row.id, row.lease_owner, { status: 'pending', progress: 0, started_at: null, updated_at: now.toISOString(), lease_owner: null, lease_expires_at: null })) {
      requeued += 1;
    }
  }
  return { requeued, failed };
}
