/**
 * A map that holds at most `capacity` units (bytes, numbers: whatever `sizeOf` counts) of
 * values, dropping the oldest first (a Map iterates in insertion order). A value larger than a
 * quarter of the capacity is not held: it would push out too much for one entry.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private held = 0;

  constructor(
    private readonly capacity: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.capacity / 4) return;
    this.delete(key);
    for (const [oldest] of this.entries) {
      if (this.held + size <= this.capacity) break;
      this.delete(oldest);
    }
    this.entries.set(key, { value, size });
    this.held += size;
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.size;
  }
}
