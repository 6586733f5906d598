import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FieldErrors, withIssues } from '../../errors.js';
import { fieldErrors, fieldIssues } from './errors.js';
import { HTTP_URL_FORMAT, isHttpUrl } from './http-url.js';
import { registerJsonBody } from './json-body.js';
import { registerTextGuard } from './text-guard.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

// allErrors: one 422 names every bad field (bodies are small: bodyLimit and maxItems bound the work).
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: true, strict: false };

/** For query strings, path params and form bodies, which carry only strings. */
const coercing = withOurFormats(new Ajv({ ...common, coerceTypes: 'array' }));
/** For JSON bodies, whose values have real types: `null` must not become 0, nor `true` become 1. */
const exact = withOurFormats(new Ajv({ ...common, coerceTypes: false }));

const outsideRoutes = new WeakMap<object, ValidateFunction>();

/**
 * A route schema's findings on a value outside a route (a panel form, a CLI flag), as the same
 * field errors a 422 of the API names: one schema, one set of messages for every surface.
 */
export function schemaErrorsOf(schema: object, value: unknown): FieldErrors {
  let validate = outsideRoutes.get(schema);
  if (!validate) {
    validate = exact.compile(schema);
    outsideRoutes.set(schema, validate);
  }
  if (validate(value)) return {};
  // The typed issues ride along (withIssues), so the panel can word them in its reader's language.
  return withIssues(fieldErrors(validate.errors ?? []), fieldIssues(validate.errors ?? []));
}

function withOurFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  ajv.addFormat(HTTP_URL_FORMAT, isHttpUrl);
  return ajv;
}

/**
 * Validation with type coercion only where the wire has no types. Fastify's default coerces
 * every part, so a JSON `{"paid_amount": null}` would validate as 0. Form bodies are coerced by
 * the route's body schema before the exact validation runs.
 */
export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) =>
    compiledOnFirstUse(httpPart === 'body' ? exact : coercing, schema),
  );
  // Response schemas document the answers (OpenAPI) and are checked by a contract test; they do
  // not shape them. fast-json-stringify would drop every field a schema leaves out and reorder
  // keys, so an answer's bytes would hang on its schema: JSON.stringify keeps them as presented.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerJsonBody(app);
  registerTextGuard(app);
  const formCoercers = new WeakMap<object, ValidateFunction>();
  // Hooks on every request's path are synchronous with `done` (here and in the surfaces): an async
  // hook costs a promise and a turn of the microtask queue per request for work that never waits.
  app.addHook('preValidation', (request, _reply, done) => {
    coerceFormBody(request);
    done();
  });
  function coerceFormBody(request: FastifyRequest): void {
    const schema = request.routeOptions.schema?.body as object | undefined;
    if (!schema) return;
    // No body at all reads as an empty one: a 422 then names the fields that are required, and a
    // bare PATCH changes nothing, rather than "the body must be an object". A JSON `null` never
    // gets here: the body parser refuses every JSON body that is not an object (json-body.ts).
    if (request.body === undefined) request.body = {};
    if (!isFormBody(request)) return;
    let coerce = formCoercers.get(schema);
    if (!coerce) {
      coerce = coercing.compile(schema);
      formCoercers.set(schema, coerce);
    }
    // Coerces in place; what is still wrong is reported by the exact validation that follows.
    coerce(request.body);
  }
}

/**
 * A route's validator, compiled by Ajv when its first request arrives rather than when the app
 * starts: compiling every route's schemas took ~0.4 s of CPU before a (re)started server could
 * answer /health, for routes most processes never see. A schema Ajv refuses still fails loudly,
 * on that route's first request (the contract and fuzz tests send one to every route).
 */
function compiledOnFirstUse(ajv: Ajv, schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.errors = null;
  return validate;
}

function isFormBody(request: FastifyRequest): boolean {
  return (
    typeof request.body === 'object' &&
    request.body !== null &&
    (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
  );
}
