import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ExportAssembleResult, ExportVerification, ReleaseLayoutPage, StampPlan, WithheldRange } from '../common/export-tasks.js';
import type { ExportOptions, ExportSummary } from '../common/schemas/exports.js';
import type { ExportMaterial, SkippedDocument } from '../services/export-material.js';
import { caseRecord, redactionLogCsv } from '../services/export-records.js';
import type { FinishedRelease } from '../services/exports.js';
import { exemptionOf } from '../services/releases/material.js';
import { indexCsv, indexRows, releasedPages, type IndexRow, type ReleaseDocument, type ReleasedPage } from '../services/releases/withholding-index.js';
import { coverLetterPdf, withholdingIndexPdf } from '../../worker/release-package/documents.js';
import {
  assembleDocument,
  assembleOne,
  burnAll,
  burnSummary,
  fileBase,
  releasable,
  safeName,
  settingsOf,
  settleAll,
  sha256OfFile,
  summaryOf,
  searchPackage,
  madeAndVerified,
  type BuildContext,
  type BuiltExport,
  type Releasable,
} from './export-build.js';

// The two audiences of a zip. The release: redacted PDFs (stamped, withheld pages as placeholders), the
// withholding index (PDF and CSV), an optional cover letter and a manifest; nothing internal. The internal
// record: the case record and the redaction log, marked internal, never produced by the release path.

/** Pages of a whole document withheld in full are skipped up to this page number when an image is burned. */
const WHOLE_DOCUMENT_PAGES = 20_000;

export interface ReleasePlan {
  number: number;
  stamps: StampPlan | null;
  /** The first stamp number when it continues the case's sequence by default (checked again at completion). */
  continuedFrom: number | null;
  ranges: Map<number, WithheldRange[]>;
  skipPages: Map<number, Set<number>>;
  wholeDocuments: Set<number>;
  perRange: boolean;
  documents: ReleaseDocument[];
  finish(layout: ReleaseLayoutPage[], summary: ExportSummary): { summary: ExportSummary; release: FinishedRelease; pages: ReleasedPage[]; rows: IndexRow[] };
}

