import { z } from 'zod';
import { Timestamp } from './shared.js';

/** GET /me for an API key. */
export const Me = z
  .object({
    api_key: z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string().describe('The public part of the key, safe to log'),
      scopes: z.array(z.string()),
      expires_at: Timestamp.nullable(),
      created_at: Timestamp,
    }),
    service_account: z.object({ id: z.string(), name: z.string() }),
    organization: z.object({ id: z.string(), name: z.string() }),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

/** GET /me for a signed-in user calling with the application session. */
export const MeUser = z
  .object({
    user: z.object({
      id: z.string(),
      username: z.string(),
      display_name: z.string(),
      is_admin: z.boolean(),
      roles: z.array(z.object({ id: z.string(), name: z.string() })),
      scopes: z.array(z.string()).describe('The union of the scopes of the roles; every scope for administrators'),
    }),
    session: z.object({ expires_at: Timestamp }),
    organization: z.object({ id: z.string(), name: z.string() }),
  })
  .meta({ id: 'MeUser' });
export type MeUser = z.infer<typeof MeUser>;

export const MeResponse = z.union([Me, MeUser]);
export type MeResponse = z.infer<typeof MeResponse>;
