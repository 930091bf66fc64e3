import { z } from 'zod';
import { Timestamp } from './shared.js';

export const Username = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/, 'letters, digits and . _ @ - only, starting with a letter or digit');

/** Long enough to resist guessing; no composition rules (NIST SP 800-63B). */
export const NewPassword = z.string().min(12, 'at least 12 characters').max(1000);

export const RoleRef = z.object({ id: z.string(), name: z.string() });

export const User = z
  .object({
    id: z.string(),
    username: z.string(),
    display_name: z.string(),
    email: z.string().nullable(),
    is_admin: z.boolean().describe('Holds the built-in admin role'),
    active: z.boolean(),
    has_password: z.boolean().describe('False until a password is set at creation or through an invitation'),
    roles: z.array(RoleRef),
    created_at: Timestamp,
    updated_at: Timestamp,
    deactivated_at: Timestamp.nullable(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const CreateUserBody = z.strictObject({
  username: Username,
  display_name: z.string().trim().min(1).max(200),
  email: z.email().max(320).nullable().optional(),
  password: NewPassword.optional().describe('Omit to let the user choose one through an invitation'),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z
  .strictObject({
    username: Username.optional(),
    display_name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(320).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const UserListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(512).optional(),
  active: z.enum(['true', 'false']).transform((value) => value === 'true').optional().describe('Only active (true) or deactivated (false) users'),
});

export const Invitation = z
  .object({
    user_id: z.string(),
    token: z
      .string()
      .nullable()
      .describe('Shown once; the user sends it with a password to POST /api/auth/accept-invitation. Null in an idempotent replay: the token is never stored, invite again'),
    accept_path: z.literal('/api/auth/accept-invitation'),
    expires_at: Timestamp,
    created_at: Timestamp,
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

export const AcceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(200),
  password: NewPassword,
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;
