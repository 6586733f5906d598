import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { dateToUtcMs } from '../platform/time/zone.js';
import type { ReportPeriod } from './report-period.rules.js';

/**
 * The reports' reads (docs/reports.md). Each is one statement by workspace_id (on Citus it runs
 * on one node), placing every row by its own location's zone: a row belongs to the period when
 * its local date does. The UTC bounds around the local dates only let the index narrow the scan:
 * zones run from 12 hours behind UTC to 14 ahead, so 15 hours either side hold every local day.
 */

const MARGIN_MS = 15 * 3_600_000;
const DAY_MS = 86_400_000;

export interface PeriodArgs {
  workspaceId: string;
  period: Pick<ReportPeriod, 'from' | 'to' | 'locationId'>;
}

function bounds(period: PeriodArgs['period']): { lo: Date; hi: Date } {
  return {
    lo: new Date(dateToUtcMs(period.from) - MARGIN_MS),
    hi: new Date(dateToUtcMs(period.to) + DAY_MS + MARGIN_MS),
  };
}

/** `column` of table alias `b`/`p` falls on a local date of the period at the booking's location. */
function inPeriod(column: RawBuilder<unknown>, args: PeriodArgs): RawBuilder<unknown> {
  const { lo, hi } = bounds(args.period);
  const location = args.period.locationId;
  return sql`${column} >= ${lo}::timestamptz AND ${column} < ${hi}::timestamptz
    AND (${column} AT TIME ZONE l.timezone)::date BETWEEN ${args.period.from}::date AND ${args.period.to}::date
    ${location ? sql`AND b.location_id = ${location}::uuid` : sql``}`;
}

/**
 * The money a payment row brings: a succeeded payment, deposit or fee adds its amount, a
 * succeeded refund takes its amount back (as the order's amount_paid, netPaid in
 * src/bookings/booking-money.rules.ts); pending and failed rows are left out by SUCCEEDED.
 */
const PAYMENT_AMOUNT = sql`(CASE WHEN p.kind = 'refund' THEN -p.amount ELSE p.amount END)`;
const SUCCEEDED = sql`p.status = 'succeeded'`;

export interface MoneyGroupRow {
  day: string | null;
  staffer_id: string | null;
  location_id: string | null;
  payment_account_id: string | null;
  amount: number;
  payments: number;
}

/**
 * Money taken in the period (payments by the local date they were recorded), summed by day, by
 * the booking's staffer, by location and by payment account in one scan (grouping sets).
 */
