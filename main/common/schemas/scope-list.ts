import { z } from 'zod';
import { ALL_SCOPES, type Scope } from '../scopes.js';

/** A set of scopes from the spec's table, sent as an array; duplicates collapse and order follows the table. */
export const ScopeList = z
  .array(z.enum(ALL_SCOPES))
  .max(ALL_SCOPES.length * 2)
  .transform((scopes): Scope[] => ALL_SCOPES.filter((scope) => scopes.includes(scope)))
  .describe('Scopes, from the table in the integration spec');

/** Scopes as responses show them: in the table's order. */
export const ScopesOut = z.array(z.enum(ALL_SCOPES));
