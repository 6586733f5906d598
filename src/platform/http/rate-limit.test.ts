import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../test/helpers/clock.js';
import { addressKey, FAILURE_LIMIT_MAX_KEYS, FailureLimit } from './rate-limit.js';

describe('FailureLimit', () => {
  it('refuses once max failures fall in one window, and forgets them when it ends', () => {
    const clock = new FixedClock('2026-09-01T08:00:00Z');
    const limit = new FailureLimit({ max: 3, windowMs: 10_000, clock });
    for (let i = 0; i < 3; i++) {
      expect(limit.retryAfter('a')).toBe(0);
      limit.record('a');
    }
    expect(limit.retryAfter('a')).toBe(10);
    expect(limit.retryAfter('b')).toBe(0);
    clock.advance(9_001);
    expect(limit.retryAfter('a')).toBe(1);
    clock.advance(999);
    expect(limit.retryAfter('a')).toBe(0);
    limit.record('a');
    expect(limit.retryAfter('a')).toBe(0);
  });

  it('never holds more than maxKeys addresses, whatever a flood sends', () => {
    const limit = new FailureLimit({ max: 1, windowMs: 60_000, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) limit.record(`10.0.${i >> 8}.${i & 255}`);
    expect(limit.size).toBe(100);
    // The most recent ones are the ones kept.
    expect(limit.retryAfter('10.0.39.15')).toBeGreaterThan(0);
    expect(limit.retryAfter('10.0.0.0')).toBe(0);
    const byDefault = new FailureLimit({ max: 1, windowMs: 60_000 });
    for (let i = 0; i < FAILURE_LIMIT_MAX_KEYS + 500; i++) byDefault.record(String(i));
    expect(byDefault.size).toBe(FAILURE_LIMIT_MAX_KEYS);
  });

  it('is off at max 0', () => {
    const limit = new FailureLimit({ max: 0, windowMs: 60_000 });
    for (let i = 0; i < 100; i++) limit.record('a');
    expect(limit.retryAfter('a')).toBe(0);
    expect(limit.size).toBe(0);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and groups IPv6 by /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
