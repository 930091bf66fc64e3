import type { AssembleDocument, BurnSettings, CoverSheet, ExportAssembleResult, PageCheck, StampPlan } from '../../common/export-tasks.js';
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
  // A page redacted in its content travels with its kept words for its check only (assembly draws no text layer
  // for it): they skip the trip to assembly and back (about 35 KB a page of text, copied twice) and rejoin the
  // page's check here.
  const kept = new Map<string, PageCheck['words']>();
  const key = (documentId: number, page: number) => `${documentId}:${page}`;
  const travelling = documents.map((document) => ({
    ...document,
    burned: document.burned.map((page) => {
      if (page.method !== 'vector') return page;
      kept.set(key(document.source.documentId, page.page), page.words);
      return { ...page, words: [] };
    }),
  }));
  const result = await ctx.pool.run(
    { kind: 'export-assemble', exportId: material.row.id, outputPath, cover, documents: travelling, settings, workPrefix: ctx.workPrefix, stamps },
    { signal: ctx.signal, onProgress: (message) => onProgress(message.progress) },
  );
  for (const check of result.checks) {
    const plan = check.certify;
    const words = plan?.method === 'vector' ? kept.get(key(plan.documentId, plan.page)) : undefined;
    if (words) check.words = words;
  }
  return result;
}
