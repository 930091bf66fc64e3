import { z } from 'zod';
import { LAYERS, LAYER_INFO, type Layer } from '../redaction-catalog.js';
import { compileLinearRegex } from '../linear-regex.js';

/** What the detection job looks for; `custom_term` and `custom_pattern` come from templates. */
export const ENTITY_KINDS = [
  'ssn',
  'email',
  'phone',
  'payment_card',
  'iban',
  'routing_number',
  'ip_address',
  'date_of_birth',
  'passport_number',
  'drivers_license',
  'street_address',
  'person_name',
  'custom_term',
  'custom_pattern',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** The kinds a template or the options may select; custom terms and patterns run whenever a template gives them. */
export const BUILTIN_ENTITY_KINDS = ENTITY_KINDS.filter((kind): kind is Exclude<EntityKind, 'custom_term' | 'custom_pattern'> => kind !== 'custom_term' && kind !== 'custom_pattern');
export type BuiltinEntityKind = (typeof BUILTIN_ENTITY_KINDS)[number];

/**
 * Default FOIA layer of each kind (reasons in docs/api.md, "detection"). Personal identifiers go to (b)(6);
 * bank account identifiers mostly reach agencies in vendor, grantee and contractor submissions, so they go to
 * (b)(4) (commercial or financial information obtained from a person); a card number is tied to one cardholder,
 * so (b)(6). A template's `layer` moves every suggestion of its run to that layer.
 */
export const ENTITY_INFO: Readonly<Record<EntityKind, { label: string; layer: Layer }>> = {
  ssn: { label: 'US Social Security number', layer: 'B6' },
  email: { label: 'Email address', layer: 'B6' },
  phone: { label: 'Phone number', layer: 'B6' },
  payment_card: { label: 'Payment card number', layer: 'B6' },
  iban: { label: 'IBAN (bank account)', layer: 'B4' },
  routing_number: { label: 'US bank routing number', layer: 'B4' },
  ip_address: { label: 'IP address', layer: 'B6' },
  date_of_birth: { label: 'Date of birth', layer: 'B6' },
  passport_number: { label: 'Passport number', layer: 'B6' },
  drivers_license: { label: "Driver's licence number", layer: 'B6' },
  street_address: { label: 'Street address', layer: 'B6' },
  person_name: { label: 'Person name', layer: 'B6' },
  custom_term: { label: 'Custom term', layer: 'B6' },
  custom_pattern: { label: 'Custom pattern', layer: 'B6' },
};

export const PATTERN_FLAGS = /^[imsu]*$/;

/** True when `regex` compiles with `flags` (plus the `g` the detector adds). */
export function regexProblem(regex: string, flags = ''): string | null {
  // Refinements run even when the length check failed: a megabyte pattern must never reach the compiler
  // (V8 ran out of memory compiling one). The length issue is already reported.
  if (regex.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    compileLinearRegex(regex, flags);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Longest regular expression a template or a detection job may carry. */
export const MAX_PATTERN_LENGTH = 1000;

const Pattern = z.strictObject({
  name: z.string().min(1).max(100),
  regex: z.string().min(1).max(MAX_PATTERN_LENGTH),
  flags: z.string().regex(PATTERN_FLAGS, 'flags may only use i, m, s, u').max(4).optional(),
});

/** The layer named directly (B6) or by its exemption ((b)(6), b6). */
export function layerOfExemption(value: string): Layer | null {
  const compact = value.toLowerCase().replace(/[\s()]/g, '');
  const found = LAYERS.find((layer) => layer.toLowerCase() === compact || LAYER_INFO[layer].exemption.replace(/[()]/g, '') === compact || compact.startsWith(LAYER_INFO[layer].exemption.replace(/[()]/g, '')));
  return found ?? null;
}

/** A template given inline (or resolved from `template_id`): which kinds to look for, plus own terms and patterns. */
export const DetectionTemplate = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    entity_kinds: z.array(z.enum(BUILTIN_ENTITY_KINDS)).max(BUILTIN_ENTITY_KINDS.length).optional(),
    custom_terms: z.array(z.string().trim().min(1).max(500)).max(1000).optional(),
    patterns: z.array(Pattern).max(100).optional(),
    layer: z.enum(LAYERS).optional(),
    exemption: z.string().min(2).max(50).optional().describe('Printed reason, e.g. (b)(7)(C); also picks the layer when `layer` is absent'),
    min_score: z.number().min(0).max(1).optional().describe('Minimum confidence of the suggestions; the options’ min_score wins when given'),
  })
  .superRefine((template, context) => {
    template.patterns?.forEach((pattern, index) => {
      const problem = regexProblem(pattern.regex, pattern.flags);
      if (problem) context.addIssue({ code: 'custom', path: ['patterns', index, 'regex'], message: `invalid regular expression: ${problem}` });
    });
    if (template.exemption !== undefined) {
      const layer = layerOfExemption(template.exemption);
      if (!layer) context.addIssue({ code: 'custom', path: ['exemption'], message: 'not a FOIA exemption (b)(1) to (b)(7)' });
      else if (template.layer && template.layer !== layer) context.addIssue({ code: 'custom', path: ['exemption'], message: `exemption ${template.exemption} belongs to layer ${layer}, not ${template.layer}` });
    }
    if (template.layer === 'B1') context.addIssue({ code: 'custom', path: ['layer'], message: 'layer B1 needs a classification level; detection cannot suggest it' });
  })
  .meta({ id: 'DetectionTemplate' });
export type DetectionTemplate = z.infer<typeof DetectionTemplate>;

export const DetectionOptions = z
  .strictObject({
    entity_kinds: z
      .array(z.enum(BUILTIN_ENTITY_KINDS))
      .min(1)
      .max(BUILTIN_ENTITY_KINDS.length)
      .optional()
      .describe('Kinds to look for; default all (or the template’s)'),
    min_score: z.number().min(0).max(1).optional().describe('Findings scoring below this are not suggested; default the template’s min_score, else 0.5'),
    template: DetectionTemplate.optional(),
    template_id: z.string().min(1).max(100).optional(),
  })
  .refine((options) => !(options.template && options.template_id), { message: 'give template or template_id, not both', path: ['template_id'] })
  .meta({ id: 'DetectionOptions' });
export type DetectionOptions = z.output<typeof DetectionOptions>;

/** What the worker is asked to find, after the template is resolved. */
export interface DetectionPlan {
  entityKinds: BuiltinEntityKind[];
  minScore: number;
  customTerms: string[];
  patterns: { name: string; regex: string; flags?: string | undefined }[];
}

/** One box of a finding: a line segment of the match, in the page's unit. */
export interface FindingBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** One match, mapped to the words it spans. Carries no matched text (job results reach webhooks). */
export interface DetectionFinding {
  entity: EntityKind;
  page: number;
  score: number;
  /** Context words seen near the match that raised its score. */
  cues: string[];
  /** Pattern name for custom_pattern. */
  pattern?: string;
  /** What produced it: `model:ner-perceptron`, `rule:<name>`, `pattern:<kind or shape>`, `template:<term|pattern>`. */
  rule?: string;
  boxes: FindingBox[];
  /** Transcripts: the time span in seconds. */
  start?: number;
  end?: number;
}

export interface DetectionResult {
  pages: number;
  unit: 'pdf_points' | 'image_pixels' | 'seconds';
  template: string | null;
  entity_kinds: string[];
  min_score: number;
  findings: number;
  by_entity: Record<string, number>;
  /** New pending redactions created by this run. */
  suggested: number;
  /** Boxes already present (suggested earlier, accepted or rejected) or covered by an existing box. */
  already_present: number;
  by_layer: Record<string, number>;
  /** Layers another editor held locked: their suggestions were not written; run again later. */
  locked_layers: string[];
  suggestions: { redaction_id: string; entity: EntityKind; layer: Layer; page: number; score: number; rule?: string }[];
  /** Transcripts: findings as time spans (audio is not redacted with boxes). */
  time_spans?: { entity: EntityKind; page: number; start: number; end: number; score: number }[];
  note?: string;
}
