import type { Transaction } from 'kysely';
import { type Db, isRetryableConflict } from './client.js';
import type { DB } from './schema.js';

declare const txBrand: unique symbol;

/**
 * An open transaction of a unit of work. Branded, so a plain `Db` is a type error where a `Tx` is
 * asked for: a function that takes one (row locks, savepoints, writes that must commit together
 * with others) can only be called inside `UnitOfWork.run`. A `Tx` still is a `Db`, so every
 * read-only repository function takes it.
 */
export type Tx = Transaction<DB> & { readonly [txBrand]: true };

/** What must happen to cached answers once a workspace's data changed and committed. */
export interface CacheInvalidation {
  invalidate(workspaceIds: readonly string[]): Promise<void>;
}

/** An invalidation cached answers can check before they serve: each workspace's current version. */
export interface VersionedInvalidation extends CacheInvalidation {
  version(workspaceId: string): Promise<string>;
}

/** What a write runs on: its transaction, and the workspace it writes in. */
export type Work<T> = (tx: Tx) => Promise<T>;

/**
 * Every write goes through a unit of work: the change, its history entry, its outbox
 * events and the idempotency answer are written by `work` in one transaction, and once that
 * transaction committed the cached answers of the workspace are invalidated — whichever surface
 * (API, panel, widget, CLI, worker) called the service, since services are the ones that run it.
 *
 * `join` gives a unit of work that runs inside an already open transaction (the API's keyed
 * writes: the key, the service's change and the answer commit together); its writes are
 * invalidated when the outer unit commits.
 */
export class UnitOfWork {
  constructor(
    private readonly base: Db,
    private readonly invalidation: CacheInvalidation,
    private readonly outer?: { tx: Tx; touched: Set<string> },
  ) {}

  /** For reads a service makes before its write (inside a joined unit: its transaction). */
  get db(): Db {
    return this.outer?.tx ?? this.base;
  }

  /** Runs `work` in one transaction of the workspace; invalidates its caches after commit. */
  async run<T>(workspaceId: string | null, work: Work<T>): Promise<T> {
    if (this.outer) {
      if (workspaceId !== null) this.outer.touched.add(workspaceId);
      return work(this.outer.tx);
    }
    const touched = new Set<string>();
    if (workspaceId !== null) touched.add(workspaceId);
    const result = await retryingConflicts(() =>
      this.base.transaction().execute((transaction) => work(transaction as Tx)),
    );
    await this.invalidate(touched);
    return result;
  }

  /**
   * Like `run`, and `work` gets a unit of work of the same transaction to hand to services: what
   * they write commits with what `work` writes around them.
   */
  async runJoined<T>(workspaceId: string, work: (tx: Tx, unit: UnitOfWork) => Promise<T>): Promise<T> {
    if (this.outer) return this.run(workspaceId, (tx) => work(tx, this));
    const touched = new Set<string>([workspaceId]);
    const result = await retryingConflicts(() =>
      this.base.transaction().execute((transaction) => {
        const tx = transaction as Tx;
        return work(tx, new UnitOfWork(this.base, this.invalidation, { tx, touched }));
      }),
    );
    await this.invalidate(touched);
    return result;
  }

  private async invalidate(touched: Set<string>): Promise<void> {
    if (touched.size > 0) await this.invalidation.invalidate([...touched]);
  }
}

/** Attempts of a transaction the database ended as a deadlock or serialization failure. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs a whole transaction again when the database chose it as a deadlock's victim or failed it
 * to keep transactions serializable: nothing of it committed, and the same work most likely
 * succeeds a moment later (many creates of one group class contend for its seat row, and on a
 * distributed database for locks on several nodes). After a few short, jittered waits the
 * failure goes to the caller (409 "retry it"). A work function may therefore run more than once:
 * it only writes through its transaction.
 */
async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= CONFLICT_ATTEMPTS || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * tries));
    }
  }
}
