import { Readable } from 'node:stream';
import type { StagedBlob } from '../../services/blob-store.js';
import type { ExportMaterial } from '../../services/export-material.js';
import { caseRecord, redactionLogCsv } from '../../services/export-records.js';
import { fileBase, type BuildContext, type BuiltExport } from './context.js';
import { internalReleaseRecord, buildInternalZip } from './internal-zip.js';
import { buildPdf } from './pdf.js';
import { buildReleaseZip } from './release-zip.js';
import { summaryOf } from './summary.js';

// Which output each format is: the PDF, the release or internal zip, or a text file (csv, json) written here.
// The result is a staged blob: the runner commits it.

function stageText(ctx: BuildContext, text: string): Promise<StagedBlob> {
  return ctx.runtime.blobs.stage(Readable.from([Buffer.from(text, 'utf8')]), Number.MAX_SAFE_INTEGER);
}

/** Builds the export's file in the blob temp dir (not yet committed). */
export async function buildExport(ctx: BuildContext, material: ExportMaterial): Promise<BuiltExport> {
  const format = material.row.format;
  if (format === 'pdf' || format === 'zip') {
    if (!material.options) throw new Error('burn-in options are missing');
    if (format === 'pdf') return buildPdf(ctx, material, material.options);
    return material.options.audience === 'internal' ? buildInternalZip(ctx, material) : buildReleaseZip(ctx, material, material.options);
  }
  const summary = summaryOf(material.documents, material.skipped, 0, null, 0);
  if (format === 'csv') {
    return { staged: await stageText(ctx, redactionLogCsv(material)), mediaType: 'text/csv; charset=utf-8', fileName: `${fileBase(material)}-redaction-log.csv`, summary };
  }
  const record = { ...caseRecord(material, ctx.runtime.clock.now().toISOString()), ...internalReleaseRecord(material) };
  return { staged: await stageText(ctx, `${JSON.stringify(record, null, 2)}\n`), mediaType: 'application/json', fileName: `${fileBase(material)}-case.json`, summary };
}
