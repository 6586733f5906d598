import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './retry-schedule.js';

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
