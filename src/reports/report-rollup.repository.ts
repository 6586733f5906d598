import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { dateToUtcMs } from '../platform/time/zone.js';
import type { PeriodArgs } from './reports.repository.js';

/**
 * The reports' day sums (migration 0040, docs/reports.md "How the reports stay fast"): what each
 * report needs of one local day at one location, so a year is ~730 days of sums instead of every
 * booking. Kept exact without touching the sums on the write path: a write appends the days it
 * touched to report_changes, and a report first recomputes, from the bookings and payments, the
 * days of its period that changed or were never rolled up (`rollUp`), under a lock so two readers
 * do not both recompute.
 */

const MARGIN_MS = 15 * 3_600_000;
const DAY_MS = 86_400_000;
/** Names the lock that lets one reader of a workspace at a time recompute days. */
const ROLLUP_LOCK = 31_0040;

export type Measure =
  | 'money.staffer'
  | 'money.account'
  | 'money.service'
  | 'made.source'
  | 'visit'
  | 'minutes'
  | 'lead';

export interface LocationDay {
  location_id: string;
  day: string;
}

/**
 * Notes the days a booking touches, in the write's transaction: the local day of its visit, the
 * day it was made and the day of each of its payments, at its location. Called after every write
 * of a booking, its order lines or its payments, and before a change that moves its visit (the
 * day it leaves changes too). Appends only: concurrent writers of the same day do not wait.
 */
export async function noteBookingDays(tx: Tx | Db, workspaceId: string, bookingId: string): Promise<void> {
  const ws = workspaceId;
  // Read, then insert: Citus runs an INSERT ... SELECT of this shape through the coordinator,
  // which makes every booking write a two-phase commit; two statements stay on the workspace's
  // node (test/citus/one-node.test.ts).
  const days = await sql<{ location_id: string; day: string }>`
    SELECT DISTINCT b.location_id, to_char((t.at AT TIME ZONE l.timezone)::date, 'YYYY-MM-DD') AS day
    FROM bookings b
    JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
    CROSS JOIN LATERAL (
      SELECT b.start_time AS at UNION SELECT b.created_at
      UNION SELECT p.created_at FROM payments p WHERE p.workspace_id = ${ws} AND p.booking_id = b.id
    ) t
    WHERE b.workspace_id = ${ws} AND b.id = ${bookingId}::uuid`.execute(tx);
  if (days.rows.length === 0) return;
  await tx
    .insertInto('report_changes')
    .values(days.rows.map((row) => ({ workspace_id: ws, location_id: row.location_id, day: row.day })))
    .execute();
}

/**
 * Forgets every rolled-up day of a location whose zone changed: its bookings fall on other local
 * days now, so each day is recomputed when a report next reads it. Takes the readers' lock, so a
 * reader recomputing with the old zone finishes first (in a transaction).
 */
export async function forgetLocationDays(
  tx: Tx | Db,
  workspaceId: string,
  locationId: string,
): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK}, hashtext(${workspaceId}))`.execute(tx);
  await sql`DELETE FROM report_days WHERE workspace_id = ${workspaceId} AND location_id = ${locationId}::uuid`.execute(
    tx,
  );
}

function locationFilter(args: PeriodArgs, column: RawBuilder<unknown>): RawBuilder<unknown> {
  return args.period.locationId ? sql`AND ${column} = ${args.period.locationId}::uuid` : sql``;
}

/** The days of the period (at every location, or the one asked for) that are not rolled up. */
export async function missingDays(db: Db | Tx, args: PeriodArgs): Promise<LocationDay[]> {
  const ws = args.workspaceId;
  const result = await sql<LocationDay>`
    SELECT l.id AS location_id, d.day::date::text AS day
    FROM locations l
    CROSS JOIN generate_series(${args.period.from}::date, ${args.period.to}::date, interval '1 day') AS d(day)
    WHERE l.workspace_id = ${ws} ${locationFilter(args, sql`l.id`)}
      AND NOT EXISTS (SELECT 1 FROM report_days r
                      WHERE r.workspace_id = ${ws} AND r.location_id = l.id AND r.day = d.day::date)`.execute(
    db,
  );
  return result.rows;
}

/** The changes noted on days of the period since they were rolled up. */
export async function changedDays(db: Db | Tx, args: PeriodArgs): Promise<(LocationDay & { id: string })[]> {
  const ws = args.workspaceId;
  const result = await sql<LocationDay & { id: string }>`
    SELECT id, location_id, day::text AS day FROM report_changes
    WHERE workspace_id = ${ws} AND day BETWEEN ${args.period.from}::date AND ${args.period.to}::date
      ${locationFilter(args, sql`location_id`)}`.execute(db);
  return result.rows;
}

/** Waits for the workspace's other readers that recompute days; held until the transaction ends. */
export async function lockRollup(tx: Tx, workspaceId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK}, hashtext(${workspaceId}))`.execute(tx);
}

