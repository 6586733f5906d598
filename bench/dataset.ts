import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Database } from '../src/platform/db/client.js';
import { loadWorkspaces, loadWritePath } from './dist.js';
import { prng, shuffle } from './random.js';

/**
 * The bench's data set (issue 6): 2 locations, 20 staffers, 10 services, 5,000 future bookings,
 * written straight into the store before the server starts (loading 5,000 bookings through the
 * API would take minutes on PGlite and measure nothing we report).
 *
 * Layout, chosen so that every row is valid and free slots are known without asking the engine:
 * - all 20 staffers work at location A (Europe/Berlin) every day 08:00-20:00 with a break
 *   13:00-14:00, so a time-slots request at A sees 20 staffers and all 5,000 busy spans — the
 *   shape of the slot-engine micro-bench (issue 3); location B (New York) offers the services but
 *   has no staff, so lists have two rows;
 * - each working day is 11 one-hour cells (08..12, 14..19); every booking fills one cell with its
 *   buffers (duration + buffers <= 60 min), 250 cells per staffer over 60 days;
 * - the free cells give the POST /bookings targets: service 0 (30 min, no buffers) at :00 and :30.
 */

export const BENCH_SLUG = 'bench';
export const ZONE_A = 'Europe/Berlin';
export const STAFFER_COUNT = 20;
export const BOOKING_COUNT = 5000;
export const BOOKED_DAYS = 60;
/** The workspace's booking horizon unless a bench asks for more: the default of migration 0001. */
const HORIZON_DAYS = 90;
const CELL_HOURS = [8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19];
const CUSTOMER_COUNT = 1000;

/** name, minutes, buffer before, buffer after, price (minor units); index 0 is the probe service. */
const SERVICES: [string, number, number, number, number][] = [
  ['Express Cut', 30, 0, 0, 2500],
  ['Haircut', 45, 0, 10, 4500],
  ['Colour', 45, 10, 5, 9500],
  ['Massage 60', 60, 0, 0, 7000],
  ['Facial', 50, 5, 5, 6500],
  ['Manicure', 45, 0, 0, 3500],
  ['Consultation', 30, 0, 15, 0],
  ['Beard Trim', 20, 0, 10, 1500],
  ['Massage 30', 30, 10, 10, 4000],
  ['Brow Shape', 15, 0, 0, 1200],
];

export interface FreeSlot {
  stafferId: string;
  /** UTC ISO instant, the `reserved_on` of a booking of service 0. */
  start: string;
}

export interface BenchDataset {
  slug: string;
  apiKey: string;
  locationA: string;
  locationB: string;
  serviceIds: string[];
  /** Service 0: 30 minutes, no buffers: the time-slots and POST /bookings service. */
  probeServiceId: string;
  stafferIds: string[];
  /** First booked local date at A; the time-slots ranges start here. */
  firstDate: string;
  /** Distinct free (staffer, start) pairs, shuffled; each may be booked exactly once. */
  freeSlots: FreeSlot[];
  bookings: number;
}

const WEEKLY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [{ from: '08:00', to: '20:00' }]]),
);
const BREAKS = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [{ from: '13:00', to: '14:00' }]]),
);

