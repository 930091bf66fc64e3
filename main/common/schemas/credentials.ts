import { z } from 'zod';
import { ScopeList, ScopesOut } from './scope-list.js';
import { Timestamp } from './shared.js';

export const ServiceAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    max_scopes: ScopesOut.describe('No key of this account can hold a scope outside this list'),
    active: z.boolean().describe('Keys of an inactive account answer 403 permission_denied'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'ServiceAccount' });
export type ServiceAccount = z.infer<typeof ServiceAccount>;

export const CreateServiceAccountBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  max_scopes: ScopeList,
});
export type CreateServiceAccountBody = z.infer<typeof CreateServiceAccountBody>;

export const UpdateServiceAccountBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    max_scopes: ScopeList.optional().describe('Narrowing also narrows the scopes of the existing keys'),
    active: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateServiceAccountBody = z.infer<typeof UpdateServiceAccountBody>;

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The public part of the key, safe to log'),
    service_account_id: z.string(),
    scopes: ScopesOut,
    status: z.enum(API_KEY_STATUSES),
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    rotated_at: Timestamp.nullable(),
    previous_secret_expires_at: Timestamp.nullable().describe('After a rotation: until when the replaced secret still works'),
    created_at: Timestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const IssuedApiKey = ApiKey.extend({
  secret: z
    .string()
    .nullable()
    .describe('The full key for the x-api-key header; shown only in this response. Null in an idempotent replay: the secret is never stored, rotate the key for a new one'),
}).meta({ id: 'IssuedApiKey' });
export type IssuedApiKey = z.infer<typeof IssuedApiKey>;

export const CreateApiKeyBody = z.strictObject({
  service_account_id: z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer id'),
  name: z.string().trim().min(1).max(200),
  scopes: ScopeList.describe('At most the service account max_scopes'),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional().describe('Omit or null: the key does not expire'),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = z.strictObject({ name: z.string().trim().min(1).max(200) });

export const RotateApiKeyBody = z
  .strictObject({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86400)
      .optional()
      .describe('How long the replaced secret keeps working; default from configuration (24 h)'),
  })
  .nullish();

export const ApiKeyListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(512).optional(),
  service_account_id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .transform((value) => Number(value))
    .optional(),
});
