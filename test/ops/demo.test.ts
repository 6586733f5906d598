import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/platform/time/zone.js';
import { validateSchedule } from '../../src/schedules/schedules.rules.js';
import { seedDemoWorkspace } from '../../src/workspaces/demo.service.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

// A Monday morning in Berlin; the demo's date overrides are relative to this `now`.
const NOW = '2026-03-02T07:00:00Z';
const TODAY = '2026-03-02';

interface Location {
  uuid: string;
  name: string;
  timezone: { name: string };
  address: { city: string; formatted: string };
  opening_hours: { days: Record<string, unknown[]> };
}
interface Service {
  uuid: string;
  name: string;
  price: number;
  capacity: number;
  duration: { value: number };
}
interface SlotDay {
  date: string;
  slots: { quantity: number }[];
}

let t: TestApp;
let locations: Location[];
const servicesAt = new Map<string, Service[]>();

const get = async (path: string) => {
  const response = await t.call('GET', path);
  expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
  return response.json();
};
const slotDays = async (location: Location, service: Service, start: string, end: string) =>
  (
    await get(
      `/locations/${location.uuid}/time-slots?service_uuid=${service.uuid}&range_start=${start}&range_end=${end}`,
    )
  ).dates as SlotDay[];
const byName = (name: string) => locations.find((location) => location.name === name)!;

beforeAll(async () => {
  const clock = new FixedClock(NOW);
  t = await buildTestApp({ clock });
  await t.db.transaction().execute((tx) => seedDemoWorkspace(tx, t.workspace, clock.now()));
  locations = (await get('/locations')).data;
  for (const location of locations) {
    servicesAt.set(location.uuid, (await get(`/locations/${location.uuid}/services?per_page=100`)).data);
  }
});
afterAll(() => t?.close());

describe('the demo workspace', () => {
  it('has the Berlin and New York studios with addresses, zones and opening hours', () => {
    expect(locations.map((l) => [l.name, l.timezone.name]).sort()).toEqual([
      ['Kairos Studio Berlin', 'Europe/Berlin'],
      ['Kairos Studio New York', 'America/New_York'],
    ]);
    for (const location of locations) {
      expect(location.address.city).not.toBe('');
      expect(location.address.formatted).not.toBe('');
      expect(Object.keys(location.opening_hours.days).length).toBeGreaterThanOrEqual(5);
    }
  });

  it('offers at least six services at both locations, 30 to 90 minutes, one a group class of 8', () => {
    const [first, second] = [...servicesAt.values()];
    expect(first!.length).toBeGreaterThanOrEqual(6);
    expect(second!.map((s) => s.uuid).sort()).toEqual(first!.map((s) => s.uuid).sort());
    const durations = new Set(first!.map((s) => s.duration.value));
    for (const minutes of [30, 45, 60, 90]) expect(durations).toContain(minutes);
    expect(first!.filter((s) => s.capacity === 8)).toHaveLength(1);
    for (const service of first!) expect(Number.isInteger(service.price)).toBe(true);
  });

  it('has at least five staffers, each with a schedule', async () => {
    const staffers = new Set<string>();
    for (const location of locations) {
      const list = (await get(`/locations/${location.uuid}/staffers?per_page=100`)).data as {
        uuid: string;
      }[];
      expect(list.length).toBeGreaterThanOrEqual(2);
      for (const staffer of list) staffers.add(staffer.uuid);
    }
    expect(staffers.size).toBeGreaterThanOrEqual(5);
    const schedules = await t.db
      .selectFrom('schedules')
      .select(['staffer_id', 'weekly', 'breaks', 'overrides'])
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect(new Set(schedules.map((s) => s.staffer_id))).toEqual(staffers);
    // The demo obeys the rules the schedules API enforces.
    for (const { weekly, breaks, overrides } of schedules) {
      expect(validateSchedule({ weekly, breaks, overrides })).toMatchObject({ ok: true });
    }
    // Varied: some split shifts, some breaks, different days off.
    expect(schedules.some((s) => Object.values(s.weekly).some((day) => (day?.length ?? 0) > 1))).toBe(true);
    expect(schedules.some((s) => Object.keys(s.breaks).length > 0)).toBe(true);
    expect(new Set(schedules.map((s) => Object.keys(s.weekly).sort().join())).size).toBeGreaterThan(2);
  });

  it('has two payment accounts per location and the default statuses', async () => {
    for (const location of locations) {
      const accounts = (await get(`/locations/${location.uuid}/accounts`)).data as { type: string }[];
      expect(accounts.map((a) => a.type).sort()).toEqual(['card', 'cash']);
    }
    const statuses = (await get('/bookings/statuses')).data as { type: string }[];
    expect(statuses.map((s) => s.type).sort()).toEqual(['canceled', 'completed', 'confirmed', 'new']);
  });

  it('requires at least one booking-form field', async () => {
    const form = (await get('/workspace')).data.booking_form as Record<string, string>;
    expect(Object.values(form)).toContain('required');
  });

  it('has free slots in the coming week for every service at every location', async () => {
    for (const location of locations) {
      for (const service of servicesAt.get(location.uuid)!) {
        const days = await slotDays(location, service, TODAY, addDays(TODAY, 6));
        const open = days.filter((day) => day.slots.length > 0);
        expect(open.length, `${service.name} at ${location.name}`).toBeGreaterThanOrEqual(2);
        if (service.capacity === 8) expect(open[0]!.slots[0]!.quantity).toBe(8);
      }
    }
  });

  it('places its date overrides relative to now: a day off in Berlin, an extra Sunday in New York', async () => {
    const haircut = (location: Location) =>
      servicesAt.get(location.uuid)!.find((s) => s.name === 'Haircut & Styling')!;
    const berlin = byName('Kairos Studio Berlin');
    // The Berlin stylist works Wednesdays and Thursdays, except the day off ten days from now.
    const [wednesday, thursday] = await slotDays(
      berlin,
      haircut(berlin),
      addDays(TODAY, 9),
      addDays(TODAY, 10),
    );
    expect(wednesday!.slots.length).toBeGreaterThan(0);
    expect(thursday!.slots).toEqual([]);
    // The New York stylist has Sundays off, but covers the Sunday of next week.
    const newYork = byName('Kairos Studio New York');
    const [thisSunday, nextSunday] = await Promise.all(
      [addDays(TODAY, 6), addDays(TODAY, 13)].map(
        async (date) => (await slotDays(newYork, haircut(newYork), date, date))[0]!,
      ),
    );
    expect(thisSunday!.slots).toEqual([]);
    expect(nextSunday!.slots.length).toBeGreaterThan(0);
  });
});