/**
 * `column` (a time of table alias b or p) falls between the first and the last of `days` at one of
 * their locations (alias l for the location): plain range conditions the planner estimates well.
 * The sums of the days in between that were not asked for are dropped by `asked`.
 */
function onDays(column: RawBuilder<unknown>, days: LocationDay[]): RawBuilder<unknown> {
  const sorted = days.map((d) => d.day).sort();
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  const lo = new Date(dateToUtcMs(first) - MARGIN_MS);
  const hi = new Date(dateToUtcMs(last) + DAY_MS + MARGIN_MS);
  const locations = [...new Set(days.map((d) => d.location_id))].join(',');
  return sql`${column} >= ${lo}::timestamptz AND ${column} < ${hi}::timestamptz
    AND (${column} AT TIME ZONE l.timezone)::date BETWEEN ${first}::date AND ${last}::date
    AND b.location_id = ANY(string_to_array(${locations}, ',')::uuid[])`;
}

/** The (location_id, day) of a row of sums is one of `days`. */
function asked(days: LocationDay[]): RawBuilder<unknown> {
  const locations = days.map((d) => d.location_id).join(',');
  const dates = days.map((d) => d.day).join(',');
  return sql`(location_id, day) IN (
    SELECT * FROM unnest(string_to_array(${locations}, ',')::uuid[], string_to_array(${dates}, ',')::date[]))`;
}

/** The money a payment row brings (a refund takes its amount back); reports.repository.ts sums the same. */
const PAYMENT_AMOUNT = sql`(CASE WHEN p.kind = 'refund' THEN -p.amount ELSE p.amount END)`;
const SUCCEEDED = sql`p.status = 'succeeded'`;

/**
 * Recomputes `days` from the bookings and payments (replacing their sums), marks them rolled up
 * and deletes the changes `changeIds` that led here. Run under `lockRollup` in one transaction.
 */
export async function rollUp(
  tx: Tx,
  workspaceId: string,
  days: LocationDay[],
  changeIds: string[],
): Promise<void> {
  const ws = workspaceId;
  if (days.length > 0) {
    const locations = days.map((d) => d.location_id).join(',');
    const dates = days.map((d) => d.day).join(',');
    const wanted = sql`(workspace_id, location_id, day) IN (
      SELECT ${ws}::uuid, * FROM unnest(string_to_array(${locations}, ',')::uuid[], string_to_array(${dates}, ',')::date[]))`;
    await sql`DELETE FROM report_day_sums WHERE workspace_id = ${ws} AND ${wanted}`.execute(tx);
    for (const statement of recomputes(ws, days)) {
      await sql`INSERT INTO report_day_sums (workspace_id, location_id, day, measure, key, v1, v2, v3, f1)
        SELECT ${ws}::uuid, location_id, day, measure, key, v1, v2, v3, f1 FROM (${statement}) AS sums
        WHERE ${asked(days)}`.execute(tx);
    }
    await sql`INSERT INTO report_days (workspace_id, location_id, day)
      SELECT ${ws}::uuid, * FROM unnest(string_to_array(${locations}, ',')::uuid[], string_to_array(${dates}, ',')::date[])
      ON CONFLICT DO NOTHING`.execute(tx);
  }
  if (changeIds.length > 0) {
    await sql`DELETE FROM report_changes WHERE workspace_id = ${ws}
      AND id = ANY(string_to_array(${changeIds.join(',')}, ',')::uuid[])`.execute(tx);
  }
}

/**
 * One SELECT per kind of sum, each giving (location_id, day, measure, key, v1, v2, v3, f1) for
 * the days asked for. The same rules as the reports' reads over a period (reports.repository.ts):
 * every row placed by its own location's zone.
 */
