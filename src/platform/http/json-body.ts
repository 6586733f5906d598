import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

/** Deeper JSON than any of our bodies needs (a schedule is 4 levels); refused before parsing. */
export const MAX_JSON_DEPTH = 32;

/**
 * Nesting depth of a JSON text, counting only brackets outside strings; stops as soon as `limit`
 * is passed. One pass over the characters, so a 256 kB body of `[[[[...` costs microseconds,
 * where parsing it would build thousands of levels that later recursive code (validation,
 * hashing, the driver) may not survive.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/**
 * Fastify's own JSON parser (prototype-poisoning safe), behind a depth limit, for every surface.
 *
 * A body is a JSON object or nothing. `null`, a number, a string, a boolean or an array is a 400
 * `malformed_body` here, once for every route: later steps read `null` as "no body" (the cancel
 * route then canceled), and a scalar would reach validation as a 422 on a field named `_`. An
 * empty body (or only whitespace) under a JSON content type is no body, as without one: routes
 * whose fields are all optional (cancel) or may come from the query string (create) take it.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(
        new AppError(
          400,
          'malformed_body',
          `The JSON body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, (error, value) => {
      if (error) done(error, undefined);
      else if (typeof value !== 'object' || value === null || Array.isArray(value))
        done(new AppError(400, 'malformed_body', 'The JSON body must be an object.'), undefined);
      else done(null, value);
    });
  });
}
