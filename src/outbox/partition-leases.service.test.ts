import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { PartitionLeases } from './partition-leases.service.js';
import { PARTITION_COUNT } from './partitions.js';

let t: TestApp;
const clock = new FixedClock(new Date().toISOString());
beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});

describe('PartitionLeases', () => {
  it('gives two workers of one process that ask at once the same full set (one renewal, not two racing)', async () => {
    const leases = new PartitionLeases(t.db, clock, 'probe-worker-a');
    // The webhook and the mail worker of one process start together.
    const [webhooks, mail] = await Promise.all([leases.current(), leases.current()]);
    expect(webhooks).toHaveLength(PARTITION_COUNT);
    expect(mail).toEqual(webhooks);
    expect(await leases.current()).toEqual(webhooks);
    await leases.release();
  });

  it('renews again once a third of the lease has passed, keeping what it holds', async () => {
    const leases = new PartitionLeases(t.db, clock, 'probe-worker-b', 30_000);
    const first = await leases.current();
    clock.advance(10_001);
    const [again, meanwhile] = await Promise.all([leases.current(), leases.current()]);
    expect(again).toEqual(first);
    expect(meanwhile).toEqual(first);
    await leases.release();
  });
});
