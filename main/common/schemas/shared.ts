import { z } from 'zod';

/** The wire form of a resource id: a decimal positive integer. */
export const ID_PATTERN = /^[1-9][0-9]{0,15}$/;

/** Resource ids are decimal strings of positive integers on the wire. */
export const IdParam = z
  .string()
  .regex(ID_PATTERN, 'must be a positive integer id')
  .transform((value) => Number(value));

export const Timestamp = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp (UTC)');

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
      locked_layers: z.array(z.string()).optional(),
    }),
    request_id: z.string(),
  })
  .meta({ id: 'Error' });

function makeSingle<T extends z.ZodType>(data: T) {
  return z.object({ data, request_id: z.string() });
}

function makeList<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), cursor: z.string().nullable(), request_id: z.string() });
}

// One envelope object per resource schema, so a server built again in the same process (the response
// serializers are cached by schema) finds the same object.
const singles = new WeakMap<z.ZodType, z.ZodType>();
const lists = new WeakMap<z.ZodType, z.ZodType>();

export function single<T extends z.ZodType>(data: T): ReturnType<typeof makeSingle<T>> {
  let made = singles.get(data);
  if (!made) singles.set(data, (made = makeSingle(data)));
  return made as ReturnType<typeof makeSingle<T>>;
}

export function list<T extends z.ZodType>(item: T): ReturnType<typeof makeList<T>> {
  let made = lists.get(item);
  if (!made) lists.set(item, (made = makeList(item)));
  return made as ReturnType<typeof makeList<T>>;
}

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().min(1).max(512).optional(),
});
