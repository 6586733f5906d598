import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Db } from '../db/client.js';
import type { UnitOfWork, VersionedInvalidation } from '../db/unit-of-work.js';

/** A Fastify instance whose route schemas type the handlers (TypeBox). */
export type ApiApp = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** What route modules get: the store, the write path, the clock, the config. */
export interface AppDeps {
  database: Database;
  /** For reads; every write goes through `uow`. */
  db: Db;
  uow: UnitOfWork;
  /** What cached slot answers check before they serve (src/slots/availability-invalidation.ts). */
  availability: VersionedInvalidation;
  clock: Clock;
  config: Config;
  /**
   * The base of absolute links (src/config.ts publicBaseUrl): PUBLIC_URL, else the address this
   * app listens on once it listens (its real port when PORT=0).
   */
  linkBase(): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** PUBLIC_URL without a trailing slash, or undefined: the base of absolute links (never `Host`). */
    publicUrl: string | undefined;
  }
  interface FastifyContextConfig {
    /** true = no API key needed (OpenAPI document). */
    public?: boolean;
  }
}
