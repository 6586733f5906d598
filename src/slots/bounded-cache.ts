import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used map that holds at most `capacity` units (bytes, numbers: whatever
 * `sizeOf` counts) of values; lru-cache does the bookkeeping. A value larger than a quarter of
 * the capacity is not held: it would push out too much for one entry.
 */
export class BoundedCache<V extends object> extends LRUCache<string, V> {
  constructor(capacity: number, sizeOf: (value: V) => number) {
    super({
      maxSize: capacity,
      maxEntrySize: capacity / 4,
      // lru-cache wants a positive integer; an empty value still costs its entry.
      sizeCalculation: (value) => Math.max(1, Math.ceil(sizeOf(value))),
    });
  }
}
