import type { Executor } from '../db/queries/executor.js';
import { documentsChangedSince, withholdingChangesSince } from '../db/queries/case-approvals.js';
import { findLatestApprovalRecord } from '../db/queries/case-participation.js';
import { listAllCaseDocuments } from '../db/queries/documents.js';
import type { CasePermissionAction, CasePermissions } from '../common/schemas/case-permissions.js';
import type { CaseStatus } from '../common/schemas/cases.js';
import type { Scope } from '../common/scopes.js';
import { CASE_TRANSITIONS, requireCase } from './cases.js';
import type { ServiceContext } from './context.js';
import { callerApprovalConflict, describeConflict } from './releases/separation.js';
import { releaseSettingsOf } from './releases/settings.js';

// GET /cases/{id}/permissions: what the caller may do on the case now, with the reason when not, so the
// window offers only that. Scopes, the workflow table and the separation-of-duties safeguard decide; every
// request is still checked by the server when it is made.

type Verdict = { allowed: boolean; reason: string | null };
const yes: Verdict = { allowed: true, reason: null };
const no = (reason: string): Verdict => ({ allowed: false, reason });

export async function casePermissions(db: Executor, ctx: ServiceContext, caseId: number, scopes: ReadonlySet<Scope>): Promise<CasePermissions> {
  const row = await requireCase(db, ctx, caseId);
  const org = ctx.actor.organizationId;
  const status = row.status as CaseStatus;
  const has = (scope: Scope, what: string): Verdict => (scopes.has(scope) ? yes : no(`your role does not allow ${what} (needs ${scope})`));
  const live = row.deleted_at === null && status !== 'cancelled';
  const transition = (action: keyof typeof CASE_TRANSITIONS): Verdict => {
    if (!CASE_TRANSITIONS[action].from.includes(status)) return no(`not while the case is ${status.replace('_', ' ')}`);
    return has('cases:write', 'changing the case');
  };

  const settings = await releaseSettingsOf(db, org);
  // Separation of duties: the rule the re-approval and the release safeguard apply too (releases/separation.ts).
  const conflict = settings.safeguards.separation_of_duties ? await callerApprovalConflict(db, org, caseId, `${ctx.actor.type}:${ctx.actor.id}`) : null;
  const separate: Verdict = conflict ? no(describeConflict(conflict, 'you')) : yes;
  const both = (...verdicts: Verdict[]): Verdict => verdicts.find((verdict) => !verdict.allowed) ?? yes;

  const record = status === 'approved' ? await findLatestApprovalRecord(db, org, caseId) : undefined;
  let approval: CasePermissions['approval'] = null;
  if (record) {
    const ids = (await listAllCaseDocuments(db, org, caseId)).map((document) => document.id);
    const changed = await documentsChangedSince(db, ids, record.created_at);
    const withholdings = await withholdingChangesSince(db, org, caseId, record.created_at);
    const details = record.details ? (JSON.parse(record.details) as { note?: unknown }) : {};
    approval = {
      approved_at: record.created_at,
      approved_by: { type: record.actor_type, id: record.actor_id },
      note: typeof details.note === 'string' ? details.note : null,
      reopened: changed.length > 0 || withholdings > 0,
      changed_document_ids: changed.map(String),
      withholding_changes: withholdings,
    };
  }

  const editWork = live ? has('redactions:write', 'redacting') : no('the case is closed');
  const actions: Record<CasePermissionAction, Verdict> = {
    start: transition('start'),
    submit: transition('submit'),
    approve: both(transition('approve'), separate),
    reject: transition('reject'),
    cancel: transition('cancel'),
    reapprove: approval?.reopened ? both(has('cases:write', 'approving'), separate) : no(approval ? 'nothing changed since the approval' : 'the case is not approved'),
    edit_case: live ? has('cases:write', 'changing the case') : no('the case is closed'),
    upload: live ? has('documents:write', 'adding documents') : no('the case is closed'),
    process: live ? has('processing:write', 'starting processing') : no('the case is closed'),
    edit_redactions: editWork,
    // The release screen prepares the release (details, withholdings, checklist) before approval too; its
    // safeguards say what still blocks the build.
    release: has('exports:write', 'building a release'),
    override: has('exports:override', 'releasing past a safeguard'),
    manage_settings: has('roles:write', 'changing organization settings'),
  };
  return {
    case_id: String(caseId),
    actor: { type: ctx.actor.type, id: ctx.actor.id },
    scopes: [...scopes].sort(),
    actions: Object.fromEntries(Object.entries(actions)) as CasePermissions['actions'],
    approval,
  };
}
