import { type InvalidationBus, MemoryBus } from './invalidation-bus.js';
import { PostgresBus } from './postgres-bus.js';

export interface BusConfig {
  /** REDIS_URL: Redis pub/sub when set. */
  redisUrl?: string | undefined;
  /** DATABASE_URL: LISTEN/NOTIFY on that PostgreSQL when there is no REDIS_URL. */
  databaseUrl?: string | undefined;
  channel?: string;
  onError?: (error: unknown) => void;
}

/**
 * The bus an installation uses: Redis with REDIS_URL, else LISTEN/NOTIFY on a PostgreSQL server,
 * else (embedded PGlite: one process) in-process. Redis is loaded only when chosen.
 */
export async function openInvalidationBus(config: BusConfig): Promise<InvalidationBus> {
  const common = {
    ...(config.channel ? { channel: config.channel } : {}),
    ...(config.onError ? { onError: config.onError } : {}),
  };
  let bus: InvalidationBus;
  if (config.redisUrl) {
    const { RedisBus } = await import('./redis-bus.js');
    bus = new RedisBus({ url: config.redisUrl, ...common });
  } else if (config.databaseUrl) {
    bus = new PostgresBus({ connectionString: config.databaseUrl, ...common });
  } else {
    bus = new MemoryBus();
  }
  await bus.ready();
  return bus;
}

/**
 * The bus a process of this installation uses (docs/operations/scale-out.md): none with
 * INVALIDATION_BUS=off (cached answers read their version from the store), Redis with REDIS_URL,
 * LISTEN/NOTIFY on a PostgreSQL server, and in-process on the embedded store (one process owns it).
 */
export async function openConfiguredBus(
  config: {
    invalidationBus: 'auto' | 'off';
    invalidationChannel: string;
    redisUrl: string | undefined;
    databaseUrl: string | undefined;
  },
  onError?: (error: unknown) => void,
): Promise<InvalidationBus | undefined> {
  if (config.invalidationBus === 'off') return undefined;
  return openInvalidationBus({
    redisUrl: config.redisUrl,
    databaseUrl: config.databaseUrl,
    channel: config.invalidationChannel,
    ...(onError ? { onError } : {}),
  });
}