export function releaseTitle(fileName: string): string {
  return fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

export function releasePlan(material: ExportMaterial, documents: Releasable[], options: ExportOptions): ReleasePlan {
  const release = material.release;
  const chosen = new Set(documents.map((entry) => entry.material.row.id));
  const ranges = new Map<number, WithheldRange[]>();
  const skipPages = new Map<number, Set<number>>();
  const wholeDocuments = new Set<number>();
  for (const holding of release.withholdings.filter((entry) => chosen.has(entry.document_id))) {
    ranges.set(holding.document_id, [...(ranges.get(holding.document_id) ?? []), { from: holding.page_from ?? 1, to: holding.page_to, exemption: holding.exemption }]);
    const skip = skipPages.get(holding.document_id) ?? new Set<number>();
    const last = holding.page_to ?? WHOLE_DOCUMENT_PAGES;
    for (let page = holding.page_from ?? 1; page <= last; page += 1) skip.add(page);
    skipPages.set(holding.document_id, skip);
    if (holding.page_from === null) wholeDocuments.add(holding.document_id);
  }
  const start = options.stamps?.start ?? (release.lastBates ?? 0) + 1;
  const stamps: StampPlan | null = options.stamps
    ? { prefix: options.stamps.prefix, start, digits: options.stamps.digits, position: options.stamps.position, fontSize: options.stamps.font_size }
    : null;
  const releaseDocuments: ReleaseDocument[] = documents.map((entry) => ({
    documentId: entry.material.row.id,
    title: releaseTitle(entry.material.row.file_name),
    sha256: entry.material.row.sha256,
    // Boxes on withheld pages are not listed: the placeholder's row stands for the whole page.
    applied: entry.material.applied.filter((box) => !skipPages.get(entry.material.row.id)?.has(box.page)),
  }));
  const number = (release.previous?.number ?? 0) + 1;
  return {
    number,
    stamps,
    continuedFrom: stamps && options.stamps?.start === undefined ? start : null,
    ranges,
    skipPages,
    wholeDocuments,
    perRange: options.placeholders === 'per_range',
    documents: releaseDocuments,
    finish(layout, summary) {
      const pages = releasedPages(layout, releaseDocuments, stamps, release);
      const rows = indexRows(pages, releaseDocuments, release);
      const byExemption: Record<string, number> = {};
      for (const document of releaseDocuments) for (const box of document.applied) byExemption[exemptionOf(box, release.exemptions)] = (byExemption[exemptionOf(box, release.exemptions)] ?? 0) + 1;
      const withheldPages = pages.filter((page) => page.withheld !== null).reduce((sum, page) => sum + page.to - page.from + 1, 0);
      return {
        pages,
        rows,
        summary: {
          ...summary,
          redactions: releaseDocuments.reduce((sum, document) => sum + document.applied.length, 0),
          by_exemption: byExemption,
          release: {
            bates_first: pages[0]?.bates ?? null,
            bates_last: pages.at(-1)?.bates ?? null,
            withheld_in_full_pages: withheldPages,
            index_rows: rows.length,
            previous_release: release.previous?.number ?? null,
            new_pages: pages.filter((page) => page.sincePrevious === 'new').length,
            changed_pages: pages.filter((page) => page.sincePrevious === 'changed').length,
          },
        },
        release: {
          number,
          continuedFrom: stamps && options.stamps?.start === undefined ? start : null,
          pages: pages.map((page) => ({ position: page.position, document_id: page.documentId, page_from: page.from, page_to: page.to, bates_number: page.batesNumber, bates: page.bates, fingerprint: page.fingerprint })),
        },
      };
    },
  };
}

interface ZipEntry {
  path: string;
  size: number;
  sha256: string;
  media_type: string;
}

function addBuffer(zip: ZipFile, files: ZipEntry[], name: string, bytes: Uint8Array, mediaType: string, mtime: Date, compress = true): void {
  zip.addBuffer(Buffer.from(bytes), name, { compress, mtime });
  files.push({ path: name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), media_type: mediaType });
}

function sumVerification(results: ExportVerification[]): ExportVerification {
  return results.reduce(
    (sum, result) => ({ pages: sum.pages + result.pages, burnedPages: sum.burnedPages + result.burnedPages, withheldWords: sum.withheldWords + result.withheldWords, certificates: [...(sum.certificates ?? []), ...(result.certificates ?? [])] }),
    { pages: 0, burnedPages: 0, withheldWords: 0, certificates: [] },
  );
}

/** A page's verification certificate as the requester may see it: without the internal document id. */
function requesterCertificate<T extends { document_id?: unknown }>(certificate: T | undefined): Omit<T, 'document_id'> | null {
  if (!certificate) return null;
  const { document_id: _internal, ...rest } = certificate;
  return rest;
}

