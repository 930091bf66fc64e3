import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditEntry, AuditQuery } from '../../common/schemas/audit.js';
import { IdParam, list } from '../../common/schemas/shared.js';
import { allCaseAudit, auditCsv, listCaseAudit, listReleaseSettingsAudit } from '../../services/audit/index.js';
import { paged, serviceContext } from './respond.js';

const CaseParams = z.object({ case_id: IdParam });

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/cases/:case_id/audit',
    { config: { scopes: ['cases:read'] }, schema: { tags: ['audit'], params: CaseParams, querystring: AuditQuery, response: { 200: list(AuditEntry) } } },
    (request) => paged(request, `audit:${request.params.case_id}`, request.query, (db, ctx, page) => listCaseAudit(db, ctx, request.params.case_id, request.query, page), 'desc'),
  );

  app.get(
    '/release-settings/audit',
    { config: { scopes: ['exports:read', 'roles:read'] }, schema: { tags: ['audit'], querystring: AuditQuery.pick({ limit: true, cursor: true }), response: { 200: list(AuditEntry) } } },
    (request) => paged(request, 'audit:release-settings', request.query, (db, ctx, page) => listReleaseSettingsAudit(db, ctx, page), 'desc'),
  );

  app.get(
    '/cases/:case_id/audit.csv',
    { config: { scopes: ['cases:read'] }, schema: { tags: ['audit'], params: CaseParams, querystring: AuditQuery.omit({ limit: true, cursor: true }) } },
    async (request, reply) => {
      const entries = await allCaseAudit(request.server.obscura.runtime.db, serviceContext(request), request.params.case_id, { limit: 50, ...request.query });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="case-${request.params.case_id}-audit.csv"`)
        .send(auditCsv(entries));
    },
  );
};
