import { Counter } from 'prom-client';
import { registry } from '../platform/metrics/registry.js';
import { BoundedCache } from './bounded-cache.js';

const lookups = new Counter({
  name: 'kairos_slot_cache_lookups_total',
  help: 'Time-slot answer cache lookups, by result (hit, miss).',
  labelNames: ['result'] as const,
  registers: [registry],
});

const MINUTE_MS = 60_000;
/** Answers are 50-600 kB of JSON; the cache holds at most this many bytes of them. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Caches serialised time-slot answers, exactly.
 *
 * An answer depends on the store and on `now`. The store part: every unit of work that commits in
 * a workspace moves that workspace's availability version on (availability-invalidation.ts), and
 * an entry serves only while the version it was computed at is still current — on any process,
 * since the version lives in the database. The `now` part: grid instants, minimum notice and horizon are whole
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
    const hit = entry?.version === version;
    lookups.inc({ result: hit ? 'hit' : 'miss' });
    return hit ? entry.body : undefined;
  }

  set(key: string, version: string, body: Buffer): void {
    this.entries.set(key, { version, body });
  }
}

/** The minute whose answers `now` shares (see SlotsCache), or undefined on an exact minute. */
export function minuteBucket(now: number): number | undefined {
  return now % MINUTE_MS === 0 ? undefined : Math.ceil(now / MINUTE_MS);
}
