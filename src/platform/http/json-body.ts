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

/** Fastify's own JSON parser (prototype-poisoning safe), behind a depth limit. */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
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
    parse(request, body as string, done);
  });
}
