import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { Db } from '../db/connection.js';
import type { Executor } from '../db/queries/executor.js';
import type { WatchedFileRow, WatchedFolderRow } from '../db/schema.js';
import { findFirstOrganizationId } from '../db/queries/organizations.js';
import type { PageRequest } from '../db/queries/page.js';
import { countFilesByState, findFolderFile, listLatestErrors, pageFolderFiles } from '../db/queries/watched-files.js';
import {
  findWatchedFolder,
  insertWatchedFolder,
  listLiveWatchedFolders,
  pageWatchedFolders,
  updateWatchedFolder,
} from '../db/queries/watched-folders.js';
import { DomainError, notFound, type ErrorDetail } from '../common/errors.js';
import { CreateExportBody } from '../common/schemas/exports.js';
import { JOB_OPTIONS, type StartableJobKind } from '../common/schemas/jobs.js';
import {
  WatchedFileStep,
  WatchedFolderSettings,
  type ConfigWatchedFolder,
  type CreateWatchedFolderBody,
  type UpdateWatchedFolderBody,
  type WatchedFile,
  type WatchedFileGroup,
  type WatchedFileState,
  type WatchedFolder,
  type WatchedFolderOptions,
  type WatchedFolderStatus,
} from '../common/schemas/watched-folders.js';
import { recordChange } from './change-log.js';
import { isoNow, type Clock, type ServiceContext } from './context.js';
import { requireCase } from './cases.js';
import { checkJobOptions } from './job-options.js';
import { assertMaySaveFolder } from './watched-folder-scopes.js';
import type { Scope } from '../common/scopes.js';
import { transact } from '../db/transaction.js';

/** What validation needs besides the database: the configured limits and where the data directory is. */
export interface WatchedFolderEnv {
  options: WatchedFolderOptions;
  dataDir: string;
}

/** Folders under a watched folder that hold its results; never watched themselves. */
export const PROCESSED_DIR = 'processed';
export const FAILED_DIR = 'failed';

export function isSameOrInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export function folderSettings(row: WatchedFolderRow): WatchedFolderSettings {
  return WatchedFolderSettings.parse(JSON.parse(row.settings));
}

export interface EffectiveWatch {
  stability_ms: number;
  rescan_interval_seconds: number;
  use_polling: boolean;
  polling_interval_ms: number;
}

/** The folder's own timing, or the configured defaults. */
export function effectiveWatch(settings: WatchedFolderSettings, options: WatchedFolderOptions): EffectiveWatch {
  return {
    stability_ms: settings.watch.stability_ms ?? options.stabilityMs,
    rescan_interval_seconds: settings.watch.rescan_interval_seconds ?? options.rescanIntervalSeconds,
    use_polling: settings.watch.use_polling ?? false,
    polling_interval_ms: settings.watch.polling_interval_ms ?? options.pollingIntervalMs,
  };
}

