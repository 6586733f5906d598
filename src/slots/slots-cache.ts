import { sql } from 'kysely';
import type { Db } from '../db/client.js';

const MINUTE_MS = 60_000;
const MAX_ENTRIES = 500;

/**
 * Caches serialised time-slot answers, exactly.
 *
 * An answer depends on the store and on `now`. The store part: every successful write request
 * bumps the `availability_version` sequence after its transaction committed, and an entry serves
 * only while the version it was computed at is still current — on any process, since the version
 * lives in the database. The `now` part: grid instants, minimum notice and horizon are whole
 * minutes, and interval starts are shown to the minute, so for every `now` strictly inside one
 * minute (m - 60 s, m) the answer is the same; an entry is keyed by that minute and a `now` on an
 * exact minute is never served from or stored in the cache.
 */
export class SlotsCache {
  private readonly entries = new Map<string, { version: string; body: string }>();

  /** The key of a request at `now`, or undefined when this instant must be computed afresh. */
  keyOf(parts: (string | undefined)[], now: number): string | undefined {
    if (now % MINUTE_MS === 0) return undefined;
    return `${Math.ceil(now / MINUTE_MS)}|${parts.map((part) => part ?? '').join('|')}`;
  }

  get(key: string, version: string): string | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.body : undefined;
  }

  set(key: string, version: string, body: string): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { version, body });
  }
}

export async function currentAvailabilityVersion(db: Db): Promise<string> {
  // is_called too: a fresh sequence's first nextval leaves last_value at 1 and only sets is_called.
  const { rows } = await sql<{ last_value: string | number; is_called: boolean }>`
    SELECT last_value, is_called FROM availability_version`.execute(db);
  return `${rows[0]!.last_value}${rows[0]!.is_called ? '' : '-'}`;
}

/** Call after a write committed (never inside its transaction: readers must see the data first). */
export async function bumpAvailabilityVersion(db: Db): Promise<void> {
  await sql`SELECT nextval('availability_version')`.execute(db);
}
