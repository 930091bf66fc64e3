import { ZipFile } from 'yazl';
import type { ExportAssembleResult, ExportVerification, StampPlan } from '../../common/export-tasks.js';
import type { ExportOptions, ExportSummary } from '../../common/schemas/exports.js';
import type { ExportMaterial, SkippedDocument } from '../../services/export-material.js';
import { caseRecord, redactionLogCsv } from '../../services/export-records.js';
import { assembleDocument, assembleOne } from './assemble.js';
import { burnAll } from './burn.js';
import { fileBase, releasable, safeName, settleAll, sha256OfFile, type BuildContext, type BuiltExport } from './context.js';
import { releasePlan, releaseTitle } from './release-plan.js';
import { settingsOf } from './requests.js';
import { burnSummary, summaryOf, sumVerification } from './summary.js';
import { madeAndVerified } from './verify.js';
import { addBuffer, addPdf, stageZip, type ZipEntry } from './zip.js';

// The internal record as a zip: the case record and the redaction log, marked internal, never produced by the
// release path; optionally review copies, burned, assembled and verified on the pool like a release.

/** Printed below every page of a review copy (a margin is added, as for page stamps): never mistaken for a release. */
const REVIEW_STAMP: StampPlan = { prefix: 'INTERNAL REVIEW COPY - NOT FOR RELEASE - page ', start: 1, digits: 1, position: 'bottom_center', fontSize: 9 };

/** Pages listed in a summary or manifest at most. */
const MAX_HIDDEN_LISTED = 1000;

interface ReviewCopies {
  outputs: { path: string; name: string; assembled: ExportAssembleResult }[];
  verification: ExportVerification;
  burn: NonNullable<ExportSummary['burn']>;
  hidden: NonNullable<ExportSummary['hidden_content']>;
  skipped: SkippedDocument[];
  pages: number;
}

/**
 * Internal review copies: each document redacted as its release would be (withheld pages as placeholders), marked
 * on every page, verified like a release. Text the source does not show is removed, as from every release, unless
 * the organization's setting is keep: then it stays (on pages rendered for their boxes, in the text layer), and the summary,
 * manifest and README say so.
 */
async function buildReviewCopies(ctx: BuildContext, material: ExportMaterial, options: ExportOptions): Promise<ReviewCopies> {
  const keep = material.release.settings.hidden_content_in_review_copies === 'keep';
  const settings = settingsOf(options);
  const { documents, skipped } = releasable(material);
  const plan = releasePlan(material, documents, { ...options, stamps: null });
  const burned = await burnAll(ctx, material, documents, settings, 0.02, 0.7, plan, keep);
  const make = () =>
    settleAll(
      documents.map(async (entry, index) => {
        const path = `${ctx.workPrefix}-review-${index}.pdf`;
        const assembled = await assembleOne(ctx, material, path, [assembleDocument(ctx, entry, burned, plan)], null, settings, () => undefined, REVIEW_STAMP);
        return { path, name: `INTERNAL-review-copy-${String(index + 1).padStart(3, '0')}-${safeName(releaseTitle(entry.material.row.file_name))}.pdf`, assembled };
      }),
    );
  const { outputs, verifications } = await madeAndVerified(ctx, material, documents, burned, settings, make, keep);
  const hiddenPages: { document_id: string; page: number }[] = [];
  if (keep) {
    for (const { material: document } of documents) {
      for (const page of [...new Set(burned.get(document.row.id)?.hiddenKept ?? [])].sort((a, b) => a - b)) {
        if (hiddenPages.length < MAX_HIDDEN_LISTED) hiddenPages.push({ document_id: String(document.row.id), page });
      }
    }
  }
  return {
    outputs,
    verification: sumVerification(verifications),
    burn: burnSummary(documents, burned, settings, outputs.reduce((sum, output) => sum + (output.assembled.linksDropped ?? 0), 0)),
    hidden: { kept: keep, pages: hiddenPages },
    skipped,
    pages: outputs.reduce((sum, output) => sum + output.assembled.pages, 0),
  };
}