function recomputes(ws: string, days: LocationDay[]): RawBuilder<unknown>[] {
  const payDay = sql`(p.created_at AT TIME ZONE l.timezone)::date`;
  const payments = sql`FROM payments p
      JOIN bookings b ON b.workspace_id = ${ws} AND b.id = p.booking_id
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      WHERE p.workspace_id = ${ws} AND ${SUCCEEDED} AND ${onDays(sql`p.created_at`, days)}`;
  const money = (measure: Measure, key: RawBuilder<unknown>) => sql`
    SELECT b.location_id, ${payDay} AS day, ${measure}::text AS measure, coalesce(${key}::text, '') AS key,
           sum(${PAYMENT_AMOUNT})::bigint AS v1, count(*) FILTER (WHERE p.kind <> 'refund')::bigint AS v2,
           0::bigint AS v3, 0::float8 AS f1
    ${payments}
    GROUP BY b.location_id, ${payDay}, ${key}`;
  const visitDay = sql`(b.start_time AT TIME ZONE l.timezone)::date`;
  const madeDay = sql`(b.created_at AT TIME ZONE l.timezone)::date`;
  const bookingsOn = (column: RawBuilder<unknown>) => sql`FROM bookings b
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      WHERE b.workspace_id = ${ws} AND ${onDays(column, days)}`;
  return [
    money('money.staffer', sql`b.staffer_id`),
    money('money.account', sql`p.payment_account_id`),
    // Each payment shared among its order lines in proportion to their totals, whole minor units
    // by largest remainder (ties to the earlier line); one-line orders take the payment whole.
    sql`
      WITH money AS (
        SELECT p.id AS payment_id, ${PAYMENT_AMOUNT}::bigint AS amount, p.booking_id, b.location_id, ${payDay} AS day
        ${payments}
      ), per_payment AS (
        SELECT m.payment_id, m.booking_id, m.location_id, m.day, m.amount, count(*) AS lines,
               min(bs.service_id::text) AS service
        FROM money m
        JOIN booking_services bs ON bs.workspace_id = ${ws} AND bs.booking_id = m.booking_id
        GROUP BY m.payment_id, m.booking_id, m.location_id, m.day, m.amount
      ), lines AS (
        SELECT pp.payment_id, pp.location_id, pp.day, pp.amount, bs.service_id::text AS service,
               (bs.price * bs.quantity)::bigint AS weight,
               sum(bs.price * bs.quantity) OVER (PARTITION BY pp.payment_id)::bigint AS total_weight,
               row_number() OVER (PARTITION BY pp.payment_id ORDER BY bs.position, bs.id) AS pos
        FROM per_payment pp
        JOIN booking_services bs ON bs.workspace_id = ${ws} AND bs.booking_id = pp.booking_id
        WHERE pp.lines > 1
      ), shares AS (
        -- A refund is shared like a payment, on its size; its sign comes back at the end.
        SELECT payment_id, location_id, day, abs(amount) AS size, sign(amount) AS sign, service, pos,
               CASE WHEN total_weight = 0 THEN (CASE WHEN pos = 1 THEN abs(amount) ELSE 0 END)
                    ELSE (abs(amount) * weight) / total_weight END AS base,
               CASE WHEN total_weight = 0 THEN 0 ELSE (abs(amount) * weight) % total_weight END AS rest
        FROM lines
      ), ranked AS (
        SELECT location_id, day, service, base, sign,
               size - sum(base) OVER (PARTITION BY payment_id) AS missing,
               row_number() OVER (PARTITION BY payment_id ORDER BY rest DESC, pos) AS rank
        FROM shares
      ), parts AS (
        SELECT location_id, day, service, amount FROM per_payment WHERE lines = 1
        UNION ALL
        SELECT location_id, day, service, sign * (base + CASE WHEN rank <= missing THEN 1 ELSE 0 END) FROM ranked
      )
      SELECT location_id, day, 'money.service' AS measure, service AS key, sum(amount)::bigint AS v1,
             0::bigint AS v2, 0::bigint AS v3, 0::float8 AS f1
      FROM parts GROUP BY location_id, day, service`,
    // Bookings made on the day by where they came from: how many, how many canceled since, and
    // what their order lines are worth.
    sql`
      WITH made AS (
        SELECT b.id, b.location_id, ${madeDay} AS day,
               json_build_array(b.source, b.ref, b.created_by_key_id)::text AS key,
               b.canceled_at IS NOT NULL AS canceled
        ${bookingsOn(sql`b.created_at`)}
      ), valued AS (
        SELECT m.location_id, m.day, m.key, m.canceled, m.id, sum(bs.price * bs.quantity) AS value
        FROM made m LEFT JOIN booking_services bs ON bs.workspace_id = ${ws} AND bs.booking_id = m.id
        GROUP BY m.location_id, m.day, m.key, m.canceled, m.id
      )
      SELECT location_id, day, 'made.source' AS measure, key, count(*)::bigint AS v1,
             count(*) FILTER (WHERE canceled)::bigint AS v2, coalesce(sum(value), 0)::bigint AS v3, 0::float8 AS f1
      FROM valued GROUP BY location_id, day, key`,
    // Visits of the day by how they ended.
    sql`
      SELECT b.location_id, ${visitDay} AS day, 'visit' AS measure,
             json_build_array(b.cancel_reason, b.canceled_at IS NOT NULL)::text AS key,
             count(*)::bigint AS v1, 0::bigint AS v2, 0::bigint AS v3, 0::float8 AS f1
      ${bookingsOn(sql`b.start_time`)}
      GROUP BY 1, 2, 4`,
    // Minutes each staffer spent on kept visits of the day: a group class once for all its seats.
    sql`
      SELECT location_id, day, 'minutes' AS measure, staffer_id::text AS key,
             0::bigint AS v1, 0::bigint AS v2, 0::bigint AS v3, sum(minutes)::float8 AS f1
      FROM (
        SELECT DISTINCT b.staffer_id, b.location_id, ${visitDay} AS day, coalesce(b.occupancy_id, b.id) AS slot,
               date_part('epoch', b.end_time - b.start_time) / 60 AS minutes
        ${bookingsOn(sql`b.start_time`)} AND b.canceled_at IS NULL
          -- A rental has no staffer (docs/resources.md "Rentals"): no one's time was spent on it.
          AND b.staffer_id IS NOT NULL
      ) slots GROUP BY location_id, day, staffer_id`,
    // Bookings made on the day by the lead-time band (key: the band's index, see leadEdges), with
    // the sum of their leads in hours for the mean.
    sql`
      SELECT location_id, day, 'lead' AS measure, width_bucket(hours, ARRAY[${LEAD_EDGES}])::text AS key,
             count(*)::bigint AS v1, 0::bigint AS v2, 0::bigint AS v3, sum(hours)::float8 AS f1
      FROM (
        SELECT b.location_id, ${madeDay} AS day,
               greatest(date_part('epoch', b.start_time - b.created_at) / 3600, 0) AS hours
        ${bookingsOn(sql`b.created_at`)}
      ) leads GROUP BY 1, 2, 4`,
  ];
}

