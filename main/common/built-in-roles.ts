import { ALL_SCOPES, type Scope } from './scopes.js';

export const BUILT_IN_ROLES = ['admin', 'redactor', 'reviewer', 'viewer'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

const inTableOrder = (scopes: readonly Scope[]): Scope[] => ALL_SCOPES.filter((scope) => scopes.includes(scope));

const READ_ALL_CASE_WORK: Scope[] = ['cases:read', 'documents:read', 'processing:read', 'redactions:read', 'comments:read', 'exports:read', 'templates:read'];

/**
 * Roles every organization starts with. They cannot be deleted or renamed; the admin role always grants
 * every scope (including scopes added by later versions), the others' scopes may be adjusted.
 */
export const BUILT_IN_ROLE_DEFAULTS: Readonly<Record<BuiltInRole, { description: string; scopes: readonly Scope[] }>> = {
  admin: { description: 'Administers the organization: every scope', scopes: ALL_SCOPES },
  redactor: {
    description: 'Prepares cases: uploads, processing, redactions, exports',
    scopes: inTableOrder([...READ_ALL_CASE_WORK, 'cases:write', 'documents:write', 'processing:write', 'redactions:write', 'comments:write', 'exports:write']),
  },
  reviewer: {
    description: 'Reviews and approves redactions and cases',
    scopes: inTableOrder([...READ_ALL_CASE_WORK, 'cases:write', 'redactions:write', 'comments:write']),
  },
  viewer: { description: 'Reads everything, changes nothing', scopes: READ_ALL_CASE_WORK },
};
