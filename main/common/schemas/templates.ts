import { z } from 'zod';
import { LAYERS } from '../redaction-catalog.js';
import { BUILTIN_ENTITY_KINDS, PATTERN_FLAGS, regexProblem } from './detection.js';
import { Timestamp } from './shared.js';
import { compileLinearRegex } from '../linear-regex.js';

/** Why a template pattern cannot be stored, or null. */
export function templatePatternProblem(regex: string, flags = ''): string | null {
  const problem = regexProblem(regex, flags);
  if (problem) return `invalid regular expression: ${problem}`;
  if (compileLinearRegex(regex, flags).test('')) return 'the pattern matches the empty string';
  return null;
}

export const TemplatePattern = z.strictObject({
  name: z.string().trim().min(1).max(100),
  regex: z.string().min(1).max(1000),
  flags: z.string().regex(PATTERN_FLAGS, 'flags may only use i, m, s, u').max(4).optional(),
});
export type TemplatePattern = z.infer<typeof TemplatePattern>;

const EntityKinds = z.array(z.enum(BUILTIN_ENTITY_KINDS)).max(BUILTIN_ENTITY_KINDS.length);
const CustomTerms = z.array(z.string().trim().min(1).max(500)).max(1000);
const Patterns = z.array(TemplatePattern).max(100);
// B1 needs a classification level per box, which detection cannot choose.
const TemplateLayer = z.enum(LAYERS).refine((layer) => layer !== 'B1', 'layer B1 needs a classification level; detection cannot suggest it');
const ExemptionId = z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer id');

function checkPatterns(patterns: TemplatePattern[] | undefined, context: z.RefinementCtx): void {
  const names = new Set<string>();
  patterns?.forEach((pattern, index) => {
    const problem = templatePatternProblem(pattern.regex, pattern.flags);
    if (problem) context.addIssue({ code: 'custom', path: ['patterns', index, 'regex'], message: problem });
    if (names.has(pattern.name)) context.addIssue({ code: 'custom', path: ['patterns', index, 'name'], message: 'pattern names must be unique in a template' });
    names.add(pattern.name);
  });
}

export const RedactionTemplate = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    entity_kinds: z.array(z.enum(BUILTIN_ENTITY_KINDS)).describe('Built-in detectors to run'),
    custom_terms: z.array(z.string()).describe('Literal words or phrases to find (case-insensitive)'),
    patterns: z.array(TemplatePattern).describe('Named regular expressions (JavaScript syntax)'),
    layer: z.enum(LAYERS).describe('Layer every suggestion of the template goes on'),
    exemption: z.object({ id: z.string(), code: z.string() }).nullable().describe('Exemption printed on the suggestions'),
    min_score: z.number().nullable().describe('Minimum confidence of the suggestions; null: the job default'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'RedactionTemplate' });
export type RedactionTemplate = z.infer<typeof RedactionTemplate>;

export const CreateTemplateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    entity_kinds: EntityKinds.optional(),
    custom_terms: CustomTerms.optional(),
    patterns: Patterns.optional(),
    layer: TemplateLayer.optional().describe("Defaults to the exemption's layer; required without an exemption"),
    exemption_id: ExemptionId.nullable().optional(),
    min_score: z.number().min(0).max(1).nullable().optional().describe('Minimum confidence (0..1) of the suggestions; null or absent: the job default 0.5'),
  })
  .superRefine((body, context) => checkPatterns(body.patterns, context));
export type CreateTemplateBody = z.infer<typeof CreateTemplateBody>;

export const UpdateTemplateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    entity_kinds: EntityKinds.optional(),
    custom_terms: CustomTerms.optional(),
    patterns: Patterns.optional(),
    layer: TemplateLayer.optional(),
    exemption_id: ExemptionId.nullable().optional(),
    min_score: z.number().min(0).max(1).nullable().optional().describe('Minimum confidence (0..1) of the suggestions; null or absent: the job default 0.5'),
  })
  .superRefine((body, context) => {
    if (Object.keys(body).length === 0) context.addIssue({ code: 'custom', path: [], message: 'send at least one field to change' });
    checkPatterns(body.patterns, context);
  });
export type UpdateTemplateBody = z.infer<typeof UpdateTemplateBody>;
