import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, PageQuery, list, single } from '../../common/schemas/shared.js';
import {
  CreateWatchedFolderBody,
  UpdateWatchedFolderBody,
  WATCHED_FILE_GROUPS,
  WatchedFile,
  WatchedFolder,
  WatchedFolderStatus,
} from '../../common/schemas/watched-folders.js';
import {
  createWatchedFolder,
  deleteWatchedFolder,
  getWatchedFile,
  getWatchedFolder,
  getWatchedFolderStatus,
  listWatchedFilePage,
  listWatchedFolderPage,
  updateWatchedFolderFields,
  type WatchedFolderEnv,
} from '../../services/watched-folders.js';
import { commit, commitNoContent, paged, principalOf, read } from './respond.js';

const FolderParams = z.object({ folder_id: IdParam });
const FileParams = z.object({ folder_id: IdParam, file_id: IdParam });
const FilesQuery = PageQuery.extend({
  group: z.enum(WATCHED_FILE_GROUPS).optional().describe('Only files in this group: waiting, in_progress, done, failed, vanished'),
});

function env(request: FastifyRequest): WatchedFolderEnv {
  const { runtime } = request.server.obscura;
  return { options: runtime.config.watchedFolderOptions, dataDir: runtime.dataDir };
}

/**
 * A folder reads (and with disposition delete, removes) files on this machine's disk, so managing one also
 * needs credentials:write, the scope that can mint keys: an administrator's (docs/security.md).
 */
const ADMIN_SCOPES = ['credentials:write'] as const;

// A folder turns files into documents, so it is managed with documents:write and read with documents:read.
// What its pipeline does next (cases, jobs, review decisions, exports) runs as the system actor
// `watched_folder:<id>` and is audited under that name.
export const watchedFolderRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['watched folders'];

  app.get(
    '/watched-folders',
    { config: { scopes: ['documents:read'] }, schema: { tags, querystring: PageQuery, response: { 200: list(WatchedFolder) } } },
    (request) => paged(request, 'watched-folders', request.query, (db, ctx, page) => listWatchedFolderPage(db, ctx, page, env(request).options)),
  );

  app.post(
    '/watched-folders',
    { config: { scopes: ['documents:write'], alsoScopes: ADMIN_SCOPES }, schema: { tags, body: CreateWatchedFolderBody, response: { 201: single(WatchedFolder) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createWatchedFolder(trx, ctx, request.body, env(request), principalOf(request).scopes)),
  );

  app.get(
    '/watched-folders/:folder_id',
    { config: { scopes: ['documents:read'] }, schema: { tags, params: FolderParams, response: { 200: single(WatchedFolder) } } },
    (request) => read(request, (db, ctx) => getWatchedFolder(db, ctx, request.params.folder_id, env(request).options)),
  );

  app.patch(
    '/watched-folders/:folder_id',
    { config: { scopes: ['documents:write'], alsoScopes: ADMIN_SCOPES }, schema: { tags, params: FolderParams, body: UpdateWatchedFolderBody, response: { 200: single(WatchedFolder) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateWatchedFolderFields(trx, ctx, request.params.folder_id, request.body, env(request), principalOf(request).scopes)),
  );

  app.delete(
    '/watched-folders/:folder_id',
    { config: { scopes: ['documents:write'], alsoScopes: ADMIN_SCOPES }, schema: { tags, params: FolderParams, response: { 204: z.null().describe('No longer watched') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteWatchedFolder(trx, ctx, request.params.folder_id, env(request).options)),
  );

  app.get(
    '/watched-folders/:folder_id/status',
    { config: { scopes: ['documents:read'] }, schema: { tags, params: FolderParams, response: { 200: single(WatchedFolderStatus) } } },
    (request) => read(request, (db, ctx) => getWatchedFolderStatus(db, ctx, request.params.folder_id)),
  );

  app.get(
    '/watched-folders/:folder_id/files',
    { config: { scopes: ['documents:read'] }, schema: { tags, params: FolderParams, querystring: FilesQuery, response: { 200: list(WatchedFile) } } },
    (request) =>
      paged(
        request,
        `watched-files:${request.params.folder_id}:${request.query.group ?? ''}`,
        request.query,
        (db, ctx, page) => listWatchedFilePage(db, ctx, request.params.folder_id, request.query.group, page),
        'desc',
      ),
  );

  app.get(
    '/watched-folders/:folder_id/files/:file_id',
    { config: { scopes: ['documents:read'] }, schema: { tags, params: FileParams, response: { 200: single(WatchedFile) } } },
    (request) => read(request, (db, ctx) => getWatchedFile(db, ctx, request.params.folder_id, request.params.file_id)),
  );
};
