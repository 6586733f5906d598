import type { FastifyRequest } from 'fastify';
import { type FieldErrors, type FieldIssue, issuesOf, validationFailed } from '../../errors.js';
import { toAppError } from './errors.js';

/**
 * For routes declared with `attachValidation: true`, whose handlers add rule checks the schema
 * cannot express (a locale Intl accepts, overlapping intervals...). Without it a schema error
 * stops the request before those checks run, and the 422 would name only some of the bad fields.
 * A malformed path id still answers 404 at once, as everywhere else.
 */
export function schemaFieldErrors(request: FastifyRequest): FieldErrors {
  const error = request.validationError;
  if (!error) return {};
  const mapped = toAppError(error);
  if (mapped.statusCode !== 422) throw mapped;
  const { _: root, ...errors } = mapped.errors ?? {};
  // No body at all reads as an empty one: the rule checks then name the fields that are required,
  // rather than a bare "the body must be an object".
  if (root && request.body !== undefined && request.body !== null) return { _: root, ...errors };
  return errors;
}

/**
 * Throws one 422 naming every bad field. Where the schema and a rule check name the same field,
 * the rule's message wins: it is the more specific one ("a divisor of 1440" beats "must be <= 720").
 */
export function throwIfInvalid(schemaErrors: FieldErrors, ruleErrors: FieldErrors): void {
  const merged: FieldErrors = { ...schemaErrors, ...ruleErrors };
  if (Object.keys(merged).length === 0) return;
  // The typed issues go along: the schema's for the fields whose message is still the schema's.
  const issues: Record<string, FieldIssue> = { ...issuesOf(schemaErrors) };
  for (const field of Object.keys(ruleErrors)) delete issues[field];
  Object.assign(issues, issuesOf(ruleErrors));
  throw validationFailed(merged, Object.keys(issues).length > 0 ? issues : undefined);
}
