import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
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

export interface FailureLimitOptions {
  /** Failures a key may have in one window; 0 turns the limit off. */
  max: number;
  windowMs: number;
  /** Keys remembered at once; past it the least recently failing are forgotten. */
  maxKeys?: number;
  clock?: { now(): number };
}

/** Addresses remembered by default: a few hundred kB at most, whatever an attacker sends. */
export const FAILURE_LIMIT_MAX_KEYS = 10_000;

/**
 * Counts failures (not requests) per key, a client address, in fixed windows, in memory: each
 * process counts its own. @fastify/rate-limit counts every request and cannot look without
 * counting, and a failure is only known after the request was checked. The map is an LRU of at
 * most `maxKeys` entries, so a flood from many addresses costs bounded memory; forgetting one
 * only gives it a fresh window.
 */
export class FailureLimit {
  private readonly windows: LRUCache<string, { count: number; endsAt: number }>;
  private readonly clock: { now(): number };

  constructor(private readonly options: FailureLimitOptions) {
    this.windows = new LRUCache({ max: options.maxKeys ?? FAILURE_LIMIT_MAX_KEYS });
    this.clock = options.clock ?? Date;
  }

  /** Seconds until `key` may fail again once its budget is spent, else 0. */
  retryAfter(key: string): number {
    if (this.options.max <= 0) return 0;
    const window = this.windows.peek(key);
    const now = this.clock.now();
    if (!window || window.endsAt <= now || window.count < this.options.max) return 0;
    return Math.max(1, Math.ceil((window.endsAt - now) / 1000));
  }

  /** One failure of `key`. */
  record(key: string): void {
    if (this.options.max <= 0) return;
    const now = this.clock.now();
    const window = this.windows.get(key);
    if (window && window.endsAt > now) window.count += 1;
    else this.windows.set(key, { count: 1, endsAt: now + this.options.windowMs });
  }

  /** Keys held now (tests of the bound). */
  get size(): number {
    return this.windows.size;
  }
}

/**
 * The key of a client address for per-address limits: an IPv4 address as it is, an IPv6 one by
 * its /64 prefix, the smallest block one subscriber is given: per single IPv6 address, one
 * client could spread its attempts over 2^64 of them. An IPv4-mapped IPv6 address is its IPv4.
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The per-address limit of the public pages (the booking page, the calendar feeds): they have no
 * caller but the client's address, and a refusal is a short 429 with `Retry-After` that each
 * surface renders its own way (an HTML page, a line of plain text).
 */
export async function registerPerAddressLimit(scope: FastifyInstance, perMinute: number): Promise<void> {
  await scope.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', 'Too many requests.', undefined, {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  });
}
