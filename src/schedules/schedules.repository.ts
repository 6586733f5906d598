import { sql } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { OverrideJson, WeeklyJson } from '../platform/db/schema.js';
import type { ScheduleInput } from './schedules.rules.js';

/** A stored schedule as the slot engine reads it (JSON columns already parsed). */
export interface ScheduleRow {
  location_id: string;
  weekly: WeeklyJson;
  breaks: WeeklyJson;
  overrides: OverrideJson[];
}

/** A live staffer of this workspace, or 404 — the same for another workspace's and an unknown uuid. */
export async function requireLiveStaffer(db: Db, workspaceId: string, stafferId: string): Promise<void> {
  const row = await db
    .selectFrom('staffers')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stafferId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Staffer');
}

/** The staffer's schedules at live locations, in the order locations are listed. */
export async function listStafferSchedules(db: Db, workspaceId: string, stafferId: string) {
  const rows = await db
    .selectFrom('schedules as s')
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 's.workspace_id').onRef('l.id', '=', 's.location_id'),
    )
    .select(['s.location_id', 's.weekly', 's.breaks', 's.overrides'])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.staffer_id', '=', stafferId)
    .where('l.archived_at', 'is', null)
    .orderBy('l.created_at')
    .orderBy('l.int_id')
    .execute();
  return rows as ScheduleRow[];
}

export async function findSchedule(
  db: Db,
  workspaceId: string,
  stafferId: string,
  locationId: string,
): Promise<ScheduleRow | undefined> {
  return db
    .selectFrom('schedules')
    .select(['location_id', 'weekly', 'breaks', 'overrides'])
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .where('location_id', '=', locationId)
    .executeTakeFirst();
}

/** Inserts or replaces the one row of this staffer at this location, in one statement. */
export async function upsertSchedule(
  db: Db,
  workspaceId: string,
  stafferId: string,
  locationId: string,
  schedule: ScheduleInput,
): Promise<ScheduleRow> {
  const json = {
    weekly: JSON.stringify(schedule.weekly),
    breaks: JSON.stringify(schedule.breaks),
    overrides: JSON.stringify(schedule.overrides),
  };
  return db
    .insertInto('schedules')
    .values({ workspace_id: workspaceId, staffer_id: stafferId, location_id: locationId, ...json })
    .onConflict((conflict) =>
      conflict
        .columns(['workspace_id', 'staffer_id', 'location_id'])
        // The proposed row's default, not now(): Citus refuses functions in DO UPDATE SET.
        .doUpdateSet({ ...json, updated_at: sql`excluded.updated_at` }),
    )
    .returning(['location_id', 'weekly', 'breaks', 'overrides'])
    .executeTakeFirstOrThrow();
}
