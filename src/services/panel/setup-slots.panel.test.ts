import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingFixture, bookingFixture } from '../../../test/helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

/**
 * The slot answers change at once after a setup change made in the panel. Each
 * case first shows that the answer is cached (a change written straight into the store, behind
 * every service, does not show), then makes one change through the panel: the very next answer
 * must follow it, so the panel's write invalidated the cache.
 */

// Half a minute past: answers may be cached (an exact minute never is).
const clock = new FixedClock('2026-09-01T08:00:30Z');
const DAY = '2026-09-10';
let t: TestApp;
let f: BookingFixture;
let owner: PanelClient;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  f = await bookingFixture(t);
  owner = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
});
afterAll(() => t.close());

async function slots(serviceId: string) {
  const answer = await t.call(
    'GET',
    `/locations/${f.location.id}/time-slots?service_uuid=${serviceId}&range_start=${DAY}&range_end=${DAY}`,
  );
  if (answer.statusCode !== 200) return { status: answer.statusCode, slots: [] as string[] };
  const day = answer.json().dates[0] as { slots: { start: string; end: string }[] };
  return { status: 200, slots: day.slots.map((slot) => `${slot.start}-${slot.end}`) };
}

const serviceForm = (duration: string) => ({
  category: '',
  name: 'Haircut',
  description: '',
  duration_minutes: duration,
  price: '90.00',
  capacity: '1',
  buffer_before_minutes: '0',
  buffer_after_minutes: '0',
  location_uuids: [f.location.id],
});

describe('a setup change in the panel changes the slot answers at once', () => {
  it('a service’s duration, then its archiving', async () => {
    const before = await slots(f.haircut.id);
    expect(before.slots[0]).toBe('09:00-10:00');
    expect(before.slots).toContain('16:00-17:00');

    // Behind every service: the cached answer does not show it.
    await t.db
      .updateTable('services')
      .set({ duration_minutes: 120 })
      .where('id', '=', f.haircut.id)
      .execute();
    expect((await slots(f.haircut.id)).slots, 'the repeat is served from the cache').toEqual(before.slots);

    await owner.get(`/panel/setup/services/${f.haircut.id}`);
    const saved = await owner.post(`/panel/setup/services/${f.haircut.id}`, serviceForm('90'));
    expect(saved.statusCode, saved.body).toBe(303);
    const after = await slots(f.haircut.id);
    expect(after.slots[0]).toBe('09:00-10:30');
    expect(after.slots).toContain('15:30-17:00');
    expect(after.slots).not.toContain('16:00-17:00');

    const archived = await owner.post(`/panel/setup/services/${f.haircut.id}/archive`);
    expect(archived.statusCode).toBe(303);
    const gone = await slots(f.haircut.id);
    expect(gone.status === 200 ? gone.slots : []).toEqual([]);
  });

  it('the workspace’s slot step, set in Settings → Workspace', async () => {
    const before = await slots(f.color.id);
    expect(before.slots.slice(0, 2)).toEqual(['09:00-09:30', '09:15-09:45']);

    await t.db
      .updateTable('workspaces')
      .set({ slot_step_minutes: 60 })
      .where('id', '=', t.workspace.id)
      .execute();
    expect((await slots(f.color.id)).slots, 'the repeat is served from the cache').toEqual(before.slots);

    await owner.get('/panel/settings/workspace');
    const saved = await owner.post('/panel/settings/workspace', { slot_step_minutes: '30' });
    expect(saved.statusCode, saved.body).toBe(303);
    expect((await slots(f.color.id)).slots.slice(0, 2)).toEqual(['09:00-09:30', '09:30-10:00']);
  });

  it('a location’s archiving', async () => {
    expect((await slots(f.yoga.id)).slots.length).toBeGreaterThan(0);
    await owner.get(`/panel/setup/locations/${f.location.id}`);
    expect((await owner.post(`/panel/setup/locations/${f.location.id}/archive`)).statusCode).toBe(303);
    expect((await slots(f.yoga.id)).status).toBe(404);
  });
});
