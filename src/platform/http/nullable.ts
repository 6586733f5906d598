import { type Static, type TSchema, Type } from 'typebox';

/**
 * `schema` or null, as one JSON-schema `type: [t, "null"]` rather than TypeBox's `anyOf`.
 * Why: under Ajv's `allErrors` an `anyOf` reports every branch ("must be null", "must match
 * format", "must match a schema in anyOf"), while a type list reports only the real problem
 * (e.g. "must be a valid uri"); and keywords such as `format` or `properties` apply to the
 * non-null branch only.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type?: string; enum?: unknown[] } & Record<
    string,
    unknown
  >;
  // An enum (TypeBox's Type.Enum has no `type`) takes null as one more value.
  if (type === undefined && Array.isArray(rest.enum)) {
    return Type.Unsafe<Static<T> | null>({ ...rest, enum: [...rest.enum, null] });
  }
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}
