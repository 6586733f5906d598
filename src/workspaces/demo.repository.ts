import type { Insertable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { LocationsTable, OverrideJson, PaymentAccountType, WeeklyJson } from '../platform/db/schema.js';

/**
 * The inserts of the demo seed (demo.service.ts) that no feature repository makes in this shape:
 * whole sets at once, with no conflict handling (the workspace is new, so nothing can clash).
 * Each runs in the caller's transaction, the one that creates the workspace.
 */

export async function insertDemoLocation(
  tx: Db,
  workspaceId: string,
  location: Omit<Insertable<LocationsTable>, 'workspace_id' | 'opening_hours' | 'images'> & {
    opening_hours: WeeklyJson;
  },
): Promise<string> {
  const row = await tx
    .insertInto('locations')
    .values({
      ...location,
      workspace_id: workspaceId,
      opening_hours: JSON.stringify(location.opening_hours),
      images: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertDemoPaymentAccounts(
  tx: Db,
  workspaceId: string,
  accounts: { location_id: string; name: string; type: PaymentAccountType }[],
): Promise<void> {
  await tx
    .insertInto('payment_accounts')
    .values(accounts.map((account) => ({ ...account, workspace_id: workspaceId })))
    .execute();
}

/** The categories, positioned in the given order; answers each one's id by name. */
export async function insertDemoCategories(
  tx: Db,
  workspaceId: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const rows = await tx
    .insertInto('service_categories')
    .values(names.map((name, position) => ({ workspace_id: workspaceId, name, position })))
    .returning(['id', 'name'])
    .execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}

export async function insertDemoServiceLocations(
  tx: Db,
  workspaceId: string,
  pairs: { service_id: string; location_id: string }[],
): Promise<void> {
  await tx
    .insertInto('service_locations')
    .values(pairs.map((pair) => ({ ...pair, workspace_id: workspaceId })))
    .execute();
}

export async function insertDemoStafferServices(
  tx: Db,
  workspaceId: string,
  rows: { staffer_id: string; location_id: string; service_id: string }[],
): Promise<void> {
  await tx
    .insertInto('staffer_services')
    .values(rows.map((row) => ({ ...row, workspace_id: workspaceId })))
    .execute();
}

export async function insertDemoSchedule(
  tx: Db,
  workspaceId: string,
  schedule: {
    staffer_id: string;
    location_id: string;
    weekly: WeeklyJson;
    breaks: WeeklyJson;
    overrides: OverrideJson[];
  },
): Promise<void> {
  await tx
    .insertInto('schedules')
    .values({
      workspace_id: workspaceId,
      staffer_id: schedule.staffer_id,
      location_id: schedule.location_id,
      weekly: JSON.stringify(schedule.weekly),
      breaks: JSON.stringify(schedule.breaks),
      overrides: JSON.stringify(schedule.overrides),
    })
    .execute();
}
