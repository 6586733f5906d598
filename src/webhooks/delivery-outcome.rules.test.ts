import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, failingHealth } from './delivery-outcome.rules.js';
import type { SendResult } from './http-sender.js';

const now = Date.parse('2030-03-10T12:00:00Z');
const HOUR = 3_600_000;
const result = (statusCode: number | null, retryAfter?: string): SendResult => ({
  ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
  statusCode,
  durationMs: 12,
  error: statusCode === null ? 'connection refused' : null,
  retryAfter,
});
const half = () => 0.5;

describe('decide', () => {
  it.each([
    ['a 2xx succeeds', result(204), 1, { state: 'succeeded', nextAttemptAt: null }],
    ['a 410 fails at once, whatever the attempt', result(410), 1, { state: 'failed', nextAttemptAt: null }],
    [
      'a 500 on the first attempt retries in 5 s',
      result(500),
      1,
      { state: 'pending', nextAttemptAt: now + 5_000 },
    ],
    [
      'no answer on the first attempt retries in 5 s',
      result(null),
      1,
      { state: 'pending', nextAttemptAt: now + 5_000 },
    ],
    [
      'a 503 waits for its Retry-After',
      result(503, '120'),
      1,
      { state: 'pending', nextAttemptAt: now + 120_000 },
    ],
    [
      'a 429 waits for its Retry-After',
      result(429, '60'),
      2,
      { state: 'pending', nextAttemptAt: now + 60_000 },
    ],
    ['a 500 ignores a Retry-After', result(500, '120'), 1, { state: 'pending', nextAttemptAt: now + 5_000 }],
    ['the tenth failure gives up', result(500), 10, { state: 'failed', nextAttemptAt: null }],
    [
      'the tenth 503 gives up despite its Retry-After',
      result(503, '1'),
      10,
      { state: 'failed', nextAttemptAt: null },
    ],
  ] as const)('%s', (_, sent, attempt, expected) => {
    expect(decide(attempt, sent, now, half)).toEqual(expected);
  });
});

describe('failingHealth', () => {
  const enabled = (failingSince: number | null) => ({
    enabled: true,
    failing_since: failingSince === null ? null : new Date(failingSince),
  });

  it.each([
    [
      'a first failure starts the streak now',
      enabled(null),
      result(500),
      { failingSince: now, disable: null },
    ],
    [
      'a running streak keeps its start',
      enabled(now - 5 * HOUR),
      result(500),
      { failingSince: now - 5 * HOUR, disable: null },
    ],
    ['a 410 disables at once', enabled(null), result(410), { failingSince: now, disable: 'gone' }],
    [
      'three days of failing disable',
      enabled(now - 72 * HOUR),
      result(500),
      { failingSince: now - 72 * HOUR, disable: 'failing' },
    ],
    [
      'just under three days do not',
      enabled(now - 72 * HOUR + 1),
      result(500),
      { failingSince: now - 72 * HOUR + 1, disable: null },
    ],
    [
      'a 410 after three days says gone',
      enabled(now - 80 * HOUR),
      result(410),
      { failingSince: now - 80 * HOUR, disable: 'gone' },
    ],
    [
      'a webhook already disabled is not disabled again',
      { enabled: false, failing_since: new Date(now - 80 * HOUR) },
      result(410),
      { failingSince: now - 80 * HOUR, disable: null },
    ],
  ] as const)('%s', (_, webhook, sent, expected) => {
    expect(failingHealth(webhook, sent, now)).toEqual(expected);
  });

  it('never moves a running streak and disables an enabled webhook exactly from three days on', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * 24 * HOUR }),
        fc.constantFrom(500, 503, 429, null),
        (ago, code) => {
          const health = failingHealth(enabled(now - ago), result(code), now);
          expect(health.failingSince).toBe(now - ago);
          expect(health.disable).toBe(ago >= 72 * HOUR ? 'failing' : null);
        },
      ),
    );
  });
});