export async function moneyGroups(db: Db, args: PeriodArgs): Promise<MoneyGroupRow[]> {
  const ws = args.workspaceId;
  const result = await sql<MoneyGroupRow>`
    SELECT (p.created_at AT TIME ZONE l.timezone)::date::text AS day,
           b.staffer_id, b.location_id, p.payment_account_id,
           coalesce(sum(${PAYMENT_AMOUNT}), 0)::bigint AS amount,
           count(*) FILTER (WHERE p.kind <> 'refund')::int AS payments
    FROM payments p
    JOIN bookings b ON b.workspace_id = ${ws} AND b.id = p.booking_id
    JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
    WHERE p.workspace_id = ${ws} AND ${SUCCEEDED} AND ${inPeriod(sql`p.created_at`, args)}
    GROUP BY GROUPING SETS (((p.created_at AT TIME ZONE l.timezone)::date), (b.staffer_id), (b.location_id),
                            (p.payment_account_id))`.execute(db);
  return result.rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

export interface ServiceMoneyRow {
  service_id: string;
  amount: number;
}

/**
 * Money taken in the period by service: each payment is shared among its booking's order lines
 * in proportion to their totals, whole minor units by largest remainder (ties to the earlier
 * line), so the services add up to exactly what was taken. An order worth nothing gives its
 * payment to its first line. Most orders have one line and take the payment whole: only the
 * others go through the sharing (window functions are what costs here).
 */
export async function moneyByService(db: Db, args: PeriodArgs): Promise<ServiceMoneyRow[]> {
  const ws = args.workspaceId;
  const result = await sql<ServiceMoneyRow>`
    WITH money AS (
      SELECT p.id AS payment_id, ${PAYMENT_AMOUNT}::bigint AS amount, p.booking_id
      FROM payments p
      JOIN bookings b ON b.workspace_id = ${ws} AND b.id = p.booking_id
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      WHERE p.workspace_id = ${ws} AND ${SUCCEEDED} AND ${inPeriod(sql`p.created_at`, args)}
    ), per_payment AS (
      SELECT m.payment_id, m.booking_id, m.amount, count(*) AS lines, min(bs.service_id::text) AS service
      FROM money m
      JOIN booking_services bs ON bs.workspace_id = ${ws} AND bs.booking_id = m.booking_id
      GROUP BY m.payment_id, m.booking_id, m.amount
    ), lines AS (
      SELECT pp.payment_id, pp.amount, bs.service_id::text AS service,
             (bs.price * bs.quantity)::bigint AS weight,
             sum(bs.price * bs.quantity) OVER (PARTITION BY pp.payment_id)::bigint AS total_weight,
             row_number() OVER (PARTITION BY pp.payment_id ORDER BY bs.position, bs.id) AS pos
      FROM per_payment pp
      JOIN booking_services bs ON bs.workspace_id = ${ws} AND bs.booking_id = pp.booking_id
      WHERE pp.lines > 1
    ), shares AS (
      -- A refund is shared like a payment, on its size; its sign comes back at the end.
      SELECT payment_id, abs(amount) AS size, sign(amount) AS sign, service, pos,
             CASE WHEN total_weight = 0 THEN (CASE WHEN pos = 1 THEN abs(amount) ELSE 0 END)
                  ELSE (abs(amount) * weight) / total_weight END AS base,
             CASE WHEN total_weight = 0 THEN 0 ELSE (abs(amount) * weight) % total_weight END AS rest
      FROM lines
    ), ranked AS (
      SELECT service, base, sign,
             size - sum(base) OVER (PARTITION BY payment_id) AS missing,
             row_number() OVER (PARTITION BY payment_id ORDER BY rest DESC, pos) AS rank
      FROM shares
    ), parts AS (
      SELECT service, amount FROM per_payment WHERE lines = 1
      UNION ALL
      SELECT service, sign * (base + CASE WHEN rank <= missing THEN 1 ELSE 0 END) FROM ranked
    )
    SELECT service::uuid AS service_id, sum(amount)::bigint AS amount FROM parts GROUP BY service`.execute(
    db,
  );
  return result.rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

export interface VisitGroupRow {
  day: string;
  cancel_reason: string | null;
  canceled: boolean;
  bookings: number;
  /** Of them, the bookings of `ownStafferId` (0 without one). */
  own: number;
}

/** Bookings whose visit falls in the period, by local day and by how they ended. */
export async function visitGroups(
  db: Db,
  args: PeriodArgs,
  ownStafferId: string | null = null,
): Promise<VisitGroupRow[]> {
  const ws = args.workspaceId;
  const result = await sql<VisitGroupRow>`
    SELECT (b.start_time AT TIME ZONE l.timezone)::date::text AS day, b.cancel_reason,
           (b.canceled_at IS NOT NULL) AS canceled, count(*)::int AS bookings,
           count(*) FILTER (WHERE b.staffer_id = ${ownStafferId}::uuid)::int AS own
    FROM bookings b
    JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
    WHERE b.workspace_id = ${ws} AND ${inPeriod(sql`b.start_time`, args)}
    GROUP BY 1, 2, 3`.execute(db);
  return result.rows;
}

export interface SourceRow {
  source: string;
  ref: string | null;
  key_id: string | null;
  bookings: number;
  canceled: number;
  value: number;
}

/** Bookings made in the period (by the local date they were made), by where they came from. */
export async function sourceGroups(db: Db, args: PeriodArgs): Promise<SourceRow[]> {
  const ws = args.workspaceId;
  const result = await sql<SourceRow>`
    WITH made AS (
      SELECT b.id, b.source, b.ref, b.created_by_key_id, b.canceled_at IS NOT NULL AS canceled
      FROM bookings b
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      WHERE b.workspace_id = ${ws} AND ${inPeriod(sql`b.created_at`, args)}
    ), valued AS (
      SELECT m.source, m.ref, m.created_by_key_id, m.canceled, m.id, sum(bs.price * bs.quantity) AS value
      FROM made m LEFT JOIN booking_services bs ON bs.workspace_id = ${ws} AND bs.booking_id = m.id
      GROUP BY m.source, m.ref, m.created_by_key_id, m.canceled, m.id
    )
    SELECT source, ref, created_by_key_id AS key_id, count(*)::int AS bookings,
           count(*) FILTER (WHERE canceled)::int AS canceled, coalesce(sum(value), 0)::bigint AS value
    FROM valued GROUP BY source, ref, created_by_key_id`.execute(db);
  return result.rows.map((row) => ({ ...row, value: Number(row.value) }));
}

export interface LeadTimeRow {
  bucket: number;
  bookings: number;
  median_hours: number | null;
  mean_hours: number | null;
}

/**
 * Bookings made in the period by how long before the visit: per bucket of `edgesHours` (bucket i
 * holds leads under edgesHours[i], the last one everything beyond), and the median and mean over
 * all of them (bucket -1).
 */
export async function leadTimes(
  db: Db,
  args: PeriodArgs,
  edgesHours: readonly number[],
): Promise<LeadTimeRow[]> {
  const ws = args.workspaceId;
  const edges = sql.join(edgesHours.map((hours) => sql`${hours}::float8`));
  const result = await sql<LeadTimeRow>`
    WITH leads AS (
      SELECT greatest(date_part('epoch', b.start_time - b.created_at) / 3600, 0) AS hours
      FROM bookings b
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      WHERE b.workspace_id = ${ws} AND ${inPeriod(sql`b.created_at`, args)}
    )
    SELECT width_bucket(hours, ARRAY[${edges}]) AS bucket, count(*)::int AS bookings,
           NULL::float8 AS median_hours, NULL::float8 AS mean_hours
    FROM leads GROUP BY 1
    UNION ALL
    SELECT -1, count(*)::int, percentile_cont(0.5) WITHIN GROUP (ORDER BY hours), avg(hours) FROM leads`.execute(
    db,
  );
  return result.rows.map((row) => ({
    bucket: Number(row.bucket),
    bookings: Number(row.bookings),
    median_hours: row.median_hours === null ? null : Number(row.median_hours),
    mean_hours: row.mean_hours === null ? null : Number(row.mean_hours),
  }));
}

export interface CustomerVisitRow {
  day: string;
  new_customers: number;
  returning_customers: number;
}

/**
 * Customers with a kept visit (not canceled) in the period, each once, on the local day of their
 * first visit in it: new when they had no kept visit before that one, returning otherwise.
 */
export async function customerVisits(db: Db, args: PeriodArgs): Promise<CustomerVisitRow[]> {
  const ws = args.workspaceId;
  const result = await sql<CustomerVisitRow>`
    WITH firsts AS (
      SELECT DISTINCT ON (b.customer_id) b.customer_id, b.start_time,
             (b.start_time AT TIME ZONE l.timezone)::date AS day
      FROM bookings b
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      WHERE b.workspace_id = ${ws} AND b.canceled_at IS NULL AND ${inPeriod(sql`b.start_time`, args)}
      ORDER BY b.customer_id, b.start_time
    )
    SELECT f.day::text AS day, count(*) FILTER (WHERE NOT seen.before)::int AS new_customers,
           count(*) FILTER (WHERE seen.before)::int AS returning_customers
    FROM firsts f
    CROSS JOIN LATERAL (
      SELECT EXISTS (
        SELECT 1 FROM bookings e WHERE e.workspace_id = ${ws} AND e.customer_id = f.customer_id
          AND e.canceled_at IS NULL AND e.start_time < f.start_time) AS before
    ) seen
    GROUP BY f.day`.execute(db);
  return result.rows;
}

export interface BookedMinutesRow {
  staffer_id: string;
  location_id: string;
  minutes: number;
}

/**
 * Minutes each staffer spent on kept bookings of the period, per location: a group class counts
 * once however many seats it sold (its bookings share an occupancy).
 */
export async function bookedMinutes(db: Db, args: PeriodArgs): Promise<BookedMinutesRow[]> {
  const ws = args.workspaceId;
  const result = await sql<BookedMinutesRow>`
    SELECT staffer_id, location_id, sum(minutes)::bigint AS minutes FROM (
      SELECT DISTINCT b.staffer_id, b.location_id, coalesce(b.occupancy_id, b.id) AS slot,
             date_part('epoch', b.end_time - b.start_time) / 60 AS minutes
      FROM bookings b
      JOIN locations l ON l.workspace_id = ${ws} AND l.id = b.location_id
      -- A rental has no staffer (docs/resources.md "Rentals"): no one's time was spent on it.
      WHERE b.workspace_id = ${ws} AND b.canceled_at IS NULL AND b.staffer_id IS NOT NULL
        AND ${inPeriod(sql`b.start_time`, args)}
    ) slots GROUP BY staffer_id, location_id`.execute(db);
  return result.rows.map((row) => ({ ...row, minutes: Number(row.minutes) }));
}

export interface ScheduleRow {
  staffer_id: string;
  location_id: string;
  timezone: string;
  weekly: unknown;
  breaks: unknown;
  overrides: unknown;
}

/** The working hours of every live staffer at every live location (or the one asked for). */
export async function schedulesOf(
  db: Db,
  workspaceId: string,
  locationId: string | undefined,
): Promise<ScheduleRow[]> {
  const ws = workspaceId;
  const result = await sql<ScheduleRow>`
    SELECT s.staffer_id, s.location_id, l.timezone, s.weekly, s.breaks, s.overrides
    FROM schedules s
    JOIN locations l ON l.workspace_id = ${ws} AND l.id = s.location_id AND l.archived_at IS NULL
    JOIN staffers st ON st.workspace_id = ${ws} AND st.id = s.staffer_id AND st.archived_at IS NULL
    WHERE s.workspace_id = ${ws} ${locationId ? sql`AND s.location_id = ${locationId}::uuid` : sql``}`.execute(
    db,
  );
  return result.rows;
}

export interface NamedRow {
  kind: 'staffer' | 'service' | 'location' | 'account' | 'key';
  id: string;
  name: string;
  timezone: string | null;
  archived: boolean;
}

/** The names the reports label their rows with, archived and deleted ones included. */
export async function namesOf(db: Db, workspaceId: string): Promise<NamedRow[]> {
  const ws = workspaceId;
  const result = await sql<NamedRow>`
    SELECT 'staffer' AS kind, id, trim(first_name || ' ' || last_name) AS name, NULL AS timezone,
           archived_at IS NOT NULL AS archived FROM staffers WHERE workspace_id = ${ws}
    UNION ALL SELECT 'service', id, name, NULL, archived_at IS NOT NULL FROM services WHERE workspace_id = ${ws}
    UNION ALL SELECT 'location', id, name, timezone, archived_at IS NOT NULL FROM locations WHERE workspace_id = ${ws}
    UNION ALL SELECT 'account', id, name, NULL, archived_at IS NOT NULL FROM payment_accounts WHERE workspace_id = ${ws}
    UNION ALL SELECT 'key', id, name, NULL, deleted_at IS NOT NULL FROM api_keys WHERE workspace_id = ${ws}`.execute(
    db,
  );
  return result.rows;
}
