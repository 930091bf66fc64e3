import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../common/errors.js';
import { ID_PATTERN, IdParam } from '../../common/schemas/shared.js';

type Validator = ReturnType<FastifySchemaCompiler<z.ZodType>>;

/**
 * The zod validator compiler, with a precompiled path for route params made only of ids
 * (z.object({ case_id: IdParam, ... })), which most routes have: a regex test per id instead of a zod parse
 * per request. An id path parameter that is not a positive integer names no resource, so it answers
 * 404 resource_not_found (the spec's resource lookup), never 400; other params go to zod as before.
 */
export const validatorCompilerWithIdFastPath: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route) as Validator;
  const idKeys = route.httpPart === 'params' ? idParamKeys(route.schema) : [];
  if (idKeys.length === 0) return validate;
  const onlyIds = idOnlyKeys(route.schema) !== undefined;
  return (data: unknown) => {
    const params = data as Record<string, unknown> | null;
    const value: Record<string, number> = {};
    for (const key of idKeys) {
      const raw = params?.[key];
      if (typeof raw !== 'string' || !ID_PATTERN.test(raw)) return { error: new DomainError('resource_not_found', `no resource has the id given as ${key}`) };
      value[key] = Number(raw);
    }
    return onlyIds ? { value } : validate(data);
  };
};

/** The keys of a z.object whose field is IdParam itself. */
function idParamKeys(schema: unknown): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, unknown>)
    .filter(([, field]) => field === IdParam)
    .map(([key]) => key);
}

/** The keys of a plain z.object whose every field is IdParam itself; undefined for any other schema. */
function idOnlyKeys(schema: unknown): string[] | undefined {
  // A strict or passthrough object (catchall set) treats unknown keys differently: leave it to zod.
  if (!(schema instanceof z.ZodObject) || schema.def.catchall !== undefined) return undefined;
  const entries = Object.entries(schema.shape as Record<string, unknown>);
  if (entries.length === 0 || !entries.every(([, field]) => field === IdParam)) return undefined;
  return entries.map(([key]) => key);
}
