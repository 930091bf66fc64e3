import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, IdParam } from '../../common/schemas/shared.js';

type Validator = ReturnType<FastifySchemaCompiler<z.ZodType>>;

/**
 * The zod validator compiler, with a precompiled path for route params made only of ids
 * (z.object({ case_id: IdParam, ... })), which most routes have: a regex test per id instead of a zod parse
 * per request. Params that fail the test go to the zod validator, so errors are exactly zod's.
 */
export const validatorCompilerWithIdFastPath: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route) as Validator;
  const keys = route.httpPart === 'params' ? idOnlyKeys(route.schema) : undefined;
  if (!keys) return validate;
  return (data: unknown) => {
    const params = data as Record<string, unknown> | null;
    const value: Record<string, number> = {};
    for (const key of keys) {
      const raw = params?.[key];
      if (typeof raw !== 'string' || !ID_PATTERN.test(raw)) return validate(data);
      value[key] = Number(raw);
    }
    return { value };
  };
};

/** The keys of a plain z.object whose every field is IdParam itself; undefined for any other schema. */
function idOnlyKeys(schema: unknown): string[] | undefined {
  // A strict or passthrough object (catchall set) treats unknown keys differently: leave it to zod.
  if (!(schema instanceof z.ZodObject) || schema.def.catchall !== undefined) return undefined;
  const entries = Object.entries(schema.shape as Record<string, unknown>);
  if (entries.length === 0 || !entries.every(([, field]) => field === IdParam)) return undefined;
  return entries.map(([key]) => key);
}
