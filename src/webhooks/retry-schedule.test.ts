import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs } from './retry-schedule.js';

describe('retryDelayMs', () => {
  it('waits 5 s after the first failure, within ±10 % jitter', () => {
    expect(retryDelayMs(1, () => 0)).toBe(4500);
    expect(retryDelayMs(1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(1, () => 0.999_999)).toBeLessThanOrEqual(5500);
  });

  it('gives up after the tenth attempt', () => {
    expect(retryDelayMs(9, () => 0.5)).toBe(24 * 3600 * 1000);
    expect(retryDelayMs(10, () => 0.5)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:02:00 GMT', now)).toBe(120_000);
  });
  it('ignores garbage, clamps the past to now and the far future to 24 h', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999999', now)).toBe(24 * 3600 * 1000);
  });
});
