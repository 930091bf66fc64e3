import { z } from 'zod';
import { Timestamp } from './shared.js';

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
