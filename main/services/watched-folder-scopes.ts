import type { WatchedFolderPipeline } from '../common/schemas/watched-folders.js';
import { DomainError } from '../common/errors.js';
import { isScope, type Scope } from '../common/scopes.js';
import type { Executor } from '../db/queries/executor.js';
import { findApiKeyForAuthentication, findApiKey } from '../db/queries/api-keys.js';
import { findUser } from '../db/queries/users.js';
import type { WatchedFolderRow } from '../db/schema.js';
import { scopesOfUser } from './user-principal.js';

// A folder's pipeline acts without anyone at the keyboard, so its steps need the scopes a person would need
// for them: checked against whoever saved the folder, when it is saved and again whenever a file runs.

/** The scopes the pipeline's steps use beyond documents:write and credentials:write (the route's). */
export function scopesForPipeline(pipeline: WatchedFolderPipeline): Scope[] {
  const needed: Scope[] = [];
  if (pipeline.auto_accept) needed.push('redactions:write');
  if (pipeline.export) {
    needed.push('exports:write');
    const internal = pipeline.export.format === 'csv' || pipeline.export.format === 'json' || pipeline.export.options?.audience === 'internal';
    // A folder's release leaves unreviewed, without the safeguards: only someone who may override them sets that up.
    if (!internal) needed.push('exports:override');
  }
  return needed;
}

export function missingFolderScopes(pipeline: WatchedFolderPipeline, held: ReadonlySet<Scope>): Scope[] {
  return scopesForPipeline(pipeline).filter((scope) => !held.has(scope));
}

/** 403 when the caller saving the folder lacks a scope its steps use. */
export function assertMaySaveFolder(pipeline: WatchedFolderPipeline, held: ReadonlySet<Scope>): void {
  const missing = missingFolderScopes(pipeline, held);
  if (missing.length > 0) {
    throw new DomainError('permission_denied', `this pipeline's steps need ${missing.join(', ')}, which the caller lacks (auto_accept: redactions:write; export: exports:write, and exports:override for a release)`, {
      required_scopes: missing,
    });
  }
}

/** What the folder's saver may do now: a revoked key, a deactivated user or narrowed scopes count at once. */
export async function currentScopesOf(db: Executor, organizationId: number, savedBy: string): Promise<Set<Scope>> {
  const [type, id] = savedBy.split(':');
  if (type === 'user') {
    const user = await findUser(db, organizationId, Number(id));
    if (!user || user.active !== 1) return new Set();
    return scopesOfUser(db, organizationId, user.id, user.is_admin === 1);
  }
  if (type === 'api_key') {
    const key = await findApiKey(db, organizationId, Number(id));
    if (!key || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= Date.now())) return new Set();
    const auth = await findApiKeyForAuthentication(db, key.lookup_id);
    if (!auth || auth.service_account_active !== 1) return new Set();
    const allowed = new Set(JSON.parse(auth.service_account_max_scopes) as string[]);
    return new Set((JSON.parse(auth.scopes) as string[]).filter(isScope).filter((scope) => allowed.has(scope)));
  }
  return new Set();
}

/**
 * Before a step that accepts or exports: the scopes still held by whoever saved the folder. config.json folders
 * are the operator's own; an API folder saved before this check existed (no saver) must be saved again.
 */
export async function missingScopesAtRun(db: Executor, folder: WatchedFolderRow, pipeline: WatchedFolderPipeline): Promise<Scope[]> {
  if (folder.origin === 'config') return [];
  const needed = scopesForPipeline(pipeline);
  if (needed.length === 0) return [];
  if (!folder.saved_by) return needed;
  const held = await currentScopesOf(db, folder.organization_id, folder.saved_by);
  return needed.filter((scope) => !held.has(scope));
}
