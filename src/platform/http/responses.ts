import { type TSchema, Type } from 'typebox';
import { Nullable } from './nullable.js';

/**
 * Response schemas: they document every answer in the OpenAPI document, and a contract test
 * (test/contract/responses.test.ts) runs real answers of every route through them. They do not
 * serialise: validator.ts keeps JSON.stringify, so an answer's bytes never depend on a schema
 * (fast-json-stringify would drop undeclared fields and reorder keys).
 */

/** The body of every 4xx and 5xx of the API. */
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.String({ description: 'Stable machine-readable code, e.g. validation_failed' }),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'Messages by field; dotted keys for nested fields (on 409 and 422)',
      }),
    ),
  },
  { additionalProperties: false, description: 'Error: `message`, a stable `code`, and `errors` by field' },
);

export const IsoInstant = Type.String({
  description: "UTC ISO 8601 with 'Z'",
  examples: ['2026-09-10T12:00:00Z'],
});
export const Uuid = Type.String({ format: 'uuid' });
export const NullableString = Nullable(Type.String());

/** A duration in minutes: `{value: 90, label: 'minutes', iso_8601: 'PT1H30M'}`. */
export const DurationJson = Type.Object({
  value: Type.Integer(),
  label: Type.Literal('minutes'),
  iso_8601: Type.String({ examples: ['PT1H30M'] }),
});

/** `{"data": item}` */
export const Data = <T extends TSchema>(item: T) => Type.Object({ data: item });

/** `{"data": [...]}` (not paginated). */
export const DataList = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item) });

/** A paginated list: `data`, `meta` (pages and total) and `links`. */
export const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    meta: Type.Object({
      current_page: Type.Integer(),
      last_page: Type.Integer(),
      per_page: Type.Integer(),
      total: Type.Integer(),
    }),
    links: Type.Object(
      {
        first: Type.String(),
        last: Type.String(),
        prev: NullableString,
        next: NullableString,
      },
      { description: 'Absolute under PUBLIC_URL when it is set, otherwise relative to the host' },
    ),
  });

/** 204: no body. */
export const NoContent = Type.Null({ description: 'No body' });

/**
 * A route's `response` map: its success answers, and the error shape for every 4xx and 5xx.
 * Every API route declares one (the contract test fails on a route without).
 */
export function responses(success: Record<number, TSchema>): Record<string, TSchema> {
  return { ...success, '4xx': ErrorBody, '5xx': ErrorBody };
}
