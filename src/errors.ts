/**
 * Typed errors with stable codes. Domain code throws these; src/http/errors.ts maps them to HTTP.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalidToken = () => new AppError(403, 'invalid_token', 'Bearer token is invalid');

export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found.`);

export const badRequest = (message: string, code = 'bad_request') => new AppError(400, code, message);

export const validationFailed = (errors: FieldErrors) =>
  new AppError(422, 'validation_failed', 'The given data was invalid.', errors);

/** One field, one message: the common case of a business-rule validation error. */
export const invalidField = (field: string, message: string) => validationFailed({ [field]: [message] });

export const slotUnavailable = (message = 'The requested time is not available.', errors?: FieldErrors) =>
  new AppError(409, 'slot_unavailable', message, errors ?? { reserved_on: [message] });

export const bookingFinal = () =>
  new AppError(409, 'booking_final', 'The booking is completed or canceled and cannot be changed.', {
    status: ['The booking is completed or canceled and cannot be changed.'],
  });

/** A per-workspace cap (MAX_*_PER_WORKSPACE) is reached: a 422 naming the capped collection. */
export const limitReached = (field: string, message: string) =>
  new AppError(422, 'limit_reached', message, { [field]: [message] });

export const conflict = (code: string, message: string, errors?: FieldErrors) =>
  new AppError(409, code, message, errors);

/** Collects field errors so a request reports every bad field at once, not only the first. */
export class FieldErrorBag {
  private readonly errors: FieldErrors = {};
  add(field: string, message: string): void {
    const list = this.errors[field] ?? [];
    list.push(message);
    this.errors[field] = list;
  }
  get isEmpty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  toJSON(): FieldErrors {
    return { ...this.errors };
  }
  throwIfAny(): void {
    if (!this.isEmpty) throw validationFailed(this.errors);
  }
}

/**
 * Bad command line (unknown command, missing or unknown flag): the CLI exits with code 2, like
 * most CLIs. Here, not in src/cli/, because each feature parses its own commands' flags.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
