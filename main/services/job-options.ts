import type { DetectionOptions } from '../common/schemas/detection.js';
import type { StartableJobKind } from '../common/schemas/jobs.js';
import type { Executor } from '../db/queries/executor.js';
import type { ServiceContext } from './context.js';
import { resolveTemplate } from './detection-templates.js';

/** Checks of a kind's options that need the database (the schema checked the rest); throws 400. */
export async function checkJobOptions(db: Executor, ctx: ServiceContext, kind: StartableJobKind, options: unknown): Promise<void> {
  if (kind === 'detection') {
    const { template_id: templateId } = options as DetectionOptions;
    if (templateId !== undefined) await resolveTemplate(db, ctx, templateId);
  }
}
