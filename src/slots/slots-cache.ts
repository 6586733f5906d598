import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { BoundedCache } from './bounded-cache.js';

const MINUTE_MS = 60_000;
/** Answers are 50-600 kB of JSON; the cache holds at most this many bytes of them. */
const MAX_BYTES = 16 * 1024 * 1024;

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
  // Answers are held as UTF-8 bytes: the bound is exact whatever the characters ("€").
  private readonly entries = new BoundedCache<{ version: string; body: Buffer }>(
    MAX_BYTES,
    (entry) => entry.body.length,
  );

  /** The key of a request at `now`, or undefined when this instant must be computed afresh. */
  keyOf(parts: (string | undefined)[], now: number): string | undefined {
    const minute = minuteBucket(now);
    if (minute === undefined) return undefined;
    return `${minute}|${parts.map((part) => part ?? '').join('|')}`;
  }

  get(key: string, version: string): Buffer | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.body : undefined;
  }

  set(key: string, version: string, body: Buffer): void {
    this.entries.set(key, { version, body });
  }
}

/** The minute whose answers `now` shares (see SlotsCache), or undefined on an exact minute. */
export function minuteBucket(now: number): number | undefined {
  return now % MINUTE_MS === 0 ? undefined : Math.ceil(now / MINUTE_MS);
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
