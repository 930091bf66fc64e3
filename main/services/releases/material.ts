import { createHash } from 'node:crypto';
import type { Executor } from '../../db/queries/executor.js';
import type { ExportRow, WithholdingRow } from '../../db/schema.js';
import { findCaseReleaseDetails } from '../../db/queries/case-release-details.js';
import { listReleasePages, findLastBatesNumber, findLatestRelease } from '../../db/queries/release-pages.js';
import { listCaseWithholdings } from '../../db/queries/withholdings.js';
import { LAYER_INFO } from '../../common/redaction-catalog.js';
import { CATEGORY_KEYS, type CategoryKey, type ReleaseSettings } from '../../common/schemas/releases.js';
import type { Box } from '../redactions/model.js';
import { releaseSettingsOf } from './settings.js';

// What a release needs beyond the case record: settings, the requester-facing details, withholdings, the
// organization's exemption codes (a box's own code) and the previous release (numbering, what changed).

export interface ReleaseMaterial {
  settings: ReleaseSettings;
  requestNumber: string | null;
  requesterTitle: string | null;
  withholdings: WithholdingRow[];
  /** Exemption codes of the organization with their names, longest code first. */
  exemptions: { code: string; name: string }[];
  previous: { number: number; fingerprints: Map<string, string> } | null;
  lastBates: number | null;
  /** How each export of the case met the safeguards (overrides and their reasons): internal record only. */
  safeguardRecords: { export_id: string; format: string; release_number: number | null; created_at: string; safeguards: unknown }[];
}

export async function gatherReleaseMaterial(db: Executor, row: Pick<ExportRow, 'organization_id' | 'case_id'>): Promise<ReleaseMaterial> {
  const details = await findCaseReleaseDetails(db, row.organization_id, row.case_id);
  const exemptions = await db.selectFrom('exemptions').select(['code', 'name']).where('organization_id', '=', row.organization_id).execute();
  const latest = await findLatestRelease(db, row.case_id);
  const previous = latest?.release_number
    ? { number: latest.release_number, fingerprints: new Map((await listReleasePages(db, latest.id)).map((page) => [pageKey(page.document_id, page.page_from, page.page_to), page.fingerprint])) }
    : null;
  return {
    settings: await releaseSettingsOf(db, row.organization_id),
    requestNumber: details?.request_number ?? null,
    requesterTitle: details?.requester_title ?? null,
    withholdings: await listCaseWithholdings(db, row.organization_id, row.case_id),
    exemptions: exemptions.sort((a, b) => b.code.length - a.code.length),
    previous,
    lastBates: await findLastBatesNumber(db, row.case_id),
    safeguardRecords: (
      await db.selectFrom('exports').select(['id', 'format', 'release_number', 'created_at', 'safeguards']).where('case_id', '=', row.case_id).where('safeguards', 'is not', null).orderBy('id').execute()
    ).map((entry) => ({ export_id: String(entry.id), format: entry.format, release_number: entry.release_number, created_at: entry.created_at, safeguards: JSON.parse(entry.safeguards ?? 'null') as unknown })),
  };
}

export function pageKey(documentId: number, from: number, to: number): string {
  return `${documentId}:${from}-${to}`;
}

/**
 * A box's own exemption code: an organization code the clerk put first in the box's reason (e.g. "(b)(7)(C)
 * witness"), else its layer's code. Only the matched code is used; the reason itself stays internal.
 */
export function exemptionOf(box: Box, exemptions: readonly { code: string }[]): string {
  const reason = box.reason?.trimStart() ?? '';
  return exemptions.find((entry) => reason.startsWith(entry.code))?.code ?? LAYER_INFO[box.layer].exemption;
}

/** A box's category wording: from the detector's entity kind (a fixed list), else "other". */
export function categoryOf(box: Box, settings: ReleaseSettings): string {
  const entity = box.pendingReason?.['entity'];
  let key: CategoryKey = 'other';
  if (entity === 'custom_term' || entity === 'custom_pattern') key = 'custom';
  else if (typeof entity === 'string' && (CATEGORY_KEYS as readonly string[]).includes(entity)) key = entity as CategoryKey;
  return settings.categories[key];
}

/** What a released page showed: compared with the previous release to say new, changed or unchanged. */
export function pageFingerprint(sha256: string, from: number, to: number, withheld: string | null, boxes: readonly Box[], exemptions: ReleaseMaterial['exemptions']): string {
  const shapes = boxes
    .filter((box) => box.page >= from && box.page <= to)
    .map((box) => [box.page, box.x1, box.y1, box.x2, box.y2, box.points, exemptionOf(box, exemptions)])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return createHash('sha256').update(JSON.stringify({ sha256, from, to, withheld, shapes })).digest('hex');
}