export async function buildReleaseZip(ctx: BuildContext, material: ExportMaterial, options: ExportOptions): Promise<BuiltExport> {
  const settings = settingsOf(options);
  const { documents, skipped } = releasable(material);
  const plan = releasePlan(material, documents, options);
  const burned = await burnAll(ctx, material, documents, settings, 0.02, 0.7, plan);
  // One output file per document (or one combined); with stamps they are assembled in order, each continuing the numbers.
  const groups = options.combined ? [documents] : documents.map((entry) => [entry]);
  const assembleGroup = async (group: Releasable[], index: number, start: number | null) => {
    const path = `${ctx.workPrefix}-out-${index}.pdf`;
    const stamps = plan.stamps && start !== null ? { ...plan.stamps, start } : null;
    const assembled = await assembleOne(ctx, material, path, group.map((entry) => assembleDocument(ctx, entry, burned, plan)), null, settings, () => undefined, stamps);
    const first = group[0]?.material.row;
    const name = options.combined ? 'release.pdf' : `documents/${String(index + 1).padStart(3, '0')}-${safeName(releaseTitle(first?.file_name ?? 'document'))}.pdf`;
    return { path, name, assembled };
  };
  const make = async () => {
    const outputs: { path: string; name: string; assembled: ExportAssembleResult }[] = [];
    if (plan.stamps) {
      let next = plan.stamps.start;
      for (const [index, group] of groups.entries()) {
        const output = await assembleGroup(group, index, next);
        next += output.assembled.pages;
        outputs.push(output);
        ctx.progress(0.7 + (0.15 * (index + 1)) / groups.length);
      }
    } else {
      outputs.push(...(await settleAll(groups.map((group, index) => assembleGroup(group, index, null)))));
    }
    return outputs;
  };
  const { outputs, verifications } = await madeAndVerified(ctx, material, documents, burned, settings, make);
  for (const output of outputs) {
    if ((await sha256OfFile(output.path)) !== output.assembled.sha256) throw new Error(`the release file ${output.name} changed on disk`);
  }
  const verification = sumVerification(verifications);
  const pages = outputs.reduce((sum, output) => sum + output.assembled.pages, 0);
  const base = summaryOf(documents.map((entry) => entry.material), skipped, pages, verification, outputs.length, burnSummary(documents, burned, settings, outputs.reduce((sum, output) => sum + (output.assembled.linksDropped ?? 0), 0)));
  const finished = plan.finish(outputs.flatMap((output) => output.assembled.layout ?? []), base);
  const generatedAt = ctx.runtime.clock.now();
  const mtime = new Date(material.row.created_at);
  const zip = new ZipFile();
  const files: ZipEntry[] = [];
  for (const output of outputs) {
    zip.addFile(output.path, output.name, { compress: false, mtime });
    files.push({ path: output.name, size: output.assembled.size, sha256: output.assembled.sha256, media_type: 'application/pdf' });
  }
  const release = material.release;
  const cited = [...new Set(finished.rows.map((row) => row.exemptions))].map((code) => ({
    code,
    name: release.exemptions.find((entry) => entry.code === code)?.name ?? '',
    justification: release.settings.justifications[code] ?? null,
  }));
  const heading = `Withholding index${release.requestNumber ? `, request ${release.requestNumber}` : ''}${plan.number > 1 ? `, release ${plan.number}` : ''}`;
  addBuffer(zip, files, 'withholding-index.pdf', await withholdingIndexPdf({ heading, rows: finished.rows, cited }), 'application/pdf', mtime, false);
  addBuffer(zip, files, 'withholding-index.csv', Buffer.from(indexCsv(finished.rows), 'utf8'), 'text/csv; charset=utf-8', mtime);
  if (options.cover_letter) {
    const counts = finished.summary.by_exemption;
    const letter = await coverLetterPdf({
      letterhead: release.settings.letterhead,
      appealRights: release.settings.appeal_rights,
      requestNumber: release.requestNumber,
      title: release.requesterTitle,
      date: generatedAt.toISOString().slice(0, 10),
      releaseNumber: plan.number,
      documents: documents.length,
      pages,
      withheldInFull: finished.summary.release?.withheld_in_full_pages ?? 0,
      batesRange: finished.summary.release?.bates_first ? `${finished.summary.release.bates_first} to ${finished.summary.release.bates_last ?? ''}` : null,
      byExemption: [...new Set([...Object.keys(counts), ...cited.map((entry) => entry.code)])].map((code) => ({
        code,
        name: release.exemptions.find((entry) => entry.code === code)?.name ?? '',
        count: (counts[code] ?? 0) + finished.rows.filter((row) => row.withheld === 'in full' && row.exemptions === code).reduce((sum, row) => sum + row.count, 0),
      })),
    });
    addBuffer(zip, files, 'cover-letter.pdf', letter, 'application/pdf', mtime, false);
  }
  const byOutputPage = outputs.flatMap((output, index) =>
    (output.assembled.layout ?? []).map((_, page) => ({
      file: output.name,
      page: page + 1,
      checked: output.assembled.checks.some((check) => check.outputPage === page + 1),
      verified: verifications[index] !== undefined,
      certificate: requesterCertificate(verifications[index]?.certificates?.find((entry) => entry.output_page === page + 1)),
    })),
  );
  const manifest = {
    schema_version: 2,
    audience: 'release',
    release_number: plan.number,
    previous_release: release.previous?.number ?? null,
    request_number: release.requestNumber,
    generated_at: generatedAt.toISOString(),
    files,
    pages: finished.pages.map((page, index) => ({
      bates: page.bates,
      file: byOutputPage[index]?.file ?? null,
      file_page: byOutputPage[index]?.page ?? null,
      document: plan.documents.find((document) => document.documentId === page.documentId)?.title ?? '',
      pages: page.from === page.to ? String(page.from) : `${page.from}-${page.to}`,
      withheld_in_full: page.withheld,
      since_previous_release: page.sincePrevious,
    })),
    // The check every page passed before this file could exist (re-read from the written PDFs).
    verification: {
      files: outputs.length,
      pages: verification.pages,
      burned_pages: verification.burnedPages,
      withheld_words: verification.withheldWords,
      per_page: byOutputPage.map((entry, index) => ({ bates: finished.pages[index]?.bates ?? null, file: entry.file, file_page: entry.page, leak_checked: entry.checked, structure_checked: entry.verified, certificate: entry.certificate })),
    },
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 'manifest.json', { compress: true, mtime });
  zip.end();
  const staged = await ctx.runtime.blobs.stage(zip.outputStream as Readable, Number.MAX_SAFE_INTEGER);
  try {
    await searchPackage(ctx, material, staged.tempPath, verifications, packageWording(finished.rows, manifest, [heading, ...cited.flatMap((entry) => [entry.code, entry.name, entry.justification ?? '']), release.settings.letterhead ?? '', release.settings.appeal_rights ?? '']), outputs.map((output) => output.name));
  } catch (error) {
    await fs.rm(staged.tempPath, { force: true });
    throw error;
  }
  ctx.progress(0.98);
  return { staged, mediaType: 'application/zip', fileName: `${fileBase(material)}-release-${plan.number}.zip`, summary: finished.summary, release: finished.release };
}

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
    zip.addFile(output.path, output.name, { compress: false, mtime });
    files.push({ path: output.name, size: output.assembled.size, sha256: output.assembled.sha256, media_type: 'application/pdf' });
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
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 'manifest.json', { compress: true, mtime });
  zip.end();
  const staged = await ctx.runtime.blobs.stage(zip.outputStream as Readable, Number.MAX_SAFE_INTEGER);
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

/** The cover letter's own wording (worker/release-package/documents.ts coverLetterPdf). */
const LETTER_WORDING = 'Records release Supplemental release Request number: Records responsive to your request Date: Documents released: Pages released: Pages withheld in full: Page stamps: Information withheld, by exemption None The enclosed withholding index lists each withheld passage and page by its page stamp. Your right to appeal';

/**
 * What the package writes that comes from no document: the index and manifest with every document title and file
 * name left out, headings, exemption wording and the office's settings. A withheld text is allowed in the
 * package's files as often as this repeats it (the word "page" of "entire page" tells nothing); titles and file
 * names stay searched.
 */
function packageWording(rows: readonly IndexRow[], manifest: { files: { path: string }[]; pages: { file: string | null; document: string }[] }, extra: readonly string[]): string {
  const bare = { ...manifest, files: manifest.files.map((file) => ({ ...file, path: '' })), pages: manifest.pages.map((page) => ({ ...page, file: null, document: '' })) };
  return [indexCsv(rows.map((row) => ({ ...row, document: '' }))), JSON.stringify(bare), LETTER_WORDING, ...extra].join('\n');
}
