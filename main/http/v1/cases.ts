import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Case, CaseActionBody, CaseListQuery, CreateCaseBody, UpdateCaseBody } from '../../common/schemas/cases.js';
import { CaseClock, ClockEventBody, ClockSettings, UpdateClockSettingsBody } from '../../common/schemas/request-clock.js';
import { IdParam, list, single } from '../../common/schemas/shared.js';
import { applyCaseAction, createCase, deleteCase, getCase, listCasePage, updateCaseFields } from '../../services/cases.js';
import { addCaseClockEvent, getCaseClock } from '../../services/case-clock.js';
import { casePermissions } from '../../services/case-permissions.js';
import { CasePermissions } from '../../common/schemas/case-permissions.js';
import { principalOf } from './respond.js';
import { clockSettingsOf, updateClockSettings } from '../../services/request-clock/index.js';
import { commit, commitNoContent, paged, read } from './respond.js';

const CaseParams = z.object({ case_id: IdParam });

export const caseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/cases', { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], querystring: CaseListQuery, response: { 200: list(Case) } } }, (request) => {
    const { limit, cursor, ...filters } = request.query;
    // A cursor belongs to one order: the list's name says which.
    return paged(request, filters.sort === 'id' ? 'cases' : `cases:${filters.sort}`, { limit, cursor }, (db, ctx, page) => listCasePage(db, ctx, page, filters));
  });

  app.post(
    '/cases',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], body: CreateCaseBody, response: { 201: single(Case) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createCase(trx, ctx, request.body)),
  );

  app.get(
    '/cases/:case_id',
    { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], params: CaseParams, response: { 200: single(Case) } } },
    (request) => read(request, (db, ctx) => getCase(db, ctx, request.params.case_id)),
  );

  app.patch(
    '/cases/:case_id',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, body: UpdateCaseBody, response: { 200: single(Case) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateCaseFields(trx, ctx, request.params.case_id, request.body)),
  );

  app.delete(
    '/cases/:case_id',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, response: { 204: z.null().describe('Soft-deleted') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => deleteCase(trx, ctx, request.params.case_id)),
  );

  app.post(
    '/cases/:case_id/actions',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, body: CaseActionBody, response: { 200: single(Case) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => applyCaseAction(trx, ctx, request.params.case_id, request.body.action, request.body.note)),
  );

  app.get(
    '/cases/:case_id/clock',
    { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], params: CaseParams, response: { 200: single(CaseClock) } } },
    (request) => read(request, (db, ctx) => getCaseClock(db, ctx, request.params.case_id)),
  );

  app.post(
    '/cases/:case_id/clock/events',
    { config: { scopes: ['cases:write'] }, schema: { tags: ['cases'], params: CaseParams, body: ClockEventBody, response: { 201: single(CaseClock) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => addCaseClockEvent(trx, ctx, request.params.case_id, request.body)),
  );

  app.get(
    '/cases/:case_id/permissions',
    { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], params: CaseParams, response: { 200: single(CasePermissions) } } },
    (request) => read(request, (db, ctx) => casePermissions(db, ctx, request.params.case_id, principalOf(request).scopes)),
  );

  app.get('/clock-settings', { config: { scopes: ['cases:read'] }, schema: { tags: ['cases'], response: { 200: single(ClockSettings) } } }, (request) =>
    read(request, (db, ctx) => clockSettingsOf(db, ctx.actor.organizationId)),
  );

  app.patch(
    '/clock-settings',
    { config: { scopes: ['roles:write'] }, schema: { tags: ['cases'], body: UpdateClockSettingsBody, response: { 200: single(ClockSettings) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateClockSettings(trx, ctx, request.body)),
  );
};
