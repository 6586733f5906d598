import type { FastifyInstance } from 'fastify';
import { type FieldErrors, validationFailed } from '../../errors.js';

/**
 * Text PostgreSQL cannot store, refused for every field of every query and body at once: a NUL
 * character (PostgreSQL text refuses it: the write would fail as a 500) and an unpaired UTF-16
 * surrogate (not Unicode: it would be stored as U+FFFD, a different string from the one sent).
 * One check at the edge, rather than a format on each string field that one field could miss.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const errors: FieldErrors = {};
    collect(request.query, '', errors);
    collect(request.body, '', errors);
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  });
}

function collect(value: unknown, path: string, errors: FieldErrors): void {
  if (typeof value === 'string') {
    if (!isStorableText(value)) {
      const field = path || '_';
      const name = field.split('.').pop();
      errors[field] = [`The ${name} field must not contain NUL characters or unpaired surrogates.`];
    }
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries())
      collect(item, path ? `${path}.${index}` : String(index), errors);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) errors[path || '_'] = ['Field names must not contain NUL characters.'];
      else collect(item, field, errors);
    }
  }
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);
}
