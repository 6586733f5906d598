import { AppError, UsageError } from '../errors.js';
import { DistributionError } from '../platform/db/citus-distribution.js';
import { DataDirLockedError } from '../platform/db/data-dir-lock.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface CliError {
  exitCode: number;
  body: { error: { code: string; message: string; errors?: Record<string, string[]> } };
}

/** Every failure becomes `{"error":{"code","message"[,"errors"]}}` with a stable code. */
export function toCliError(error: unknown): CliError {
  if (error instanceof UsageError) {
    return { exitCode: EXIT_USAGE, body: { error: { code: 'usage', message: error.message } } };
  }
  if (error instanceof DataDirLockedError) {
    return { exitCode: EXIT_FAILURE, body: { error: { code: 'data_dir_locked', message: error.message } } };
  }
  if (error instanceof DistributionError) {
    return { exitCode: EXIT_FAILURE, body: { error: { code: error.code, message: error.message } } };
  }
  if (error instanceof AppError) {
    return {
      exitCode: EXIT_FAILURE,
      body: {
        error: {
          code: error.code,
          message: error.message,
          ...(error.errors ? { errors: error.errors } : {}),
        },
      },
    };
  }
  // Unexpected: keep the message (operators need it), the stack goes to stderr separately.
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT_FAILURE, body: { error: { code: 'internal_error', message } } };
}
