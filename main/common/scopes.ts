/** Every scope of the integration API, in the spec's order. */
export const ALL_SCOPES = [
  'cases:read',
  'cases:write',
  'documents:read',
  'documents:write',
  'processing:read',
  'processing:write',
  'redactions:read',
  'redactions:write',
  'comments:read',
  'comments:write',
  'exports:read',
  'exports:write',
  'exports:override',
  'templates:read',
  'users:read',
  'users:write',
  'roles:read',
  'roles:write',
  'credentials:read',
  'credentials:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}
