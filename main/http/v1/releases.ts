import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CaseReleaseDetails,
  CreateWithholdingBody,
  IndexRow,
  ReleaseCheck,
  ReleaseSettings,
  UpdateCaseReleaseDetailsBody,
  UpdateReleaseSettingsBody,
  Withholding,
} from '../../common/schemas/releases.js';
import { ApprovalNote } from '../../common/schemas/cases.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { requireCase } from '../../services/cases.js';
import { checkRelease, reapproveRelease } from '../../services/releases/safeguards.js';
import { getCaseReleaseDetails, releaseSettingsOf, updateCaseReleaseDetails, updateReleaseSettings } from '../../services/releases/settings.js';
import { previewIndex } from '../../services/releases/preview.js';
import { createWithholding, listWithholdings, removeWithholding } from '../../services/releases/withholdings.js';
import { commit, commitNoContent, principalOf, read } from './respond.js';

const tags = ['exports'];
const CaseParams = z.object({ case_id: IdParam });
const WithholdingParams = z.object({ withholding_id: IdParam });
const CheckQuery = z.strictObject({
  document_ids: z
    .string()
    .regex(/^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15}){0,999}$/, 'comma-separated document ids')
    .optional()
    .describe('The documents of the planned release; default every active document'),
});

// The requester's release around exports: organization settings (policy: roles:write, like exemptions),
// a case's requester-facing details, withholdings in full, and the safeguard check the Release screen shows.
export const releaseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/release-settings', { config: { scopes: ['exports:read'] }, schema: { tags, response: { 200: single(ReleaseSettings) } } }, (request) =>
    read(request, (db, ctx) => releaseSettingsOf(db, ctx.actor.organizationId)),
  );

  app.patch(
    '/release-settings',
    { config: { scopes: ['roles:write'] }, schema: { tags, body: UpdateReleaseSettingsBody, response: { 200: single(ReleaseSettings) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateReleaseSettings(trx, ctx, request.body, { canOverride: principalOf(request).scopes.has('exports:override') })),
  );

  app.get(
    '/cases/:case_id/release-details',
    { config: { scopes: ['cases:read'] }, schema: { tags, params: CaseParams, response: { 200: single(CaseReleaseDetails) } } },
    (request) => read(request, (db, ctx) => getCaseReleaseDetails(db, ctx, request.params.case_id)),
  );

  app.patch(
    '/cases/:case_id/release-details',
    { config: { scopes: ['cases:write'] }, schema: { tags, params: CaseParams, body: UpdateCaseReleaseDetailsBody, response: { 200: single(CaseReleaseDetails) } } },
    (request, reply) => commit(request, reply, 200, (trx, ctx) => updateCaseReleaseDetails(trx, ctx, request.params.case_id, request.body)),
  );

  app.get(
    '/cases/:case_id/withholdings',
    { config: { scopes: ['redactions:read'] }, schema: { tags, params: CaseParams, response: { 200: single(z.array(Withholding)) } } },
    (request) => read(request, (db, ctx) => listWithholdings(db, ctx, request.params.case_id)),
  );

  app.post(
    '/cases/:case_id/withholdings',
    { config: { scopes: ['redactions:write'] }, schema: { tags, params: CaseParams, body: CreateWithholdingBody, response: { 201: single(Withholding) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => createWithholding(trx, ctx, request.params.case_id, request.body)),
  );

  app.delete(
    '/withholdings/:withholding_id',
    { config: { scopes: ['redactions:write'] }, schema: { tags, params: WithholdingParams, response: { 204: z.null().describe('Removed') } } },
    (request, reply) => commitNoContent(request, reply, (trx, ctx) => removeWithholding(trx, ctx, request.params.withholding_id)),
  );

  app.get(
    '/cases/:case_id/release-check',
    { config: { scopes: ['exports:read'] }, schema: { tags, params: CaseParams, querystring: CheckQuery, response: { 200: single(ReleaseCheck) } } },
    (request) =>
      read(request, async (db, ctx) => {
        await requireCase(db, ctx, request.params.case_id);
        const documentIds = request.query.document_ids?.split(',') ?? null;
        return checkRelease(db, { organizationId: ctx.actor.organizationId, caseId: request.params.case_id, documentIds });
      }),
  );

  app.post(
    '/cases/:case_id/release-approval',
    { config: { scopes: ['cases:write'] }, schema: { tags, params: CaseParams, body: z.strictObject({ note: ApprovalNote }).nullish(), response: { 201: single(ReleaseCheck) } } },
    (request, reply) => commit(request, reply, 201, (trx, ctx) => reapproveRelease(trx, ctx, request.params.case_id, request.body?.note)),
  );

  app.get(
    '/cases/:case_id/release-index-preview',
    { config: { scopes: ['exports:read'] }, schema: { tags, params: CaseParams, response: { 200: single(z.array(IndexRow)) } } },
    (request) => read(request, (db, ctx) => previewIndex(db, ctx, request.params.case_id)),
  );
};
