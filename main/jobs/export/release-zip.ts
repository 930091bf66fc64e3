import fsp from 'node:fs/promises';
import { ZipFile } from 'yazl';
import type { ExportAssembleResult } from '../../common/export-tasks.js';
import type { CitedExemption, CoverLetter, ReleasePackageDocument } from '../../common/release-package-tasks.js';
import type { ExportOptions } from '../../common/schemas/exports.js';
import type { ExportMaterial } from '../../services/export-material.js';
import type { IndexRow } from '../../common/schemas/releases.js';
import { indexCsv } from '../../services/releases/index-csv.js';
import { assembleDocument, assembleOne } from './assemble.js';
import { burnAll } from './burn.js';
import { fileBase, releasable, safeName, settleAll, sha256OfFile, type BuildContext, type BuiltExport, type Releasable } from './context.js';
import { releasePlan, releaseTitle, type ReleasePlan } from './release-plan.js';
import { settingsOf } from './requests.js';
import { burnSummary, summaryOf, sumVerification } from './summary.js';
import { madeAndVerified, searchPackage } from './verify.js';
import { addBuffer, addPdf, stageZip, type ZipEntry } from './zip.js';

// The release zip: redacted PDFs (stamped, withheld pages as placeholders), the withholding index (PDF and CSV),
// an optional cover letter and a manifest; nothing internal. Its PDFs are drawn on the pool (`release-package`
// tasks), the zip streamed from the main thread, then searched whole on the pool (`export-search`).

/** Draws one of the package's own PDFs on the pool. */
async function drawn(ctx: BuildContext, material: ExportMaterial, document: ReleasePackageDocument): Promise<Uint8Array> {
  return (await ctx.pool.run({ kind: 'release-package', exportId: material.row.id, document }, { signal: ctx.signal, onProgress: () => undefined })).bytes;
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
  for (const output of outputs) addPdf(zip, files, output, mtime);
  const release = material.release;
  const cited = [...new Set(finished.rows.map((row) => row.exemptions))].map((code) => ({
    code,
    name: release.exemptions.find((entry) => entry.code === code)?.name ?? '',
    justification: release.settings.justifications[code] ?? null,
  }));
  const heading = `Withholding index${release.requestNumber ? `, request ${release.requestNumber}` : ''}${plan.number > 1 ? `, release ${plan.number}` : ''}`;
  // Drawn on the pool, both at once; added in the package's fixed order.
  const letter = options.cover_letter ? coverLetterOf(material, plan.number, documents.length, pages, finished, cited, generatedAt) : null;
  const [indexPdf, letterPdf] = await settleAll([
    drawn(ctx, material, { type: 'withholding-index', heading, rows: finished.rows, cited }),
    letter ? drawn(ctx, material, { type: 'cover-letter', letter }) : Promise.resolve(null),
  ]);
  addBuffer(zip, files, 'withholding-index.pdf', indexPdf as Uint8Array, 'application/pdf', mtime, false);
  addBuffer(zip, files, 'withholding-index.csv', Buffer.from(indexCsv(finished.rows), 'utf8'), 'text/csv; charset=utf-8', mtime);
  if (letterPdf) addBuffer(zip, files, 'cover-letter.pdf', letterPdf, 'application/pdf', mtime, false);
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
  const staged = await stageZip(ctx, zip, manifest, mtime);
  try {
    await searchPackage(ctx, material, staged.tempPath, verifications, packageWording(finished.rows, manifest, [heading, ...cited.flatMap((entry) => [entry.code, entry.name, entry.justification ?? '']), release.settings.letterhead ?? '', release.settings.appeal_rights ?? '']), outputs.map((output) => output.name));
  } catch (error) {
    await fsp.rm(staged.tempPath, { force: true });
    throw error;
  }
  ctx.progress(0.98);
  return { staged, mediaType: 'application/zip', fileName: `${fileBase(material)}-release-${plan.number}.zip`, summary: finished.summary, release: finished.release };
}

/** The cover letter's content: counts per exemption, withheld-in-full pages included. */
function coverLetterOf(material: ExportMaterial, releaseNumber: number, documents: number, pages: number, finished: ReturnType<ReleasePlan['finish']>, cited: CitedExemption[], generatedAt: Date): CoverLetter {
  const release = material.release;
  const counts = finished.summary.by_exemption;
  return {
    letterhead: release.settings.letterhead,
    appealRights: release.settings.appeal_rights,
    requestNumber: release.requestNumber,
    title: release.requesterTitle,
    date: generatedAt.toISOString().slice(0, 10),
    releaseNumber,
    documents,
    pages,
    withheldInFull: finished.summary.release?.withheld_in_full_pages ?? 0,
    batesRange: finished.summary.release?.bates_first ? `${finished.summary.release.bates_first} to ${finished.summary.release.bates_last ?? ''}` : null,
    byExemption: [...new Set([...Object.keys(counts), ...cited.map((entry) => entry.code)])].map((code) => ({
      code,
      name: release.exemptions.find((entry) => entry.code === code)?.name ?? '',
      count: (counts[code] ?? 0) + finished.rows.filter((row) => row.withheld === 'in full' && row.exemptions === code).reduce((sum, row) => sum + row.count, 0),
    })),
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
