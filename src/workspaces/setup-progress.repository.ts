import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

/** A schedule `sc` with at least one weekly time range on some day: a staffer customers can book. */
const HAS_WEEKLY_HOURS = sql<boolean>`EXISTS (
  SELECT 1 FROM jsonb_each(sc.weekly) AS day(name, ranges)
  WHERE jsonb_typeof(day.ranges) = 'array' AND jsonb_array_length(day.ranges) > 0)`;

export interface SetupProgress {
  location: boolean;
  service: boolean;
  staffer: boolean;
  hours: boolean;
}

/**
 * What a workspace has of the four things a first booking needs, in one statement: a live
 * location; a live service offered there; a live staffer giving it there; and working hours for
 * such a staffer at that location (a schedule with at least one weekly time range).
 */
export async function readSetupProgress(db: Db, workspaceId: string): Promise<SetupProgress> {
  const result = await sql<SetupProgress>`
    SELECT
      EXISTS (SELECT 1 FROM locations l WHERE l.workspace_id = ${workspaceId} AND l.archived_at IS NULL) AS location,
      EXISTS (
        SELECT 1 FROM service_locations sl
        JOIN services s ON s.workspace_id = ${workspaceId} AND s.id = sl.service_id AND s.archived_at IS NULL
        JOIN locations l ON l.workspace_id = ${workspaceId} AND l.id = sl.location_id AND l.archived_at IS NULL
        WHERE sl.workspace_id = ${workspaceId}) AS service,
      EXISTS (
        SELECT 1 FROM staffer_services ss
        JOIN staffers st ON st.workspace_id = ${workspaceId} AND st.id = ss.staffer_id AND st.archived_at IS NULL
        JOIN services s ON s.workspace_id = ${workspaceId} AND s.id = ss.service_id AND s.archived_at IS NULL
        JOIN locations l ON l.workspace_id = ${workspaceId} AND l.id = ss.location_id AND l.archived_at IS NULL
        WHERE ss.workspace_id = ${workspaceId}) AS staffer,
      EXISTS (
        SELECT 1 FROM staffer_services ss
        JOIN staffers st ON st.workspace_id = ${workspaceId} AND st.id = ss.staffer_id AND st.archived_at IS NULL
        JOIN locations l ON l.workspace_id = ${workspaceId} AND l.id = ss.location_id AND l.archived_at IS NULL
        JOIN schedules sc ON sc.workspace_id = ${workspaceId} AND sc.staffer_id = ss.staffer_id
          AND sc.location_id = ss.location_id
        WHERE ss.workspace_id = ${workspaceId}
          AND ${HAS_WEEKLY_HOURS}) AS hours`.execute(db);
  return result.rows[0]!;
}

/** At most this many booking pages are listed on the server's front page. */
export const LISTED_BOOKING_PAGES = 50;

/**
 * The workspaces a customer can book with today (a live staffer gives a live service at a live
 * location and has weekly hours there), by name: the booking pages the front page lists.
 */
export async function listBookableWorkspaces(db: Db): Promise<{ slug: string; name: string }[]> {
  const result = await sql<{ slug: string; name: string }>`
    SELECT w.slug, w.name FROM workspaces w
    WHERE w.id IN (
      SELECT ss.workspace_id FROM staffer_services ss
      JOIN staffers st ON st.workspace_id = ss.workspace_id AND st.id = ss.staffer_id AND st.archived_at IS NULL
      JOIN services s ON s.workspace_id = ss.workspace_id AND s.id = ss.service_id AND s.archived_at IS NULL
      JOIN locations l ON l.workspace_id = ss.workspace_id AND l.id = ss.location_id AND l.archived_at IS NULL
      JOIN schedules sc ON sc.workspace_id = ss.workspace_id AND sc.staffer_id = ss.staffer_id
        AND sc.location_id = ss.location_id
      WHERE ${HAS_WEEKLY_HOURS})
    ORDER BY w.name, w.slug
    LIMIT ${LISTED_BOOKING_PAGES}`.execute(db);
  return result.rows;
}
