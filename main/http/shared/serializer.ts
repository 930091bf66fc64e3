import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Response serializer: the route's zod schema becomes JSON Schema once, at start-up, and fast-json-stringify
 * compiles it into a dedicated function. Validating every response with zod again cost more than the rest of
 * a typical read; the services' return types are already checked by TypeScript against the same schemas.
 */
export function zodToFastJsonSerializer({ schema }: { schema: unknown }) {
  const jsonSchema = z.toJSONSchema(schema as z.ZodType, {
    io: 'output',
    target: 'draft-7',
    // An empty registry: every sub-schema is inlined instead of referenced by its OpenAPI id.
    metadata: z.registry(),
    unrepresentable: 'any',
  });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}
