import type { Db } from '../../src/platform/db/client.js';
import type { OverrideJson, PaymentAccountType, WeeklyJson } from '../../src/platform/db/schema.js';

/** Test data straight into the store (no HTTP), with sensible defaults each test may override. */

// Lists are in creation order: created_at, ties broken by insertion order (the integer identity)
// or, for tables without one, by name (docs/decisions/0002). PGlite's clock has millisecond
// resolution, and rows inserted here, without a request in between, can share a millisecond; so
// each row made here gets its own millisecond, the clock's own unless an earlier row took it, and
// tests read the order they made without depending on a tie-break.
let lastCreatedAt = 0;
const createdAt = () => {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return new Date(lastCreatedAt);
};

export async function createLocation(
  db: Db,
  workspaceId: string,
  values: { name?: string; timezone?: string } = {},
): Promise<{ id: string; timezone: string }> {
  return db
    .insertInto('locations')
    .values({
      created_at: createdAt(),
      workspace_id: workspaceId,
      name: values.name ?? 'Main branch',
      timezone: values.timezone ?? 'Europe/Berlin',
      lat: null,
      lng: null,
      city: 'Berlin',
    })
    .returning(['id', 'timezone'])
    .executeTakeFirstOrThrow();
}

export async function createService(
  db: Db,
  workspaceId: string,
  locationIds: string[],
  values: {
    name?: string;
    price?: number;
    durationMinutes?: number;
    capacity?: number;
    bufferBeforeMinutes?: number;
    bufferAfterMinutes?: number;
  } = {},
): Promise<{ id: string }> {
  const service = await db
    .insertInto('services')
    .values({
      created_at: createdAt(),
      workspace_id: workspaceId,
      category_id: null,
      name: values.name ?? 'Haircut',
      price: values.price ?? 9000,
      duration_minutes: values.durationMinutes ?? 60,
      capacity: values.capacity ?? 1,
      buffer_before_minutes: values.bufferBeforeMinutes ?? 0,
      buffer_after_minutes: values.bufferAfterMinutes ?? 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (locationIds.length > 0) {
    await db
      .insertInto('service_locations')
      .values(
        locationIds.map((location_id) => ({
          workspace_id: workspaceId,
          service_id: service.id,
          location_id,
        })),
      )
      .execute();
  }
  return service;
}

export const WEEKDAYS_9_TO_17: WeeklyJson = {
  mon: [{ from: '09:00', to: '17:00' }],
  tue: [{ from: '09:00', to: '17:00' }],
  wed: [{ from: '09:00', to: '17:00' }],
  thu: [{ from: '09:00', to: '17:00' }],
  fri: [{ from: '09:00', to: '17:00' }],
};

export const EVERY_DAY_9_TO_17: WeeklyJson = {
  ...WEEKDAYS_9_TO_17,
  sat: [{ from: '09:00', to: '17:00' }],
  sun: [{ from: '09:00', to: '17:00' }],
};

/** A staffer who provides `serviceIds` at `locationId` with the given schedule there. */
export async function createStaffer(
  db: Db,
  workspaceId: string,
  locationId: string,
  serviceIds: string[],
  values: {
    firstName?: string;
    lastName?: string;
    weekly?: WeeklyJson;
    breaks?: WeeklyJson;
    overrides?: OverrideJson[];
  } = {},
): Promise<{ id: string }> {
  const staffer = await db
    .insertInto('staffers')
    .values({
      created_at: createdAt(),
      workspace_id: workspaceId,
      first_name: values.firstName ?? 'Alex',
      last_name: values.lastName ?? 'Stylist',
      avatar: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (serviceIds.length > 0) {
    await db
      .insertInto('staffer_services')
      .values(
        serviceIds.map((service_id) => ({
          workspace_id: workspaceId,
          staffer_id: staffer.id,
          location_id: locationId,
          service_id,
        })),
      )
      .execute();
  }
  await db
    .insertInto('schedules')
    .values({
      workspace_id: workspaceId,
      staffer_id: staffer.id,
      location_id: locationId,
      weekly: JSON.stringify(values.weekly ?? EVERY_DAY_9_TO_17),
      breaks: JSON.stringify(values.breaks ?? {}),
      overrides: JSON.stringify(values.overrides ?? []),
    })
    .execute();
  return staffer;
}

export async function createPaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  values: { name?: string; type?: PaymentAccountType } = {},
): Promise<{ id: string }> {
  return db
    .insertInto('payment_accounts')
    .values({
      created_at: createdAt(),
      workspace_id: workspaceId,
      location_id: locationId,
      name: values.name ?? 'Cash desk',
      type: values.type ?? 'cash',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