/** The lead-time bands' upper edges in hours (bucket i holds leads under edge i, the last one the rest). */
export const LEAD_EDGES_HOURS = [24, 72, 168, 336, 672] as const;
const LEAD_EDGES = sql.join(LEAD_EDGES_HOURS.map((hours) => sql`${hours}::float8`));

export interface SumRow {
  key: string | null;
  day: string | null;
  location_id: string | null;
  v1: number;
  v2: number;
  v3: number;
  f1: number;
}

/**
 * A measure's sums over the period's rolled-up days (at the location asked for), totalled by key,
 * by day and key, or by day, location and key.
 */
export async function periodSums(
  db: Db,
  args: PeriodArgs,
  measure: Measure,
  by: 'key' | 'day-key' | 'day-location-key',
): Promise<SumRow[]> {
  const ws = args.workspaceId;
  const key = sql`key`;
  const day = by === 'key' ? sql`NULL::text` : sql`day::text`;
  const location = by === 'day-location-key' ? sql`location_id::text` : sql`NULL::text`;
  const result = await sql<SumRow>`
    SELECT ${key} AS key, ${day} AS day, ${location} AS location_id, sum(v1)::bigint AS v1,
           sum(v2)::bigint AS v2, sum(v3)::bigint AS v3, sum(f1)::float8 AS f1
    FROM report_day_sums
    WHERE workspace_id = ${ws} AND measure = ${measure}
      AND day BETWEEN ${args.period.from}::date AND ${args.period.to}::date ${locationFilter(args, sql`location_id`)}
    GROUP BY 1, 2, 3`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    v1: Number(row.v1),
    v2: Number(row.v2),
    v3: Number(row.v3),
    f1: Number(row.f1),
  }));
}
