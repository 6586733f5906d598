import type { Selectable } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { BookingSeriesTable, StatusType } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';

export type SeriesRow = Selectable<BookingSeriesTable>;

/** One booking of a series, as the series lists it. */
export interface OccurrenceRow {
  id: string;
  start_time: Date;
  end_time: Date;
  /** null: a rental. */
  staffer_id: string | null;
  status_type: StatusType;
  status_name: string;
  timezone: string;
}

export async function insertSeries(
  tx: Tx,
  values: Omit<SeriesRow, 'created_at' | 'updated_at' | 'canceled_at' | 'event_sequence'> & {
    event_sequence: number;
  },
): Promise<void> {
  await tx.insertInto('booking_series').values(values).execute();
}

/** The series and its location's zone. */
export type SeriesView = SeriesRow & { timezone: string };

export async function findSeries(
  db: Db,
  workspaceId: string,
  seriesId: string,
): Promise<SeriesView | undefined> {
  return db
    .selectFrom('booking_series as s')
    .innerJoin('locations as l', (j) =>
      j.onRef('l.workspace_id', '=', 's.workspace_id').onRef('l.id', '=', 's.location_id'),
    )
    .selectAll('s')
    .select('l.timezone')
    .where('s.workspace_id', '=', workspaceId)
    .where('s.id', '=', seriesId)
    .executeTakeFirst();
}

export async function requireSeries(db: Db, workspaceId: string, seriesId: string): Promise<SeriesView> {
  const row = await findSeries(db, workspaceId, seriesId);
  if (!row) throw notFound('Series');
  return row;
}

/** The series' row, locked: changes of one series take turns (each occurrence locks itself too). */
export async function lockSeries(tx: Tx, workspaceId: string, seriesId: string): Promise<SeriesRow> {
  const row = await tx
    .selectFrom('booking_series')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', seriesId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Series');
  return row;
}

/** Every booking of the series, in time order. */
export async function listOccurrences(
  db: Db,
  workspaceId: string,
  seriesId: string,
): Promise<OccurrenceRow[]> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .innerJoin('locations as l', (j) =>
      j.onRef('l.workspace_id', '=', 'b.workspace_id').onRef('l.id', '=', 'b.location_id'),
    )
    .select([
      'b.id',
      'b.start_time',
      'b.end_time',
      'b.staffer_id',
      's.type as status_type',
      's.name as status_name',
      'l.timezone',
    ])
    .where('b.workspace_id', '=', workspaceId)
    .where('b.series_id', '=', seriesId)
    .orderBy('b.start_time')
    .orderBy('b.id')
    .execute();
}

/**
 * Stamps a change of the series and takes its next event number (`canceled`: ends it as a whole);
 * answers the series after it. In one statement, so concurrent changes get distinct numbers.
 */
export async function bumpSeries(
  tx: Tx,
  workspaceId: string,
  seriesId: string,
  at: Date,
  options: { canceled?: boolean } = {},
): Promise<SeriesRow> {
  return tx
    .updateTable('booking_series')
    .set((eb) => ({
      event_sequence: eb('event_sequence', '+', 1),
      updated_at: at,
      ...(options.canceled ? { canceled_at: at } : {}),
    }))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', seriesId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