export function toWatchedFolder(row: WatchedFolderRow, options: WatchedFolderOptions): WatchedFolder {
  const settings = folderSettings(row);
  return {
    id: String(row.id),
    name: row.name,
    path: row.path,
    origin: row.origin,
    enabled: row.enabled === 1,
    target: settings.target,
    pipeline: settings.pipeline,
    patterns: settings.patterns,
    disposition: settings.disposition,
    watch: effectiveWatch(settings, options),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const nullableId = (value: number | null) => (value === null ? null : String(value));

export function toWatchedFile(row: WatchedFileRow): WatchedFile {
  return {
    id: String(row.id),
    folder_id: String(row.folder_id),
    relative_path: row.relative_path,
    state: row.state,
    size: row.size,
    sha256: row.sha256,
    case_id: nullableId(row.case_id),
    document_id: nullableId(row.document_id),
    duplicate_of: nullableId(row.duplicate_of),
    steps: WatchedFileStep.array().parse(JSON.parse(row.steps)),
    output_path: row.output_path,
    output_written: row.output_written_at !== null,
    disposition: row.disposition,
    disposed_path: row.disposed_path,
    error_step: row.error_step,
    error_message: row.error_message,
    seen_at: row.seen_at,
    stored_at: row.stored_at,
    finished_at: row.finished_at,
    updated_at: row.updated_at,
  };
}

/** A job kind's options schema, or undefined while this build cannot run the kind. */
function jobOptionsSchema(kind: string): z.ZodType | undefined {
  return Object.hasOwn(JOB_OPTIONS, kind) ? (JOB_OPTIONS as Record<string, z.ZodType>)[kind] : undefined;
}

/** The options a detection step runs with: its own, plus the template. */
export function detectionOptions(pipeline: WatchedFolderSettings['pipeline']): Record<string, unknown> {
  const detection = pipeline.detection;
  if (!detection) return {};
  return { ...detection.options, ...(detection.template_id ? { template_id: detection.template_id } : {}) };
}

async function checkJobStep(db: Executor, ctx: ServiceContext, kind: string, options: Record<string, unknown> | undefined, field: string, problems: ErrorDetail[]) {
  const schema = jobOptionsSchema(kind);
  if (!schema) {
    problems.push({ field, message: `${kind} jobs are not available in this version` });
    return;
  }
  const parsed = schema.safeParse(options ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ field: [field, 'options', ...issue.path.map(String)].join('.'), message: issue.message });
    return;
  }
  try {
    await checkJobOptions(db, ctx, kind as StartableJobKind, parsed.data);
  } catch (error) {
    problems.push({ field, message: error instanceof Error ? error.message : String(error) });
  }
}

function checkExportStep(step: NonNullable<WatchedFolderSettings['pipeline']['export']>, problems: ErrorDetail[]): void {
  const parsed = CreateExportBody.safeParse({ case_id: '1', format: step.format, filters: step.filters, options: step.options });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ field: ['pipeline.export', ...issue.path.map(String)].join('.'), message: issue.message });
    return;
  }
  if (parsed.data.filters?.document_ids) problems.push({ field: 'pipeline.export.filters.document_ids', message: "set by the pipeline: each file's own document" });
  if (step.options && (step.format === 'csv' || step.format === 'json')) problems.push({ field: 'pipeline.export.options', message: `options apply to pdf and zip exports only` });
  if (step.format === 'zip' && parsed.data.options?.cover_sheet) problems.push({ field: 'pipeline.export.options.cover_sheet', message: 'pdf exports only' });
}

interface Candidate {
  name: string;
  path: string;
  settings: WatchedFolderSettings;
}

/**
 * The rules a folder must meet before anything watches it. `fromApi`: the path must exist now, and it and
 * its output folder must lie under `allowedRoots` (none by default: the API then creates no folder);
 * config-file folders are the operator's and may point at a share that is not mounted yet (the runner
 * reports it unavailable until it is).
 */
