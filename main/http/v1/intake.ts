import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CaseIntakeList, CaseIntakeQuery, Family, IntakeState } from '../../common/schemas/intake.js';
import { IdParam, single } from '../../common/schemas/shared.js';
import { getFamily, getIntakeState, listCaseIntake } from '../../services/intake/index.js';
import { read } from './respond.js';

const DocumentParams = z.object({ document_id: IdParam });

/** Conversion state, families and threads of e-mail and Office intake (issue 19). */
export const intakeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/documents/:document_id/intake',
    { config: { scopes: ['documents:read'] }, schema: { tags: ['documents'], params: DocumentParams, response: { 200: single(IntakeState) } } },
    (request) => read(request, (db, ctx) => getIntakeState(db, ctx, request.params.document_id)),
  );
  app.get(
    '/documents/:document_id/family',
    { config: { scopes: ['documents:read'] }, schema: { tags: ['documents'], params: DocumentParams, response: { 200: single(Family) } } },
    (request) => read(request, (db, ctx) => getFamily(db, ctx, request.params.document_id)),
  );
  app.get(
    '/cases/:case_id/intake',
    {
      config: { scopes: ['documents:read'] },
      schema: { tags: ['documents'], params: z.object({ case_id: IdParam }), querystring: CaseIntakeQuery, response: { 200: single(CaseIntakeList) } },
    },
    (request) => read(request, (db, ctx) => listCaseIntake(db, ctx, request.params.case_id, request.query)),
  );
};
