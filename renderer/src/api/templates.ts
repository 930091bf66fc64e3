import { listAll } from './http.js';
import type { RedactionTemplate } from '../../../main/common/schemas/templates.js';

export type { RedactionTemplate };

export function listTemplates(signal?: AbortSignal): Promise<RedactionTemplate[]> {
  return listAll<RedactionTemplate>('/api/v1/templates', {}, signal);
}