async function validateFolder(db: Executor, ctx: ServiceContext, candidate: Candidate, env: WatchedFolderEnv, fromApi: boolean, exceptId?: number) {
  const problems: ErrorDetail[] = [];
  const folderPath = candidate.path;
  if (!path.isAbsolute(folderPath)) problems.push({ field: 'path', message: 'must be an absolute path' });
  else if (path.parse(folderPath).root === folderPath) problems.push({ field: 'path', message: 'a file-system root cannot be watched' });
  else if (isSameOrInside(folderPath, env.dataDir) || isSameOrInside(env.dataDir, folderPath)) {
    problems.push({ field: 'path', message: "must not be or contain Obscura's data directory" });
  } else if (fromApi) {
    const stat = fs.statSync(folderPath, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) problems.push({ field: 'path', message: 'no folder exists at this path' });
    const rootProblem = outsideAllowedRoots(folderPath, env.options);
    if (rootProblem) problems.push({ field: 'path', message: rootProblem });
  }
  const { pipeline, target } = candidate.settings;
  if (pipeline.scan.enabled) await checkJobStep(db, ctx, 'scan', pipeline.scan.options, 'pipeline.scan', problems);
  if (pipeline.ocr) await checkJobStep(db, ctx, 'ocr', pipeline.ocr.options, 'pipeline.ocr', problems);
  if (pipeline.detection) await checkJobStep(db, ctx, 'detection', detectionOptions(pipeline), 'pipeline.detection', problems);
  if (pipeline.detection && !pipeline.ocr) {
    problems.push({ field: 'pipeline.detection', message: 'needs the ocr step: detection reads the text OCR stores (text layers are read, not recognised)' });
  }
  if (pipeline.auto_accept && !pipeline.detection) problems.push({ field: 'pipeline.auto_accept', message: 'needs a detection step' });
  const others = (await listLiveWatchedFolders(db)).filter((row) => row.id !== exceptId);
  if (pipeline.export) {
    const output = pipeline.export.output_path;
    if (!path.isAbsolute(output)) problems.push({ field: 'pipeline.export.output_path', message: 'must be an absolute path' });
    else if (isSameOrInside(output, env.dataDir)) problems.push({ field: 'pipeline.export.output_path', message: "must not be inside Obscura's data directory" });
    else if (others.some((row) => isSameOrInside(output, row.path))) {
      problems.push({ field: 'pipeline.export.output_path', message: 'lies inside another watched folder, which would take the release files in again' });
    } else if (fromApi) {
      const rootProblem = outsideAllowedRoots(output, env.options);
      if (rootProblem) problems.push({ field: 'pipeline.export.output_path', message: rootProblem });
    }
    checkExportStep(pipeline.export, problems);
  }
  if (target.mode === 'case') {
    const caseRow = await requireCase(db, ctx, Number(target.case_id)).catch(() => undefined);
    if (!caseRow || caseRow.deleted_at) problems.push({ field: 'target.case_id', message: 'no such case in this organization (or it is deleted)' });
  }
  if (problems.length > 0) throw new DomainError('validation_error', 'the watched folder cannot be saved as given', problems.map((p) => ({ ...p, location: 'body' })));
  const feeding = others.find((row) => {
    const output = folderSettings(row).pipeline.export?.output_path;
    return output !== undefined && isSameOrInside(output, folderPath);
  });
  if (feeding) {
    throw new DomainError('validation_error', 'the watched folder cannot be saved as given', [
      { field: 'path', location: 'body', message: "contains another watched folder's output folder, whose release files would be taken in again" },
    ]);
  }
  const overlapping = others.find((row) => isSameOrInside(folderPath, row.path) || isSameOrInside(row.path, folderPath));
  if (overlapping) {
    const same = overlapping.organization_id === ctx.actor.organizationId;
    throw new DomainError('conflict', `the path overlaps ${same ? `watched folder ${overlapping.id} (${overlapping.name})` : 'another watched folder'}; a file would be taken twice`);
  }
}

/**
 * Where a path lives on disk: symlinks resolved in the longest part that exists (a folder not created yet
 * keeps its remaining names), so overlap and root checks compare real paths and a link cannot lead out.
 */
