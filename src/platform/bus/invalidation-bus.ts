/**
 * Cache invalidation between processes (docs/operations/scale-out.md): a message says "workspace X
 * changed", so every process drops what it cached for X — and nothing else. Three transports
 * behind one interface: in-process (embedded PGlite: one process owns the store), PostgreSQL
 * LISTEN/NOTIFY (the default on a server), Redis pub/sub (with REDIS_URL; the one that works
 * behind PgBouncer in transaction mode, which cannot LISTEN).
 *
 * A bus is a fast path, not the guarantee: messages sent while a listener is reconnecting are
 * lost, so a listener is told `undefined` ("anything may have changed") after every reconnect,
 * and caches also expire after CACHE_BACKSTOP_TTL_MS. A stale cached answer can never book a
 * taken slot either way: the database decides each booking (docs/decisions/0003-double-booking.md).
 */

/** A changed workspace's id, or undefined: messages may have been missed, drop everything. */
export type Invalidation = string | undefined;
export type InvalidationListener = (workspaceId: Invalidation) => void;

/** How long a cached answer may live even if no message arrives (the bus's backstop). */
export const CACHE_BACKSTOP_TTL_MS = 5_000;

/** The channel every Kairos process of one installation shares. */
export const DEFAULT_CHANNEL = 'kairos_invalidation';

export interface InvalidationBus {
  readonly kind: 'memory' | 'postgres' | 'redis';
  /** Tells every process, this one included, that the workspace changed. Never rejects. */
  publish(workspaceId: string): Promise<void>;
  /** Calls `listener` for each message from any process; answers the unsubscribe function. */
  subscribe(listener: InvalidationListener): () => void;
  /** Resolves once the bus listens (messages published after this reach it). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Shared listener bookkeeping for the transports. */
export class Listeners {
  private readonly listeners = new Set<InvalidationListener>();

  add(listener: InvalidationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(workspaceId: Invalidation): void {
    for (const listener of this.listeners) {
      try {
        listener(workspaceId);
      } catch {
        // One listener's failure must not keep the message from the others.
      }
    }
  }
}

/** Only a workspace id (a uuid) travels; anything else on the channel is ignored. */
export function parseMessage(payload: string | undefined): string | undefined {
  return payload && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(payload)
    ? payload.toLowerCase()
    : undefined;
}

/** One process, one store (PGlite): a message goes straight to this process's listeners. */
export class MemoryBus implements InvalidationBus {
  readonly kind = 'memory' as const;
  private readonly listeners = new Listeners();

  async publish(workspaceId: string): Promise<void> {
    this.listeners.emit(workspaceId);
  }

  subscribe(listener: InvalidationListener): () => void {
    return this.listeners.add(listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {}
}

/**
 * The shape the unit of work's "workspace X changed" hook wants: call it after a write committed
 * (never inside the transaction: a reader notified early would cache the old data again).
 */
export function workspaceChangedNotifier(bus: InvalidationBus): (workspaceId: string) => void {
  return (workspaceId) => {
    void bus.publish(workspaceId);
  };
}

/**
 * Wires a bus to a cache: `dropWorkspace` for a message about one workspace, `dropAll` after a
 * reconnect (messages may have been missed). Answers the unsubscribe function.
 */
export function invalidateOnMessage(
  bus: InvalidationBus,
  cache: { dropWorkspace(workspaceId: string): void; dropAll(): void },
): () => void {
  return bus.subscribe((workspaceId) => {
    if (workspaceId === undefined) cache.dropAll();
    else cache.dropWorkspace(workspaceId);
  });
}