async function inBatches<T>(rows: T[], size: number, write: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/**
 * Creates the bench workspace and its data in an empty, migrated store. `now` anchors the dates.
 * `horizonDays` (default 90) is how far ahead it takes bookings: the free slots go on to it.
 */
export async function seedDataset(
  database: Database,
  now: number,
  options: { horizonDays?: number } = {},
): Promise<BenchDataset> {
  const horizonDays = options.horizonDays ?? HORIZON_DAYS;
  const { createWorkspace } = await loadWorkspaces();
  const { openWritePath } = await loadWritePath();
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: BENCH_SLUG,
    name: 'Bench Studio',
  });
  const workspace_id = workspace.id;
  const random = prng(20260610);
  const db = database.db;
  if (horizonDays !== HORIZON_DAYS) {
    await db
      .updateTable('workspaces')
      .set({ horizon_days: horizonDays })
      .where('id', '=', workspace_id)
      .execute();
  }

  const locationA = randomUUID();
  const locationB = randomUUID();
  await db
    .insertInto('locations')
    .values(
      [
        {
          workspace_id,
          id: locationA,
          name: 'Bench Berlin',
          city: 'Berlin',
          country_iso: 'DE',
          timezone: ZONE_A,
        },
        {
          workspace_id,
          id: locationB,
          name: 'Bench New York',
          city: 'New York',
          country_iso: 'US',
          timezone: 'America/New_York',
        },
      ].map((row) => ({ ...row, lat: null, lng: null, opening_hours: JSON.stringify(WEEKLY), images: '[]' })),
    )
    .execute();

  const serviceIds = SERVICES.map(() => randomUUID());
  await db
    .insertInto('services')
    .values(
      SERVICES.map(([name, duration, before, after, price], index) => ({
        workspace_id,
        id: serviceIds[index]!,
        category_id: null,
        name,
        price,
        duration_minutes: duration,
        buffer_before_minutes: before,
        buffer_after_minutes: after,
      })),
    )
    .execute();
  await db
    .insertInto('service_locations')
    .values(
      serviceIds.flatMap((service_id) =>
        [locationA, locationB].map((location_id) => ({ workspace_id, service_id, location_id })),
      ),
    )
    .execute();

  const stafferIds = Array.from({ length: STAFFER_COUNT }, () => randomUUID());
  // created_at ascending in list order: the engine's stable staffer order.
  await db
    .insertInto('staffers')
    .values(
      stafferIds.map((id, index) => ({
        workspace_id,
        id,
        first_name: `Staffer${index}`,
        last_name: 'Bench',
        avatar: null,
        created_at: new Date(now - (STAFFER_COUNT - index) * 1000),
      })),
    )
    .execute();
  await db
    .insertInto('staffer_services')
    .values(
      stafferIds.flatMap((staffer_id) =>
        serviceIds.map((service_id) => ({ workspace_id, staffer_id, location_id: locationA, service_id })),
      ),
    )
    .execute();
  await db
    .insertInto('schedules')
    .values(
      stafferIds.map((staffer_id) => ({
        workspace_id,
        staffer_id,
        location_id: locationA,
        weekly: JSON.stringify(WEEKLY),
        breaks: JSON.stringify(BREAKS),
        overrides: '[]',
      })),
    )
    .execute();

  const customers = Array.from({ length: CUSTOMER_COUNT }, (_, index) => ({
    workspace_id,
    id: randomUUID(),
    phone: `+49152${String(index).padStart(8, '0')}`,
    first_name: 'Seeded',
  }));
  const customerIds = customers.map((customer) => customer.id);
  await inBatches(customers, 500, (batch) => db.insertInto('customers').values(batch).execute());
  const status = await db
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspace_id)
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();

  // Two days ahead: clear of the minimum notice whatever the hour of the run.
  const firstDay = DateTime.fromMillis(now, { zone: ZONE_A }).startOf('day').plus({ days: 2 });
  const cellStart = (day: number, cell: number) =>
    firstDay.plus({ days: day }).set({ hour: CELL_HOURS[cell]!, minute: 0 }).toMillis();

  const occupancies: Record<string, unknown>[] = [];
  const bookings: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const freeSlots: FreeSlot[] = [];
  const cellsPerStaffer = BOOKING_COUNT / STAFFER_COUNT;
  const allCells = BOOKED_DAYS * CELL_HOURS.length;
  stafferIds.forEach((staffer_id, s) => {
    const cells = shuffle(
      Array.from({ length: allCells }, (_, i) => i),
      random,
    );
    cells.forEach((cellIndex, rank) => {
      const day = Math.floor(cellIndex / CELL_HOURS.length);
      const start = cellStart(day, cellIndex % CELL_HOURS.length);
      if (rank >= cellsPerStaffer) {
        freeSlots.push({ stafferId: staffer_id, start: new Date(start).toISOString() });
        freeSlots.push({ stafferId: staffer_id, start: new Date(start + 30 * 60_000).toISOString() });
        return;
      }
      const serviceIndex = Math.floor(random() * SERVICES.length);
      const [name, duration, before, after, price] = SERVICES[serviceIndex]!;
      const serviceStart = start + before * 60_000;
      const occupancyId = randomUUID();
      const bookingId = randomUUID();
      occupancies.push({
        workspace_id,
        id: occupancyId,
        staffer_id,
        location_id: locationA,
        service_id: serviceIds[serviceIndex],
        service_start: new Date(serviceStart),
        span: `[${new Date(start).toISOString()},${new Date(serviceStart + (duration + after) * 60_000).toISOString()})`,
        capacity: 1,
        seats_taken: 1,
      });
      bookings.push({
        workspace_id,
        id: bookingId,
        location_id: locationA,
        staffer_id,
        customer_id: customerIds[(s * cellsPerStaffer + rank) % CUSTOMER_COUNT],
        status_id: status.id,
        occupancy_id: occupancyId,
        start_time: new Date(serviceStart),
        end_time: new Date(serviceStart + duration * 60_000),
        source: 'bench-seed',
      });
      lines.push({
        workspace_id,
        booking_id: bookingId,
        service_id: serviceIds[serviceIndex],
        name,
        price,
        original_price: price,
        duration_minutes: duration,
      });
    });
  });
  // The days after the booked ones, up to the booking horizon, are free: their slots come after
  // all the others, so a bench that books many (the mail bench on PostgreSQL books ~40,000, with
  // a horizon of a year) runs on after the booked days' free slots, and one that books fewer
  // never reaches them.
  const laterSlots: FreeSlot[] = [];
  for (let day = BOOKED_DAYS; day < horizonDays - 3; day++) {
    for (let cell = 0; cell < CELL_HOURS.length; cell++) {
      const start = cellStart(day, cell);
      for (const staffer_id of stafferIds) {
        laterSlots.push({ stafferId: staffer_id, start: new Date(start).toISOString() });
        laterSlots.push({ stafferId: staffer_id, start: new Date(start + 30 * 60_000).toISOString() });
      }
    }
  }
  // biome-ignore lint/suspicious/noExplicitAny: rows built above match the tables; Kysely's insert types are too strict for a generic batcher
  const insert = (table: 'occupancies' | 'bookings' | 'booking_services', rows: any[]) =>
    inBatches(rows, 500, (batch) => db.insertInto(table).values(batch).execute());
  await insert('occupancies', occupancies);
  await insert('bookings', bookings);
  await insert('booking_services', lines);
  // A store that has been in use has planner statistics; a freshly loaded one must get them.
  await sql`ANALYZE`.execute(db);

  return {
    slug: BENCH_SLUG,
    apiKey: apiKey.secret,
    locationA,
    locationB,
    serviceIds,
    probeServiceId: serviceIds[0]!,
    stafferIds,
    firstDate: firstDay.toISODate()!,
    freeSlots: [...shuffle(freeSlots, random), ...shuffle(laterSlots, random)],
    bookings: bookings.length,
  };
}
