import type { CoverSheet, ExportAssembleResult } from '../../common/export-tasks.js';
import { LAYER_INFO, LAYERS } from '../../common/redaction-catalog.js';
import type { ExportOptions } from '../../common/schemas/exports.js';
import type { ExportMaterial } from '../../services/export-material.js';
import { exemptionOf } from '../../services/releases/material.js';
import { assembleDocument, assembleOne } from './assemble.js';
import { burnAll } from './burn.js';
import { fileBase, releasable, stagedOf, type BuildContext, type BuiltExport } from './context.js';
import { releasePlan, type ReleasePlan } from './release-plan.js';
import { settingsOf } from './requests.js';
import { burnSummary, summaryOf } from './summary.js';
import { madeAndVerified, type CheckedFile } from './verify.js';

// The PDF output: one file, an optional cover sheet, every document burned, assembled and verified on the pool.

/** The release PDF's first page: the requester-facing title, never the internal case name. */
function coverSheetOf(material: ExportMaterial, plan: ReleasePlan, generatedAt: Date): CoverSheet {
  const { requestNumber, requesterTitle, exemptions } = material.release;
  // Counted by each box's own code (as its label), in layer order then code; boxes on withheld pages are not.
  const counts = new Map<string, { layer: number; count: number }>();
  for (const box of plan.documents.flatMap((document) => document.applied)) {
    const code = exemptionOf(box, exemptions);
    const entry = counts.get(code) ?? { layer: LAYERS.indexOf(box.layer), count: 0 };
    entry.count += 1;
    counts.set(code, entry);
  }
  const label = (code: string) => exemptions.find((entry) => entry.code === code)?.name ?? LAYERS.map((layer) => LAYER_INFO[layer]).find((info) => info.exemption === code)?.label ?? '';
  return {
    caseName: [requestNumber && `Request ${requestNumber}`, requesterTitle ?? 'Records responsive to your request'].filter(Boolean).join(': '),
    date: generatedAt.toISOString().slice(0, 10),
    documents: plan.documents.length,
    redactions: plan.documents.reduce((sum, document) => sum + document.applied.length, 0),
    byExemption: [...counts.entries()]
      .sort(([a, left], [b, right]) => left.layer - right.layer || a.localeCompare(b))
      .map(([code, entry]) => ({ exemption: code, label: label(code), count: entry.count })),
  };
}

export async function buildPdf(ctx: BuildContext, material: ExportMaterial, options: ExportOptions): Promise<BuiltExport> {
  const settings = settingsOf(options);
  const { documents, skipped } = releasable(material);
  const plan = releasePlan(material, documents, options);
  const burned = await burnAll(ctx, material, documents, settings, 0.02, 0.75, plan);
  const outputPath = `${ctx.workPrefix}-release.pdf`;
  const cover = options.cover_sheet ? coverSheetOf(material, plan, ctx.runtime.clock.now()) : null;
  const make = async () => [
    {
      path: outputPath,
      assembled: await assembleOne(
        ctx,
        material,
        outputPath,
        documents.map((entry) => assembleDocument(ctx, entry, burned, plan)),
        cover,
        settings,
        (fraction) => ctx.progress(0.75 + fraction * 0.15),
        plan.stamps,
      ),
    },
  ];
  const { outputs, verifications } = await madeAndVerified(ctx, material, documents, burned, settings, make);
  const assembled = (outputs[0] as { assembled: ExportAssembleResult }).assembled;
  const verification = verifications[0] as CheckedFile;
  ctx.progress(0.98);
  const summary = summaryOf(documents.map((entry) => entry.material), skipped, assembled.pages, verification, 1, burnSummary(documents, burned, settings, assembled.linksDropped ?? 0));
  const finished = plan.finish(assembled.layout ?? [], summary);
  return { staged: stagedOf(outputPath, assembled), mediaType: 'application/pdf', fileName: `${fileBase(material)}.pdf`, summary: finished.summary, release: finished.release };
}