function internalReadme(review: ReviewCopies | null): string {
  const lines = ['INTERNAL RECORD - NOT FOR RELEASE', 'This package holds internal notes, comments, job results and reviewers. Send requesters a release export.'];
  if (review) {
    lines.push('', 'INTERNAL-review-copy-*.pdf are review copies: redacted like the release and marked on every page as internal. They are not releases.');
    if (review.hidden.kept) {
      const listed = review.hidden.pages.map((entry) => `document ${entry.document_id} page ${entry.page}`).join(', ');
      lines.push(
        'HIDDEN CONTENT KEPT: the organization setting hidden_content_in_review_copies is "keep", so these review copies keep text their sources do not show',
        '(layers that are off, invisible text, text outside the page or under an image or shape). A layer that was off may show in them. Releases always remove it.',
        `Pages carrying hidden content: ${listed || 'none found'}.`,
      );
    } else {
      lines.push('Hidden content removed: text the sources do not show is left out of these review copies, as of every release.');
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The internal record as a zip: marked internal in every file name; withholdings and safeguard overrides included. */
export async function buildInternalZip(ctx: BuildContext, material: ExportMaterial): Promise<BuiltExport> {
  const review = material.options?.review_copies ? await buildReviewCopies(ctx, material, material.options) : null;
  const generatedAt = ctx.runtime.clock.now();
  const mtime = new Date(material.row.created_at);
  const zip = new ZipFile();
  const files: ZipEntry[] = [];
  const record = { ...caseRecord(material, generatedAt.toISOString()), ...internalReleaseRecord(material) };
  addBuffer(zip, files, 'INTERNAL-case-record.json', Buffer.from(`${JSON.stringify(record, null, 2)}\n`, 'utf8'), 'application/json', mtime);
  addBuffer(zip, files, 'INTERNAL-redaction-log.csv', Buffer.from(redactionLogCsv(material), 'utf8'), 'text/csv; charset=utf-8', mtime);
  addBuffer(zip, files, 'INTERNAL-README.txt', Buffer.from(internalReadme(review), 'utf8'), 'text/plain', mtime);
  for (const output of review?.outputs ?? []) {
    if ((await sha256OfFile(output.path)) !== output.assembled.sha256) throw new Error(`the review copy ${output.name} changed on disk`);
    addPdf(zip, files, output, mtime);
  }
  const manifest = {
    schema_version: 2,
    audience: 'internal',
    export_id: String(material.row.id),
    case_id: String(material.row.case_id),
    generated_at: generatedAt.toISOString(),
    files,
    ...(review && { review_copies: { files: review.outputs.map((output) => output.name), hidden_content: review.hidden } }),
  };
  const staged = await stageZip(ctx, zip, manifest, mtime);
  const summary = review
    ? { ...summaryOf(material.documents, review.skipped, review.pages, review.verification, review.outputs.length, review.burn), hidden_content: review.hidden }
    : summaryOf(material.documents, material.skipped, 0, null, 0);
  ctx.progress(0.98);
  return { staged, mediaType: 'application/zip', fileName: `${fileBase(material)}-INTERNAL.zip`, summary };
}

/** What the internal record adds about releases: requester details, withholdings, safeguard outcomes. */
export function internalReleaseRecord(material: ExportMaterial) {
  const release = material.release;
  return {
    audience: 'internal',
    release: {
      request_number: release.requestNumber,
      requester_title: release.requesterTitle,
      withholdings: release.withholdings.map((row) => ({ id: String(row.id), document_id: String(row.document_id), pages: row.page_from === null ? null : { from: row.page_from, to: row.page_to }, exemption: row.exemption, category: row.category, created_by: row.created_by, created_at: row.created_at })),
      safeguards: release.safeguardRecords,
      last_release: release.previous?.number ?? null,
      last_stamp_number: release.lastBates,
    },
  };
}
