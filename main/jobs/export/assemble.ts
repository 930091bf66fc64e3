import type { AssembleDocument, BurnSettings, CoverSheet, ExportAssembleResult, StampPlan } from '../../common/export-tasks.js';
import type { ExportMaterial } from '../../services/export-material.js';
import type { BuildContext, Burned, Releasable } from './context.js';
import type { ReleasePlan } from './release-plan.js';

// Assembly step (main thread: names the pages of each output; pool: an `export-assemble` task writes the PDF,
// placeholders and page stamps included).

export function assembleDocument(ctx: BuildContext, { material: document, type }: Releasable, burned: Burned, plan: ReleasePlan | null = null): AssembleDocument {
  const entry = burned.get(document.row.id);
  const withheld = plan?.ranges.get(document.row.id);
  return {
    source: { documentId: document.row.id, path: ctx.runtime.blobs.pathFor(document.row.sha256), documentType: type },
    pageCount: entry?.pageCount ?? null,
    burned: entry?.pages ?? [],
    ...(withheld && { withheld: { ranges: withheld, perRange: plan?.perRange ?? false } }),
  };
}

export async function assembleOne(
  ctx: BuildContext,
  material: ExportMaterial,
  outputPath: string,
  documents: AssembleDocument[],
  cover: CoverSheet | null,
  settings: BurnSettings,
  onProgress: (fraction: number) => void,
  stamps: StampPlan | null = null,
): Promise<ExportAssembleResult> {
  return ctx.pool.run(
    { kind: 'export-assemble', exportId: material.row.id, outputPath, cover, documents, settings, workPrefix: ctx.workPrefix, stamps },
    { signal: ctx.signal, onProgress: (message) => onProgress(message.progress) },
  );
}
