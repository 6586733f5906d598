import fc from 'fast-check';
import type { Json } from '../contract/openapi-kit.js';

/**
 * fast-check arbitraries read from our own OpenAPI schemas: values that pass a field's schema
 * (so requests reach the rules and the store behind it) and values built to break it (wrong
 * types, limits, NUL, unpaired surrogates, huge strings, odd dates, nesting).
 */

/** Values that let a request through to the handler, by property name where the type says too little. */
const HINTS: Record<string, fc.Arbitrary<unknown>> = {
  timezone: fc.constantFrom('Europe/Berlin', 'UTC', 'Asia/Kolkata', 'America/St_Johns'),
  reserved_on: fc.constantFrom('2026-09-02T08:00:00Z', '2026-09-02T10:00:00+02:00', '2026-09-03T09:15:00Z'),
  customer_phone: fc.constantFrom('+4915112345678', '015112345678', '+1 212 555 0100'),
  phone: fc.constantFrom('+4915112345678', '+49301234567'),
  customer_email: fc.constantFrom('a@example.com', ''),
  range_start: fc.constantFrom('2026-09-01', '2026-09-02'),
  range_end: fc.constantFrom('2026-09-05', '2026-11-30'),
  from: fc.constantFrom('2026-09-01', '2026-09-10'),
  url: fc.constantFrom('https://93.184.215.14/hook', 'http://127.0.0.1:9/hook'),
  locale: fc.constantFrom('de-DE', 'en-US'),
  currency: fc.constantFrom('EUR', 'USD'),
  events: fc.constantFrom(['booking-created'], ['*']),
  country_iso: fc.constantFrom('DE', ''),
};

/** Everything a schema field should refuse somewhere: every class of bad input seen answering 5xx. */
export const BAD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
  1e20,
  -1e20,
  '',
  '   ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\r\n',
  '%00',
  'x'.repeat(70_000),
  '0000-01-01',
  '9999-12-31',
  '2026-02-30',
  '2026-13-45',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  'NaN',
  '1e20',
  '-0',
  'javascript:alert(1)',
  'http://[2002:7f00:1::]/',
  'http://example.com:0/',
  'http://example.com:99999/',
  [],
  {},
  [[[[]]]],
  { a: { b: { c: { d: {} } } } },
  ['\u0000'],
];

const typeOf = (schema: Json): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;

/**
 * `uuids` maps a field name (`service_uuid`, `location_uuids`...) to the fixture it should name
 * most of the time, so that a request gets past "not found" to the checks behind it.
 */
export function goodValue(
  schema: Json,
  name = '',
  uuids: Record<string, string> = {},
): fc.Arbitrary<unknown> {
  if (HINTS[name]) return HINTS[name]!;
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch: Json) => goodValue(branch, name, uuids)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (typeOf(schema)) {
    case 'string':
      if (schema.format === 'uuid') {
        const named = uuids[name] ?? uuids[name.replace(/s$/, '')];
        return named
          ? fc.oneof(
              { weight: 5, arbitrary: fc.constant(named) },
              { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
            )
          : fc.oneof(fc.constantFrom(...Object.values(uuids)), fc.uuid({ version: 4 }));
      }
      if (schema.format === 'date') return fc.constantFrom('2026-09-02', '2026-12-24');
      if (schema.format === 'date-time')
        return fc.constantFrom('2026-09-01T00:00:00Z', '2026-10-01T00:00:00Z');
      if (schema.format === 'http-url') return fc.constantFrom('https://example.com/a.png');
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'integer':
      return fc.integer({
        min: schema.minimum ?? -5,
        max: Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + 1000),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(goodValue(schema.items ?? {}, name, uuids), {
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object':
      return goodObject(schema, uuids);
    default:
      return fc.constant('x');
  }
}

function goodObject(schema: Json, uuids: Record<string, string>): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set<string>(schema.required ?? []);
  const entries = Object.entries<Json>(schema.properties ?? {}).map(([key, property]) => {
    const value = goodValue(property, key, uuids);
    return [
      key,
      required.has(key)
        ? value.map((v) => [v])
        : fc.option(
            value.map((v) => [v]),
            { nil: undefined },
          ),
    ] as const;
  });
  return fc.record(Object.fromEntries(entries)).map((record) =>
    Object.fromEntries(
      Object.entries(record)
        .filter(([, wrapped]) => wrapped !== undefined)
        .map(([key, wrapped]) => [key, (wrapped as unknown[])[0]]),
    ),
  );
}

/** A value built to break `schema`: a bad value of any kind, or one just past its limits. */
export function badValue(schema: Json): fc.Arbitrary<unknown> {
  const limits: unknown[] = [];
  if (typeof schema.maximum === 'number') limits.push(schema.maximum + 1, schema.maximum + 0.5);
  if (typeof schema.minimum === 'number') limits.push(schema.minimum - 1);
  if (typeof schema.maxLength === 'number') limits.push('y'.repeat(schema.maxLength + 1));
  if (typeof schema.maxItems === 'number')
    limits.push(Array(schema.maxItems + 1).fill(schema.items?.enum?.[0] ?? 'z'));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...BAD_VALUES) },
    { weight: limits.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...(limits.length > 0 ? limits : [0])) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  );
}

/** Every (dotted path, schema) of an object schema's properties, nested ones included. */
export function fieldPaths(schema: Json, prefix: string[] = []): { path: string[]; schema: Json }[] {
  const out: { path: string[]; schema: Json }[] = [];
  for (const [key, property] of Object.entries<Json>(schema?.properties ?? {})) {
    out.push({ path: [...prefix, key], schema: property });
    if (property.properties && prefix.length < 3) out.push(...fieldPaths(property, [...prefix, key]));
  }
  return out;
}

export function setPath(target: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(target ?? {});
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  node[path.at(-1)!] = value;
  return copy;
}

/** A JSON text nested `depth` levels, placed under `key` of an otherwise normal object body. */
export const deepJson = (body: Json, key: string, depth: number) => {
  const text = JSON.stringify({
    ...(typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}),
    [key]: 0,
  });
  return text.replace(`"${key}":0`, `"${key}":${'['.repeat(depth)}${']'.repeat(depth)}`);
};
