import { requireLocation } from '../locations/locations.repository.js';
import { recordEvents } from '../outbox/outbox.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { RequestContext } from '../workspaces/request-context.js';
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

/**
 * Replaces the staffer's schedule at the location; the liveness checks, the write and its
 * `schedule-updated` event (which the waitlist follows to offer the times that opened) commit
 * together.
 */
export async function replaceSchedule(
  uow: UnitOfWork,
  ctx: Pick<RequestContext, 'workspace' | 'now'>,
  stafferId: string,
  locationId: string,
  schedule: ScheduleInput,
) {
  const { workspace, now } = ctx;
  const workspaceId = workspace.id;
  return uow.run(workspaceId, async (tx) => {
    await requireLiveStaffer(tx, workspaceId, stafferId);
    await requireLocation(tx, workspaceId, locationId);
    const row = await upsertSchedule(tx, workspaceId, stafferId, locationId, schedule);
    const presented = presentSchedule(locationId, row);
    await recordEvents(tx, {
      workspaceId,
      workspaceSlug: workspace.slug,
      at: new Date(now),
      subject: {
        kind: 'schedule',
        id: `${stafferId}/${locationId}`,
        data: { staffer_uuid: stafferId, ...presented },
      },
      events: [{ type: 'schedule-updated', sequence: 1 }],
      change: 'schedule-updated',
    });
    return presented;
  });
}
