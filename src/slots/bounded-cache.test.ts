import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

const bytes = (n: number) => Buffer.alloc(n);

describe('BoundedCache', () => {
  it('holds at most its capacity in bytes, whatever the number of entries', () => {
    const cache = new BoundedCache<Buffer>(1_000, (value) => value.length);
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, bytes(200));
    expect(cache.calculatedSize).toBeLessThanOrEqual(1_000);
    expect(cache.size).toBe(5);
    // Many small entries fit where few large ones did.
    for (let i = 0; i < 50; i++) cache.set(`s${i}`, bytes(10));
    expect(cache.calculatedSize).toBeLessThanOrEqual(1_000);
    expect(cache.size).toBe(50 + 2);
  });

  it('drops the least recently used entry first', () => {
    const cache = new BoundedCache<Buffer>(1_000, (value) => value.length);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, bytes(250));
    cache.get('a');
    cache.set('e', bytes(250));
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd', 'e']);
  });

  it('does not hold a value larger than a quarter of its capacity, and keeps the rest', () => {
    const cache = new BoundedCache<Buffer>(1_000, (value) => value.length);
    cache.set('small', bytes(100));
    cache.set('huge', bytes(251));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')?.length).toBe(100);
  });

  it('replacing a key counts only its new size', () => {
    const cache = new BoundedCache<Buffer>(1_000, (value) => value.length);
    cache.set('k', bytes(200));
    cache.set('k', bytes(50));
    expect(cache.calculatedSize).toBe(50);
  });
});
