import { z } from 'zod';
import { ScopeList, ScopesOut } from './scope-list.js';
import { Timestamp } from './shared.js';

const RoleName = z.string().trim().min(1).max(100);

export const Role = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    scopes: ScopesOut,
    built_in: z.boolean().describe('admin, redactor, reviewer and viewer: cannot be deleted or renamed; admin always has every scope'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

export const CreateRoleBody = z.strictObject({
  name: RoleName,
  description: z.string().max(2000).optional(),
  scopes: ScopeList,
});
export type CreateRoleBody = z.infer<typeof CreateRoleBody>;

export const UpdateRoleBody = z
  .strictObject({
    name: RoleName.optional(),
    description: z.string().max(2000).optional(),
    scopes: ScopeList.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });
export type UpdateRoleBody = z.infer<typeof UpdateRoleBody>;
