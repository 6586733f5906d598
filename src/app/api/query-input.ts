import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Methods whose body fields may come from the query string, as in the real service. */
const MERGING = new Set(['POST', 'PUT']);

// Query values are strings; the fields taken from the query are coerced to the body schema's
// types the way a form body is (platform/http/validator.ts), before the exact validation runs.
const coercing = new Ajv({ coerceTypes: 'array', strict: false, allErrors: true, validateFormats: false });
const coercers = new WeakMap<object, ValidateFunction>();

/**
 * Laravel-style input, as the real service reads requests: on POST and PUT, a body field that is
 * absent from the body is taken from the query string; where both carry it, the body wins. So
 * `POST /bookings?reserved_on=...&service_uuid=...` with no body creates a booking. Registered
 * once for the whole API surface; runs after the shared preValidation hook, which turns a missing
 * body into `{}`.
 */
export function registerQueryInput(api: FastifyInstance): void {
  api.addHook('preValidation', (request, _reply, done) => {
    mergeQueryInput(request);
    done();
  });
}

function mergeQueryInput(request: FastifyRequest): void {
  if (!MERGING.has(request.method)) return;
  const schema = request.routeOptions.schema?.body as object | undefined;
  if (!schema) return;
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  if (request.body === undefined) request.body = {};
  const body = request.body as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) return;

  const fromQuery: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!(key in body)) fromQuery[key] = value;
  }
  const keys = Object.keys(fromQuery);
  if (keys.length === 0) return;
  let coerce = coercers.get(schema);
  if (!coerce) {
    coerce = coercing.compile(schema);
    coercers.set(schema, coerce);
  }
  // Coerces in place whatever it can; what is still wrong is the exact validation's to report.
  coerce(fromQuery);
  for (const key of keys) body[key] = fromQuery[key];
}
