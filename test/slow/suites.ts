/**
 * The process-level suites: each starts built servers, workers or CLI runs as child processes,
 * kills them, or drains thousands of events, and takes from twenty seconds to two minutes. They
 * run in `npm run test:slow` (CI runs it on every store), so that `npm test` stays the quick
 * check a newcomer runs after each edit. A suite joins this list when it spends its time waiting
 * on other processes, not when it is merely a little slow.
 */
export const SLOW_SUITES = [
  'test/ops/embedded-processes.test.ts',
  'test/ops/drain.test.ts',
  'test/scale/outbox-partitions.test.ts',
  'test/concurrency/crash-replay.test.ts',
  'test/e2e/mail-durability.test.ts',
  'test/e2e/webhook-durability.test.ts',
  'test/e2e/text-durability.test.ts',
  'test/e2e/payment-durability.test.ts',
  'test/hardening/fuzz.test.ts',
];
