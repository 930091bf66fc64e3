import type { Executor } from '../../db/queries/executor.js';
import { findCaseReleaseDetails, putCaseReleaseDetails } from '../../db/queries/case-release-details.js';
import { findReleaseSettings, putReleaseSettings } from '../../db/queries/release-settings.js';
import {
  CATEGORY_KEYS,
  DEFAULT_RELEASE_SETTINGS,
  ReleaseSettings,
  SAFEGUARDS,
  type CaseReleaseDetails,
  type UpdateReleaseSettingsBody,
} from '../../common/schemas/releases.js';
import type { z } from 'zod';
import type { UpdateCaseReleaseDetailsBody } from '../../common/schemas/releases.js';
import { DomainError } from '../../common/errors.js';
import { requireCase } from '../case-lookup.js';
import { recordChange } from '../change-log.js';
import { isoNow, type ServiceContext } from '../context.js';

/** The organization's release settings: stored values over the defaults (safeguards on, default wording). */
export async function releaseSettingsOf(db: Executor, organizationId: number): Promise<ReleaseSettings> {
  const row = await findReleaseSettings(db, organizationId);
  if (!row) return structuredClone(DEFAULT_RELEASE_SETTINGS);
  const stored = JSON.parse(row.settings) as Partial<ReleaseSettings>;
  return ReleaseSettings.parse({
    safeguards: { ...DEFAULT_RELEASE_SETTINGS.safeguards, ...stored.safeguards },
    categories: { ...DEFAULT_RELEASE_SETTINGS.categories, ...stored.categories },
    justifications: stored.justifications ?? {},
    letterhead: stored.letterhead ?? null,
    appeal_rights: stored.appeal_rights ?? null,
    hidden_content_in_review_copies: stored.hidden_content_in_review_copies ?? 'remove',
  });
}

/**
 * Policy changes need roles:write (the route); turning a safeguard off also needs exports:override, the same
 * power as releasing past it, and is audited (GET /release-settings/audit).
 */
export async function updateReleaseSettings(db: Executor, ctx: ServiceContext, body: UpdateReleaseSettingsBody, access: { canOverride: boolean }): Promise<ReleaseSettings> {
  const current = await releaseSettingsOf(db, ctx.actor.organizationId);
  const safeguards = { ...current.safeguards };
  for (const name of SAFEGUARDS) if (body.safeguards?.[name] !== undefined) safeguards[name] = body.safeguards[name];
  const turningOff = SAFEGUARDS.filter((name) => current.safeguards[name] && !safeguards[name]);
  if (turningOff.length > 0 && !access.canOverride) {
    throw new DomainError('permission_denied', `turning off ${turningOff.join(', ')} needs the scope exports:override as well as roles:write`, {
      required_scopes: ['roles:write', 'exports:override'],
      safeguards: turningOff,
    });
  }
  const categories = { ...current.categories };
  for (const key of CATEGORY_KEYS) {
    const wording = body.categories?.[key];
    if (wording !== undefined) categories[key] = wording;
  }
  const justifications = { ...current.justifications };
  for (const [code, text] of Object.entries(body.justifications ?? {})) {
    if (text === null) delete justifications[code];
    else justifications[code] = text;
  }
  const next = ReleaseSettings.parse({
    safeguards,
    categories,
    justifications,
    letterhead: body.letterhead === undefined ? current.letterhead : body.letterhead,
    appeal_rights: body.appeal_rights === undefined ? current.appeal_rights : body.appeal_rights,
    hidden_content_in_review_copies: body.hidden_content_in_review_copies ?? current.hidden_content_in_review_copies,
  });
  await putReleaseSettings(db, ctx.actor.organizationId, JSON.stringify(next), isoNow(ctx));
  const turnedOff = SAFEGUARDS.filter((name) => current.safeguards[name] && !next.safeguards[name]);
  await recordChange(db, ctx, {
    action: 'release_settings.update',
    resourceType: 'release_settings',
    resourceId: ctx.actor.organizationId,
    details: {
      fields: Object.keys(body),
      safeguards_turned_off: turnedOff,
      safeguards_turned_on: SAFEGUARDS.filter((name) => !current.safeguards[name] && next.safeguards[name]),
      ...(current.hidden_content_in_review_copies !== next.hidden_content_in_review_copies && {
        hidden_content_in_review_copies: { before: current.hidden_content_in_review_copies, after: next.hidden_content_in_review_copies },
      }),
    },
  });
  return next;
}

export async function getCaseReleaseDetails(db: Executor, ctx: ServiceContext, caseId: number): Promise<CaseReleaseDetails> {
  await requireCase(db, ctx, caseId);
  const row = await findCaseReleaseDetails(db, ctx.actor.organizationId, caseId);
  return { case_id: String(caseId), request_number: row?.request_number ?? null, requester_title: row?.requester_title ?? null, updated_at: row?.updated_at ?? null };
}

export async function updateCaseReleaseDetails(db: Executor, ctx: ServiceContext, caseId: number, body: z.infer<typeof UpdateCaseReleaseDetailsBody>): Promise<CaseReleaseDetails> {
  const current = await getCaseReleaseDetails(db, ctx, caseId);
  await putCaseReleaseDetails(db, {
    case_id: caseId,
    organization_id: ctx.actor.organizationId,
    request_number: body.request_number === undefined ? current.request_number : body.request_number,
    requester_title: body.requester_title === undefined ? current.requester_title : body.requester_title,
    updated_at: isoNow(ctx),
  });
  await recordChange(db, ctx, { action: 'case.release_details_update', resourceType: 'case', resourceId: caseId, details: { fields: Object.keys(body) } });
  return getCaseReleaseDetails(db, ctx, caseId);
}
