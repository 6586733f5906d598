import { requireLocation } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { presentSchedule } from './schedules.presenter.js';
import {
  findSchedule,
  listStafferSchedules,
  requireLiveStaffer,
  upsertSchedule,
} from './schedules.repository.js';
import type { ScheduleInput } from './schedules.rules.js';

export async function listSchedules(db: Db, workspaceId: string, stafferId: string) {
  await requireLiveStaffer(db, workspaceId, stafferId);
  const rows = await listStafferSchedules(db, workspaceId, stafferId);
  return rows.map((row) => presentSchedule(row.location_id, row));
}

export async function getSchedule(db: Db, workspaceId: string, stafferId: string, locationId: string) {
  await requireLiveStaffer(db, workspaceId, stafferId);
  await requireLocation(db, workspaceId, locationId);
  return presentSchedule(locationId, await findSchedule(db, workspaceId, stafferId, locationId));
}

/** Replaces the staffer's schedule at the location; the liveness checks and the write commit together. */
export async function replaceSchedule(
  uow: UnitOfWork,
  workspaceId: string,
  stafferId: string,
  locationId: string,
  schedule: ScheduleInput,
) {
  return uow.run(workspaceId, async (tx) => {
    await requireLiveStaffer(tx, workspaceId, stafferId);
    await requireLocation(tx, workspaceId, locationId);
    const row = await upsertSchedule(tx, workspaceId, stafferId, locationId, schedule);
    return presentSchedule(locationId, row);
  });
}
