import { DetectionOptions, layerOfExemption, type DetectionPlan, type DetectionResult, type DetectionTemplate, BUILTIN_ENTITY_KINDS } from '../../common/schemas/detection.js';
import type { ServiceContext } from '../../services/context.js';
import { resolveTemplate } from '../../services/detection-templates.js';
import { loadTaskPages } from '../../services/document-text.js';
import { sourceForDocumentType } from '../../services/redactions/app-items.js';
import { stageSuggestions } from '../../services/redactions/suggestions.js';
import type { JobKindHandler } from './types.js';
import { transact } from '../../db/transaction.js';

/** Suggestions need this confidence unless the options or the template say otherwise. */
export const DEFAULT_MIN_SCORE = 0.5;

/** The kinds, terms and patterns to look for: the options' kinds, else the template's, else all. */
export function detectionPlan(options: DetectionOptions, template: DetectionTemplate | null): DetectionPlan {
  return {
    entityKinds: options.entity_kinds ?? template?.entity_kinds ?? [...BUILTIN_ENTITY_KINDS],
    minScore: options.min_score ?? template?.min_score ?? DEFAULT_MIN_SCORE,
    customTerms: template?.custom_terms ?? [],
    patterns: template?.patterns ?? [],
  };
}

/** Listing every suggestion in the result would make it (and the job.completed event) huge. */
const MAX_LISTED = 500;

export const detectionHandler: JobKindHandler = {
  async run({ runtime, job, blob, pool, signal, reportProgress }) {
    const options = DetectionOptions.parse(JSON.parse(job.options));
    const ctx: ServiceContext = { actor: { type: 'system', id: 'detection', organizationId: job.organization_id }, requestId: null, clock: runtime.clock };
    const template = options.template_id !== undefined ? await resolveTemplate(runtime.db, ctx, options.template_id) : (options.template ?? null);
    const plan = detectionPlan(options, template);
    const pages = await loadTaskPages(runtime.db, job.organization_id, job.document_id, blob.documentType);
    const { findings } = await pool.run({ kind: 'detection', jobId: job.id, pages, plan }, { signal, onProgress: (message) => reportProgress(message.progress * 0.9) });
    if (signal.aborted) throw new Error('stopped');

    const byEntity: Record<string, number> = {};
    for (const finding of findings) byEntity[finding.entity] = (byEntity[finding.entity] ?? 0) + 1;
    const base = {
      pages: pages.length,
      unit: pages[0]?.unit ?? 'pdf_points',
      template: template?.name ?? (options.template_id ?? (template ? 'inline' : null)),
      entity_kinds: plan.entityKinds,
      min_score: plan.minScore,
      findings: findings.length,
      by_entity: byEntity,
    } satisfies Partial<DetectionResult>;

    if (base.unit === 'seconds') {
      const result: DetectionResult = {
        ...base,
        suggested: 0,
        already_present: 0,
        by_layer: {},
        locked_layers: [],
        suggestions: [],
        time_spans: findings.slice(0, MAX_LISTED).map((finding) => ({ entity: finding.entity, page: finding.page, start: finding.start ?? 0, end: finding.end ?? 0, score: finding.score })),
        note: 'audio and video are not redacted with boxes: the findings are listed as time spans of the transcript',
      };
      return result;
    }

    const layer = template?.layer ?? (template?.exemption !== undefined ? layerOfExemption(template.exemption) : null);
    const staged = await transact(runtime.db, (trx) =>
      stageSuggestions(trx, ctx, job.document_id, findings, {
        jobId: job.id,
        source: sourceForDocumentType(blob.documentType),
        layer,
        reason: template?.exemption ?? null,
        template: base.template,
      }),
    );
    const result: DetectionResult = {
      ...base,
      ...staged,
      suggestions: staged.suggestions.slice(0, MAX_LISTED),
      ...(staged.locked_layers.length > 0 && { note: `layers ${staged.locked_layers.join(', ')} were locked by another editor; their suggestions were not written (run detection again later)` }),
    };
    return result;
  },
};