export function canonicalPath(folderPath: string): string {
  const resolved = path.resolve(folderPath);
  const missing: string[] = [];
  let current = resolved;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return resolved;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The operator's allowed roots, symlinks resolved; empty (the default) means none. */
export function allowedRoots(options: WatchedFolderOptions): string[] {
  return (options.allowedRoots ?? []).filter((root) => path.isAbsolute(root)).map(canonicalPath);
}

/** Why a path may not be used through the API, or undefined when it lies under an allowed root. */
function outsideAllowedRoots(candidate: string, options: WatchedFolderOptions): string | undefined {
  const roots = allowedRoots(options);
  if (roots.length === 0) {
    return 'watched folders cannot be created through the API until the operator lists allowed roots in config.json (watchedFolderOptions.allowedRoots)';
  }
  if (!roots.some((root) => isSameOrInside(canonicalPath(candidate), root))) {
    return 'must lie under one of the allowed roots (watchedFolderOptions.allowedRoots), symbolic links resolved';
  }
  return undefined;
}

/**
 * Whether the runner may delete this source file (disposition delete): its real path must stay inside the
 * folder's real path (a symlink swapped in after the folder was saved cannot aim the delete elsewhere),
 * and for a folder made through the API, under an allowed root as well.
 */
export function mayDeleteSource(source: string, folderRoot: string, origin: 'api' | 'config', options: WatchedFolderOptions): boolean {
  let real: string;
  try {
    real = fs.realpathSync(source);
  } catch {
    return false;
  }
  if (!isSameOrInside(real, canonicalPath(folderRoot)) || real === canonicalPath(folderRoot)) return false;
  if (origin === 'config') return true;
  return allowedRoots(options).some((root) => isSameOrInside(real, root));
}

function settingsOf(body: Omit<CreateWatchedFolderBody, 'name' | 'path' | 'enabled'>): WatchedFolderSettings {
  return WatchedFolderSettings.parse({
    target: body.target,
    pipeline: body.pipeline,
    patterns: body.patterns,
    disposition: body.disposition,
    watch: body.watch,
  });
}

async function requireFolder(db: Executor, ctx: ServiceContext, folderId: number): Promise<WatchedFolderRow> {
  const row = await findWatchedFolder(db, ctx.actor.organizationId, folderId);
  if (!row) throw notFound('watched folder');
  return row;
}

function requireApiOrigin(row: WatchedFolderRow): void {
  if (row.origin === 'config') throw new DomainError('conflict', `watched folder ${row.id} is defined in config.json; change it there`);
}

async function insertFolder(db: Executor, ctx: ServiceContext, origin: 'api' | 'config', fields: { name: string; path: string; enabled: boolean; settings: WatchedFolderSettings }, options: WatchedFolderOptions) {
  const now = isoNow(ctx);
  const id = await insertWatchedFolder(db, {
    organization_id: ctx.actor.organizationId,
    saved_by: origin === 'api' ? `${ctx.actor.type}:${ctx.actor.id}` : null,
    name: fields.name,
    path: fields.path,
    origin,
    enabled: fields.enabled ? 1 : 0,
    settings: JSON.stringify(fields.settings),
    watch_state: 'stopped',
    watch_error: null,
    last_scan_at: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  const created = toWatchedFolder(await requireFolder(db, ctx, id), options);
  await recordChange(db, ctx, {
    action: 'watched_folder.create',
    resourceType: 'watched_folder',
    resourceId: id,
    details: { origin, path: fields.path },
    event: { type: 'watched_folder.created', payload: { watched_folder: created } },
  });
  return created;
}

export async function createWatchedFolder(db: Executor, ctx: ServiceContext, body: CreateWatchedFolderBody, env: WatchedFolderEnv, held: ReadonlySet<Scope>): Promise<WatchedFolder> {
  const candidate = { name: body.name, path: canonicalPath(body.path), settings: settingsOf(body) };
  assertMaySaveFolder(candidate.settings.pipeline, held);
  await validateFolder(db, ctx, { ...candidate, path: path.isAbsolute(body.path) ? candidate.path : body.path }, env, true);
  return insertFolder(db, ctx, 'api', { ...candidate, enabled: body.enabled }, env.options);
}

export async function getWatchedFolder(db: Executor, ctx: ServiceContext, folderId: number, options: WatchedFolderOptions): Promise<WatchedFolder> {
  return toWatchedFolder(await requireFolder(db, ctx, folderId), options);
}

export async function listWatchedFolderPage(db: Executor, ctx: ServiceContext, page: PageRequest, options: WatchedFolderOptions) {
  const result = await pageWatchedFolders(db, ctx.actor.organizationId, page);
  return { items: result.rows.map((row) => toWatchedFolder(row, options)), nextAfterId: result.nextAfterId };
}

async function applyUpdate(db: Executor, ctx: ServiceContext, row: WatchedFolderRow, next: { name: string; path: string; enabled: boolean; settings: WatchedFolderSettings }, env: WatchedFolderEnv, fromApi: boolean) {
  await validateFolder(db, ctx, next, env, fromApi, row.id);
  const changed = [
    ...(next.name !== row.name ? ['name'] : []),
    ...(next.path !== row.path ? ['path'] : []),
    ...(next.enabled !== (row.enabled === 1) ? ['enabled'] : []),
    ...(JSON.stringify(next.settings) !== JSON.stringify(folderSettings(row)) ? ['settings'] : []),
  ];
  if (changed.length === 0) return toWatchedFolder(row, env.options);
  await updateWatchedFolder(db, ctx.actor.organizationId, row.id, {
    name: next.name,
    path: next.path,
    enabled: next.enabled ? 1 : 0,
    settings: JSON.stringify(next.settings),
    updated_at: isoNow(ctx),
    ...(fromApi && { saved_by: `${ctx.actor.type}:${ctx.actor.id}` }),
  });
  const updated = toWatchedFolder(await requireFolder(db, ctx, row.id), env.options);
  await recordChange(db, ctx, {
    action: 'watched_folder.update',
    resourceType: 'watched_folder',
    resourceId: row.id,
    details: { fields: changed },
    event: { type: 'watched_folder.updated', payload: { watched_folder: updated, changed } },
  });
  return updated;
}

/** Files already on their way keep the pipeline they were stored with; new files get the new settings. */
export async function updateWatchedFolderFields(db: Executor, ctx: ServiceContext, folderId: number, body: UpdateWatchedFolderBody, env: WatchedFolderEnv, held: ReadonlySet<Scope>): Promise<WatchedFolder> {
  const row = await requireFolder(db, ctx, folderId);
  requireApiOrigin(row);
  const current = folderSettings(row);
  const settings = WatchedFolderSettings.parse({
    target: body.target ?? current.target,
    pipeline: body.pipeline ?? current.pipeline,
    patterns: body.patterns ?? current.patterns,
    disposition: body.disposition ?? current.disposition,
    watch: body.watch ?? current.watch,
  });
  // Whoever saves the folder answers for its steps from now on, so they must hold the steps' scopes.
  assertMaySaveFolder(settings.pipeline, held);
  return applyUpdate(db, ctx, row, { name: body.name ?? row.name, path: row.path, enabled: body.enabled ?? row.enabled === 1, settings }, env, true);
}

async function softDelete(db: Executor, ctx: ServiceContext, row: WatchedFolderRow, options: WatchedFolderOptions): Promise<void> {
  const now = isoNow(ctx);
  await updateWatchedFolder(db, ctx.actor.organizationId, row.id, { deleted_at: now, updated_at: now, enabled: 0 });
  await recordChange(db, ctx, {
    action: 'watched_folder.delete',
    resourceType: 'watched_folder',
    resourceId: row.id,
    event: { type: 'watched_folder.deleted', payload: { watched_folder: toWatchedFolder(row, options) } },
  });
}

/** Stops watching; files in flight stop where they are, documents made stay. The folder's files stay readable in the audit trail only. */
export async function deleteWatchedFolder(db: Executor, ctx: ServiceContext, folderId: number, options: WatchedFolderOptions): Promise<void> {
  const row = await requireFolder(db, ctx, folderId);
  requireApiOrigin(row);
  await softDelete(db, ctx, row, options);
}

const GROUP_STATES: Record<WatchedFileGroup, readonly WatchedFileState[]> = {
  waiting: ['waiting'],
  in_progress: ['storing', 'processing', 'disposing', 'failing'],
  done: ['done'],
  failed: ['failed'],
  vanished: ['vanished'],
};

export async function getWatchedFolderStatus(db: Executor, ctx: ServiceContext, folderId: number): Promise<WatchedFolderStatus> {
  const row = await requireFolder(db, ctx, folderId);
  const { byState, duplicates, stored } = await countFilesByState(db, row.id);
  const count = (group: WatchedFileGroup) =>
    byState.filter((entry) => GROUP_STATES[group].includes(entry.state)).reduce((sum, entry) => sum + Number(entry.count), 0);
  const errors = await listLatestErrors(db, row.id, 10);
  return {
    folder_id: String(row.id),
    watching: row.enabled === 1 ? row.watch_state : 'stopped',
    watch_error: row.watch_error,
    last_scan_at: row.last_scan_at,
    counts: {
      waiting: count('waiting'),
      in_progress: count('in_progress'),
      done: count('done'),
      failed: count('failed'),
      vanished: count('vanished'),
      duplicates,
      stored,
    },
    last_errors: errors.map((error) => ({
      file_id: String(error.id),
      relative_path: error.relative_path,
      error_step: error.error_step,
      error_message: error.error_message ?? '',
      at: error.updated_at,
    })),
  };
}

export async function listWatchedFilePage(db: Executor, ctx: ServiceContext, folderId: number, group: WatchedFileGroup | undefined, page: PageRequest) {
  const row = await requireFolder(db, ctx, folderId);
  const result = await pageFolderFiles(db, ctx.actor.organizationId, row.id, group ? GROUP_STATES[group] : undefined, page);
  return { items: result.rows.map(toWatchedFile), nextAfterId: result.nextAfterId };
}

export async function getWatchedFile(db: Executor, ctx: ServiceContext, folderId: number, fileId: number): Promise<WatchedFile> {
  const row = await requireFolder(db, ctx, folderId);
  const file = await findFolderFile(db, ctx.actor.organizationId, row.id, fileId);
  if (!file) throw notFound('watched file');
  return toWatchedFile(file);
}

function configContext(organizationId: number, clock: Clock): ServiceContext {
  return { actor: { type: 'system', id: 'config', organizationId }, requestId: null, clock };
}

/**
 * Makes the database match config.json's `watchedFolders` (by name): new entries are created, changed ones
 * updated, removed ones deleted. An entry that breaks a rule is skipped with a log line; the rest still apply.
 */
export async function syncConfigFolders(db: Db, clock: Clock, entries: readonly ConfigWatchedFolder[], env: WatchedFolderEnv, log: (line: string) => void): Promise<void> {
  const firstOrganization = await findFirstOrganizationId(db);
  const names = new Set<string>();
  for (const entry of entries) {
    names.add(entry.name);
    const organizationId = entry.organization_id ? Number(entry.organization_id) : firstOrganization;
    if (organizationId === undefined) {
      log(`watched folder "${entry.name}" in config.json is not used: there is no organization yet`);
      continue;
    }
    const ctx = configContext(organizationId, clock);
    try {
      await transact(db, async (trx) => {
        const existing = (await listLiveWatchedFolders(trx)).find((row) => row.origin === 'config' && row.name === entry.name);
        const next = { name: entry.name, path: canonicalPath(entry.path), enabled: entry.enabled, settings: settingsOf(entry) };
        if (existing && existing.organization_id !== organizationId) {
          await softDelete(trx, configContext(existing.organization_id, clock), existing, env.options);
        } else if (existing) {
          await applyUpdate(trx, ctx, existing, next, env, false);
          return;
        }
        await validateFolder(trx, ctx, { ...next, path: path.isAbsolute(entry.path) ? next.path : entry.path }, env, false);
        await insertFolder(trx, ctx, 'config', next, env.options);
      });
    } catch (error) {
      const details = error instanceof DomainError && Array.isArray(error.details) ? ` (${(error.details as ErrorDetail[]).map((d) => `${d.field}: ${d.message}`).join('; ')})` : '';
      log(`watched folder "${entry.name}" in config.json is not used: ${error instanceof Error ? error.message : String(error)}${details}`);
    }
  }
  await transact(db, async (trx) => {
    for (const row of await listLiveWatchedFolders(trx)) {
      if (row.origin === 'config' && !names.has(row.name)) await softDelete(trx, configContext(row.organization_id, clock), row, env.options);
    }
  });
}
