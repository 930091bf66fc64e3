import type { DetectionTemplate } from '../common/schemas/detection.js';
import type { Executor } from '../db/queries/executor.js';
import type { ServiceContext } from './context.js';
import { templateForDetection } from './templates.js';

/**
 * The stored template `id` of the caller's organization, as detection uses it (see services/templates.ts);
 * an unknown id answers 400 validation_error naming template_id.
 */
export function resolveTemplate(db: Executor, ctx: ServiceContext, id: string): Promise<DetectionTemplate> {
  return templateForDetection(db, ctx, id);
}
