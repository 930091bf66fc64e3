import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Response serializer: the route's zod schema becomes JSON Schema once, at start-up, and fast-json-stringify
 * compiles it into a dedicated function. Validating every response with zod again cost more than the rest of
 * a typical read; the services' return types are already checked by TypeScript against the same schemas.
 */
export function zodToFastJsonSerializer({ schema }: { schema: unknown }): Serializer {
  const known = bySchema.get(schema as object);
  if (known) return known;
  const jsonSchema = z.toJSONSchema(schema as z.ZodType, {
    io: 'output',
    target: 'draft-7',
    // An empty registry: every sub-schema is inlined instead of referenced by its OpenAPI id.
    metadata: z.registry(),
    unrepresentable: 'any',
  });
  // A compiled serializer depends on its JSON Schema alone: a process that builds the server again (a restart
  // in place, a second server, the test suite) reuses it, found by the zod schema or, for a schema a route
  // builds anew on each registration, by the JSON Schema's text.
  const key = JSON.stringify(jsonSchema);
  let serializer = compiled.get(key);
  if (!serializer) {
    serializer = fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as Serializer;
    compiled.set(key, serializer);
  }
  bySchema.set(schema as object, serializer);
  return serializer;
}

type Serializer = (data: unknown) => string;

const compiled = new Map<string, Serializer>();
const bySchema = new WeakMap<object, Serializer>();
