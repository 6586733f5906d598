import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldErrors, type FieldIssue, slotUnavailable } from '../../errors.js';
import { isStoreUnavailable } from '../db/client.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Maps every error to the API's JSON shape: `message`, a stable `code`, and `errors` by field. */
export function registerJsonErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toAppError(error);
    if (mapped.code === 'service_unavailable') request.log.warn({ err: error }, 'store unavailable');
    else if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    if (mapped.headers) reply.headers(mapped.headers);
    // A 5xx names its request id (also in X-Request-Id and in the log line) so a report finds the log.
    const body = errorBody(mapped);
    if (mapped.statusCode >= 500) body.request_id = request.id;
    return reply.status(mapped.statusCode).send(body);
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
  if (isStoreUnavailable(error)) return serviceUnavailable();
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return frameworkError(status, fastifyError.code);
  return new AppError(500, 'internal_error', 'Internal server error.');
}

/** The store cannot be reached: the client should retry shortly (the server recovers by itself). */
export const serviceUnavailable = () =>
  new AppError(503, 'service_unavailable', 'The service is temporarily unavailable.', undefined, {
    'retry-after': '5',
  });

/**
 * A 4xx raised by Fastify or a parser, in our words: their messages echo the path or the body
 * ("'/api/...%E0' is not a valid url component") and their codes are framework internals.
 */
function frameworkError(status: number, code: string | undefined): AppError {
  if (code === 'FST_ERR_BAD_URL') return new AppError(400, 'bad_url', 'The URL is malformed.');
  if (code === 'FST_ERR_MAX_PARAM_LENGTH')
    return new AppError(414, 'uri_too_long', 'A part of the path is too long.');
  if (status === 413) return new AppError(413, 'payload_too_large', 'The body is too large.');
  if (status === 415) {
    return new AppError(
      415,
      'unsupported_media_type',
      'Send the body as application/json or application/x-www-form-urlencoded.',
    );
  }
  if (status === 400) return new AppError(400, 'malformed_body', 'Malformed JSON body.');
  return new AppError(status, 'bad_request', 'The request cannot be served.');
}

/** Fastify's `frameworkErrors` option: bad percent-encoding and over-long path parameters, before routing. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const mapped = toAppError(error);
  void reply.status(mapped.statusCode).send(errorBody(mapped));
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request took too long to arrive.'],
};

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before Fastify sees them
 * (headers over the limit, an unknown method, a malformed request line), answered in our shape.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'bad_request',
    'Malformed HTTP request.',
  ];
  const body = JSON.stringify({ message, code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function fromPostgresError(code: string): AppError | undefined {
  switch (code) {
    case '23P01': // exclusion_violation: an overlapping occupancy of the same staffer
      return slotUnavailable('taken');
    // Data exceptions (class 22): a value the schema let through that the store cannot hold (a
    // malformed uuid, a number or date out of range, NUL in text). The field is unknown here, and
    // a 422 must name one, so these are a 400.
    case '22P02': // invalid_text_representation
    case '22003': // numeric_value_out_of_range
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22021': // character_not_in_repertoire (NUL)
    case '22001': // string_data_right_truncation
    case '2201W': // invalid_row_count_in_limit_clause
    case '2201X': // invalid_row_count_in_result_offset_clause
    case '54000': // program_limit_exceeded
      return new AppError(400, 'invalid_value', 'A value in the request is out of range or malformed.');
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
    const key = fieldOf(error);
    const message = describe(error, key);
    const list = result[key] ?? [];
    if (!list.includes(message)) list.push(message);
    result[key] = list;
  }
  return result;
}

/** The field an Ajv finding is about, as the API's `errors` name it (`_`: the body itself). */
function fieldOf(error: AjvError): string {
  let field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    field = field ? `${field}.${error.params.missingProperty}` : error.params.missingProperty;
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    field = field ? `${field}.${error.params.additionalProperty}` : error.params.additionalProperty;
  }
  return field || '_';
}

/** The same findings typed, one per field (its first), for surfaces that word them themselves. */
export function fieldIssues(errors: AjvError[]): Record<string, FieldIssue> {
  const result: Record<string, FieldIssue> = {};
  for (const error of errors) result[fieldOf(error)] ??= issueOf(error);
  return result;
}

function issueOf(error: AjvError): FieldIssue {
  const limit = Number(error.params.limit);
  switch (error.keyword) {
    case 'required':
      return { kind: 'required' };
    case 'format':
      if (error.params.format === 'email') return { kind: 'invalid_email' };
      if (error.params.format === 'http-url' || error.params.format === 'uri') return { kind: 'invalid_url' };
      return { kind: 'invalid' };
    case 'type':
      return error.params.type === 'integer' || error.params.type === 'number'
        ? { kind: 'not_a_number' }
        : { kind: 'invalid' };
    case 'enum':
      return { kind: 'not_a_choice' };
    case 'minimum':
      return { kind: 'too_small', limit };
    case 'exclusiveMinimum':
      return { kind: 'too_small', limit: limit + 1 };
    case 'maximum':
      return { kind: 'too_large', limit };
    case 'exclusiveMaximum':
      return { kind: 'too_large', limit: limit - 1 };
    // An empty text or list where one is needed reads as "required", as people put it.
    case 'minLength':
    case 'minItems':
      return limit <= 1 ? { kind: 'required' } : { kind: 'too_short', limit };
    case 'maxLength':
      return { kind: 'too_long', limit };
    default:
      return { kind: 'invalid' };
  }
}

function describe(error: AjvError, field: string): string {
  const name = field.split('.').pop() ?? field;
  switch (error.keyword) {
    case 'required':
      return `The ${name} field is required.`;
    case 'format':
      if (error.params.format === 'http-url') {
        return `The ${name} field must be an http or https URL with a valid port.`;
      }
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
    case 'formatMinimum':
    case 'formatMaximum':
      return `The ${name} field must be ${String(error.params.comparison)} ${String(error.params.limit)}.`;
    default:
      return `The ${name} field is invalid.`;
  }
}
