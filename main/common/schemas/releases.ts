import { z } from 'zod';
import { ENTITY_KINDS } from './detection.js';
import { Timestamp } from './shared.js';

// The requester's release: organization settings, a case's requester-facing details, pages withheld in full,
// page stamps and the safeguards checked before anything leaves (docs/api.md, Exports).

export const SAFEGUARDS = ['pending_suggestions', 'unprocessed_documents', 'case_approved', 'separation_of_duties', 'changed_after_approval'] as const;
export type Safeguard = (typeof SAFEGUARDS)[number];

/** Category wording keys: the detector's entity kinds, plus `other` (a box drawn by hand) and `in_full`. */
export const CATEGORY_KEYS = [...ENTITY_KINDS.filter((kind) => kind !== 'custom_term' && kind !== 'custom_pattern'), 'custom', 'other', 'in_full'] as const;
export type CategoryKey = (typeof CATEGORY_KEYS)[number];

export const DEFAULT_CATEGORIES: Readonly<Record<CategoryKey, string>> = {
  ssn: 'social security number',
  email: 'e-mail address',
  phone: 'telephone number',
  payment_card: 'payment card number',
  iban: 'bank account number',
  routing_number: 'bank routing number',
  ip_address: 'IP address',
  date_of_birth: 'date of birth',
  passport_number: 'passport number',
  drivers_license: "driver's license number",
  street_address: 'street address',
  person_name: 'personal name',
  custom: 'protected term',
  other: 'withheld information',
  in_full: 'entire page',
};

export const STAMP_POSITIONS = ['bottom_left', 'bottom_center', 'bottom_right'] as const;

const Wording = z.string().trim().min(1).max(200);

/** What internal review copies do with text the source does not show; releases always remove it. */
export const HIDDEN_CONTENT_CHOICES = ['remove', 'keep'] as const;
export type HiddenContentChoice = (typeof HIDDEN_CONTENT_CHOICES)[number];

export const ReleaseSettings = z
  .object({
    safeguards: z.object(Object.fromEntries(SAFEGUARDS.map((name) => [name, z.boolean()])) as Record<Safeguard, z.ZodBoolean>),
    categories: z.object(Object.fromEntries(CATEGORY_KEYS.map((key) => [key, Wording])) as Record<CategoryKey, typeof Wording>),
    /** Free text printed under each exemption in the withholding index, keyed by exemption code. */
    justifications: z.record(z.string().min(1).max(50), z.string().trim().min(1).max(2000)),
    /** The office's name and address, one line each, at the head of the cover letter. */
    letterhead: z.string().nullable(),
    /** How the requester may appeal, printed at the foot of the cover letter. */
    appeal_rights: z.string().nullable(),
    hidden_content_in_review_copies: z
      .enum(HIDDEN_CONTENT_CHOICES)
      .describe('Internal review copies (zip, audience internal, review_copies): remove (the default) or keep text the source does not show. Releases always remove it.'),
  })
  .meta({ id: 'ReleaseSettings' });
export type ReleaseSettings = z.infer<typeof ReleaseSettings>;

export const DEFAULT_RELEASE_SETTINGS: ReleaseSettings = {
  safeguards: Object.fromEntries(SAFEGUARDS.map((name) => [name, true])) as Record<Safeguard, boolean>,
  categories: { ...DEFAULT_CATEGORIES },
  justifications: {},
  letterhead: null,
  appeal_rights: null,
  hidden_content_in_review_copies: 'remove',
};

export const UpdateReleaseSettingsBody = z
  .strictObject({
    safeguards: z.strictObject(Object.fromEntries(SAFEGUARDS.map((name) => [name, z.boolean().optional()])) as Record<Safeguard, z.ZodOptional<z.ZodBoolean>>).optional(),
    categories: z.strictObject(Object.fromEntries(CATEGORY_KEYS.map((key) => [key, Wording.optional()])) as Record<CategoryKey, z.ZodOptional<typeof Wording>>).optional(),
    /** Replaces the whole map; null removes a code's text. */
    justifications: z.record(z.string().min(1).max(50), z.string().trim().min(1).max(2000).nullable()).optional(),
    letterhead: z.string().trim().min(1).max(600).refine((text) => text.split('\n').length <= 6, 'at most 6 lines').nullable().optional().describe('null removes it'),
    appeal_rights: z.string().trim().min(1).max(3000).nullable().optional().describe('null removes it'),
    hidden_content_in_review_copies: z.enum(HIDDEN_CONTENT_CHOICES).optional().describe('keep: internal review copies keep text the source does not show (said in their summary, manifest and README); releases never do'),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateReleaseSettingsBody = z.infer<typeof UpdateReleaseSettingsBody>;

export const CaseReleaseDetails = z
  .object({
    case_id: z.string(),
    request_number: z.string().nullable(),
    requester_title: z.string().nullable().describe('What the requester sees as the title; never the internal case name'),
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: 'CaseReleaseDetails' });
export type CaseReleaseDetails = z.infer<typeof CaseReleaseDetails>;

export const UpdateCaseReleaseDetailsBody = z
  .strictObject({
    request_number: z.string().trim().min(1).max(100).nullable().optional(),
    requester_title: z.string().trim().min(1).max(300).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });

export const Withholding = z
  .object({
    id: z.string(),
    case_id: z.string(),
    document_id: z.string(),
    pages: z.object({ from: z.number().int(), to: z.number().int() }).nullable().describe('null: the whole document'),
    exemption: z.string(),
    category: z.string().nullable(),
    created_by: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: 'Withholding' });
export type Withholding = z.infer<typeof Withholding>;

const IdString = z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer id');

export const CreateWithholdingBody = z
  .strictObject({
    document_id: IdString,
    pages: z
      .strictObject({ from: z.number().int().min(1).max(100_000), to: z.number().int().min(1).max(100_000) })
      .refine((pages) => pages.to >= pages.from, { message: 'to must not be before from', path: ['to'] })
      .nullable()
      .default(null)
      .describe('A page or page range; null or absent: the whole document'),
    exemption: z.string().trim().min(1).max(50).describe("An exemption code of the organization, e.g. (b)(6)"),
    category: z.string().trim().min(1).max(200).optional().describe('What kind of information, as the requester reads it in the index'),
  });
export type CreateWithholdingBody = z.infer<typeof CreateWithholdingBody>;

/** One reason a release cannot go out now. */
export const SafeguardBlock = z.object({
  check: z.enum(SAFEGUARDS),
  message: z.string(),
  document_ids: z.array(z.string()).describe('Documents concerned (empty when the case as a whole is)'),
  count: z.number().int(),
});
export type SafeguardBlock = z.infer<typeof SafeguardBlock>;

export const ReleaseCheck = z
  .object({
    case_id: z.string(),
    ready: z.boolean(),
    checks: z.array(z.object({ check: z.enum(SAFEGUARDS), enabled: z.boolean(), passed: z.boolean() })),
    blocks: z.array(SafeguardBlock),
  })
  .meta({ id: 'ReleaseCheck' });
export type ReleaseCheck = z.infer<typeof ReleaseCheck>;

/** A row of the withholding (Vaughn) index: one withheld passage kind on a page, or a range withheld in full. */
export const IndexRow = z.object({
  reference: z.string(),
  document: z.string(),
  exemptions: z.string(),
  category: z.string(),
  withheld: z.enum(['in part', 'in full']),
  count: z.number().int(),
  since_previous_release: z.string(),
  justification: z.string(),
});
export type IndexRow = z.infer<typeof IndexRow>;
