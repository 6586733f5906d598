import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked generically.
export type Json = any;

export interface Operation {
  method: string;
  /** The documented path, e.g. /locations/{locationUuid}. */
  path: string;
  key: string;
  spec: Json;
  matches(method: string, path: string): boolean;
}

/** Every operation of an OpenAPI document, static paths before templated ones when both match. */
export function operationsOf(doc: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        spec: item[method],
        matches: (m, p) => m === method.toUpperCase() && pattern.test(p),
      });
    }
  }
  const params = (path: string) => (path.match(/\{/g) ?? []).length;
  return operations.sort((a, b) => params(a.path) - params(b.path));
}

/**
 * A copy of a schema in which every object that lists its properties allows no others (unless it
 * says so itself): the contract test then fails both on a missing field and on an undocumented one.
 */
export function closed(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries<Json>(value as Json).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  }
  if (schema.properties && !('additionalProperties' in schema)) out.additionalProperties = false;
  return out;
}

/** The declared response schemas of one operation, compiled; status '4XX' ranges included. */
export function responseValidators(doc: Json, operation: Operation): Map<string, ValidateFunction | 'empty'> {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  const validators = new Map<string, ValidateFunction | 'empty'>();
  for (const [status, response] of Object.entries<Json>(operation.spec.responses ?? {})) {
    const schema = response.content?.['application/json']?.schema;
    validators.set(status, schema ? ajv.compile({ ...closed(schema), components: doc.components }) : 'empty');
  }
  return validators;
}
