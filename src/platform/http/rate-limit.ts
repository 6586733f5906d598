import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { rateLimitRefusals } from '../metrics/registry.js';

export interface RateLimitOptions {
  /** Requests per minute per key; 0 turns the limit off. */
  perMinute: number;
  /** Whom a request counts against (the surface knows: an API key, a session, an IP). */
  keyOf(request: FastifyRequest): string;
  /** Label of the refusals metric. */
  surface: string;
}

/**
 * A per-key request limit on one surface (@fastify/rate-limit, in memory: each process counts
 * its own requests). It runs at preParsing, after the surface's onRequest auth has named the
 * caller and before the body is read. Every answer carries the IETF draft `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` headers; a refusal is 429 `rate_limited` in our JSON
 * shape with `Retry-After`. Call it before the surface registers its routes.
 */
export async function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): Promise<void> {
  if (options.perMinute <= 0) return;
  await scope.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    hook: 'preParsing',
    enableDraftSpec: true,
    keyGenerator: options.keyOf,
    errorResponseBuilder: (_request, context) => {
      rateLimitRefusals.inc({ surface: options.surface });
      return new AppError(
        429,
        'rate_limited',
        `Too many requests: at most ${context.max} per minute. Retry in ${context.after}.`,
      );
    },
  });
}
