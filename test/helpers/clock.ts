import type { Clock } from '../../src/platform/http/types.js';

/** A clock tests set by hand: slot and booking rules read `now` only through it. */
export class FixedClock implements Clock {
  private current: number;
  constructor(iso: string) {
    this.current = Date.parse(iso);
  }
  now(): number {
    return this.current;
  }
  set(iso: string): void {
    this.current = Date.parse(iso);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
