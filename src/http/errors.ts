import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldErrors } from '../errors.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Maps every error to DESIGN §3's JSON shape: `message`, a stable `code`, and `errors` by field. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toAppError(error);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    if (mapped.headers) reply.headers(mapped.headers);
    return reply.status(mapped.statusCode).send(errorBody(mapped));
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ message: 'Not found.', code: 'not_found' }),
  );
}

export function errorBody(error: AppError): Record<string, unknown> {
  return {
    message: error.message,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError.validation) {
    // A malformed id in the path names no resource of this workspace: 404, like an unknown one.
    if (fastifyError.validationContext === 'params') return new AppError(404, 'not_found', 'Not found.');
    return new AppError(
      422,
      'validation_failed',
      'The given data was invalid.',
      fieldErrors(fastifyError.validation),
    );
  }
  const pgCode = (error as { code?: unknown }).code;
  if (typeof pgCode === 'string' && /^[0-9A-Z]{5}$/.test(pgCode)) {
    const mapped = fromPostgresError(pgCode);
    if (mapped) return mapped;
  }
  if (pgCode === 'ECONNREFUSED' || pgCode === 'ECONNRESET' || pgCode === '57P01' || pgCode === '57P03') {
    return new AppError(503, 'service_unavailable', 'The service is temporarily unavailable.', undefined, {
      'retry-after': '5',
    });
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(status, statusCode(status, fastifyError.code), cleanMessage(fastifyError.message));
  }
  return new AppError(500, 'internal_error', 'Internal server error.');
}

function statusCode(status: number, fastifyCode: string | undefined): string {
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (fastifyCode?.startsWith('FST_ERR_CTP')) return 'malformed_body';
  return 'bad_request';
}

function cleanMessage(message: string): string {
  // Fastify's parser messages are fine for clients but may end without a full stop.
  return message.replace(
    /^Body is not valid JSON but content-type is set to 'application\/json'$/,
    'Malformed JSON body.',
  );
}

function fromPostgresError(code: string): AppError | undefined {
  switch (code) {
    case '23P01': // exclusion_violation: an overlapping occupancy of the same staffer
      return new AppError(409, 'slot_unavailable', 'The requested time is not available.', {
        reserved_on: ['The requested time is not available.'],
      });
    case '22P02': // invalid_text_representation (e.g. a bad uuid that slipped through)
    case '22007':
    case '22008':
      return new AppError(422, 'validation_failed', 'The given data was invalid.', {});
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return new AppError(409, 'conflict', 'The request conflicted with another one; retry it.');
    default:
      return undefined;
  }
}

/** Ajv errors to `{ "field.sub": ["message"] }` (dotted keys for nested fields). */
export function fieldErrors(errors: AjvError[]): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    let field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
      field = field ? `${field}.${error.params.missingProperty}` : error.params.missingProperty;
    }
    if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
      field = field ? `${field}.${error.params.additionalProperty}` : error.params.additionalProperty;
    }
    const key = field || '_';
    const message = describe(error, key);
    const list = result[key] ?? [];
    if (!list.includes(message)) list.push(message);
    result[key] = list;
  }
  return result;
}

function describe(error: AjvError, field: string): string {
  const name = field.split('.').pop() ?? field;
  switch (error.keyword) {
    case 'required':
      return `The ${name} field is required.`;
    case 'format':
      return `The ${name} field must be a valid ${String(error.params.format)}.`;
    case 'type':
      return `The ${name} field must be of type ${String(error.params.type)}.`;
    case 'enum':
      return `The ${name} field must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'pattern':
      return `The ${name} field ${error.message ?? 'is invalid'}.`;
    default:
      return `The ${name} field is invalid.`;
  }
}
