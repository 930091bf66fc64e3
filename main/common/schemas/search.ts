import { z } from 'zod';
import { LAYERS } from '../redaction-catalog.js';
import { ID_PATTERN } from './shared.js';

// Case-wide search and search-and-redact (docs/api.md, Search).

export const SEARCH_MODES = ['text', 'phrase', 'terms', 'pattern'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

const DocumentId = z.string().regex(ID_PATTERN, 'must be a positive integer id');

export const SearchBody = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(20_000)
    // No page text holds a NUL, and PostgreSQL refuses one in text: a plain 400, never a failed query.
    .refine((value) => !value.includes('\u0000'), 'must not contain a NUL character')
    .describe('The text, phrase, pattern (RE2 syntax), or in terms mode one term per line'),
  mode: z.enum(SEARCH_MODES).default('text'),
  whole_word: z.boolean().default(false),
  case_sensitive: z.boolean().default(false),
  document_ids: z.array(DocumentId).min(1).max(10_000).optional().describe('Only these documents of the case'),
});
export type SearchBody = z.infer<typeof SearchBody>;

export const SearchPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().min(1).max(512).optional(),
});

export const HitBox = z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() }).meta({ id: 'SearchHitBox' });

export const SearchHit = z
  .object({
    ref: z.string().describe('Stable reference of this hit (document, page, offsets), for exclude'),
    document_id: z.string(),
    file_name: z.string(),
    page: z.number().int(),
    text: z.string().describe('The matched text as it reads on the page'),
    context: z.string().describe('The match with up to 60 characters either side'),
    box: HitBox,
    boxes: z.array(HitBox).optional().describe('One box per line piece when the hit spans lines'),
    units: z.enum(['pdf_points', 'pixels']),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.object({ hits: z.array(SearchHit), total: z.number().int() }).meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchRedactBody = SearchBody.extend({
  layer: z.enum(LAYERS),
  exemption: z.string().trim().min(1).max(200).optional().describe('Stored as the reason of each box, e.g. (b)(6)'),
  state: z.enum(['pending', 'accepted']).default('pending'),
  exclude: z.array(z.string().max(200)).max(100_000).optional().describe('refs of hits to leave alone'),
});
export type SearchRedactBody = z.infer<typeof SearchRedactBody>;

export const SearchRedactResult = z
  .object({ created: z.number().int(), redaction_ids: z.array(z.string()), hits: z.number().int(), documents: z.number().int() })
  .meta({ id: 'SearchRedactResult' });
export type SearchRedactResult = z.infer<typeof SearchRedactResult>;
