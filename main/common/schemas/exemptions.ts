import { z } from 'zod';
import { LAYERS } from '../redaction-catalog.js';
import { Timestamp } from './shared.js';

export const Exemption = z
  .object({
    id: z.string(),
    code: z.string().describe('As printed on a redaction, e.g. (b)(7)(C); unique in the organization'),
    name: z.string(),
    description: z.string(),
    layer: z.enum(LAYERS).nullable().describe('The redaction layer the exemption is applied on; null for (b)(8) and (b)(9), which have no layer of their own'),
    jurisdiction: z.string().describe('"federal" for the FOIA exemptions; free text for the organization\'s own (e.g. a state statute)'),
    built_in: z.boolean().describe('The federal exemptions are built in and read-only'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Exemption' });
export type Exemption = z.infer<typeof Exemption>;

const Code = z.string().trim().min(1).max(100);

export const CreateExemptionBody = z.strictObject({
  code: Code,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  layer: z.enum(LAYERS).nullable().describe('The layer redactions under this exemption go on'),
  jurisdiction: z.string().trim().min(1).max(200).refine((value) => value.toLowerCase() !== 'federal', 'federal exemptions are built in'),
});
export type CreateExemptionBody = z.infer<typeof CreateExemptionBody>;

export const UpdateExemptionBody = z
  .strictObject({
    code: Code.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    layer: z.enum(LAYERS).nullable().optional(),
    jurisdiction: z.string().trim().min(1).max(200).refine((value) => value.toLowerCase() !== 'federal', 'federal exemptions are built in').optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateExemptionBody = z.infer<typeof UpdateExemptionBody>;

export const ExemptionListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(512).optional(),
  layer: z.enum(LAYERS).optional(),
});
