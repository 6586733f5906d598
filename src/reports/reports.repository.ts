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

/**
 * The workspace's locations (or the one asked for) with the UTC span of the period at each:
 * from the instant its first local day starts to the instant the day after its last starts.
 * Materialized so the zone conversions run once per location, not once per row. A row well inside
 * that span (15 hours in: more than any jump of a zone's clock) is in the period without
 * converting its time; one near either end is placed by its local date, as everywhere else.
 */
function zonedPeriod(args: PeriodArgs): RawBuilder<unknown> {
  const ws = args.workspaceId;
  const location = args.period.locationId;
  return sql`zoned AS MATERIALIZED (
      SELECT id, timezone,
             (${args.period.from}::date::timestamp AT TIME ZONE timezone) + interval '15 hours' AS inner_from,
             ((${args.period.to}::date + 1)::timestamp AT TIME ZONE timezone) - interval '15 hours' AS inner_to
      FROM locations WHERE workspace_id = ${ws} ${location ? sql`AND id = ${location}::uuid` : sql``})`;
}

/** `column` of alias `b` falls on a local date of the period at its location (alias z of `zoned`). */
function inZonedPeriod(column: RawBuilder<unknown>, args: PeriodArgs): RawBuilder<unknown> {
  const { lo, hi } = bounds(args.period);
  return sql`${column} >= ${lo}::timestamptz AND ${column} < ${hi}::timestamptz
    AND ((${column} >= z.inner_from AND ${column} < z.inner_to)
         OR (${column} AT TIME ZONE z.timezone)::date BETWEEN ${args.period.from}::date AND ${args.period.to}::date)`;
}

/**
 * The median lead time in hours of the bookings made in the period (by the local date they were
 * made): a median cannot be added up from days, so it is read from the bookings themselves.
 */
export async function leadMedian(db: Db, args: PeriodArgs): Promise<number | null> {
  const ws = args.workspaceId;
  const result = await sql<{ median: number | null }>`
    WITH ${zonedPeriod(args)}
    SELECT percentile_cont(0.5) WITHIN GROUP (
             ORDER BY greatest(date_part('epoch', b.start_time - b.created_at) / 3600, 0)) AS median
    FROM bookings b
    JOIN zoned z ON z.id = b.location_id
    WHERE b.workspace_id = ${ws} AND ${inZonedPeriod(sql`b.created_at`, args)}`.execute(db);
  const median = result.rows[0]?.median;
  return median === null || median === undefined ? null : Number(median);
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
    WITH ${zonedPeriod(args)}, per_location AS (
      -- Each customer's first visit at each location by hashing, then the first of those by
      -- sorting: a sort of every visit of the period is what would cost here.
      SELECT b.customer_id, b.location_id, min(b.start_time) AS start_time
      FROM bookings b
      JOIN zoned z ON z.id = b.location_id
      WHERE b.workspace_id = ${ws} AND b.canceled_at IS NULL AND ${inZonedPeriod(sql`b.start_time`, args)}
      GROUP BY b.customer_id, b.location_id
    ), firsts AS (
      SELECT DISTINCT ON (customer_id) customer_id, start_time, location_id
      FROM per_location ORDER BY customer_id, start_time
    ), seen AS MATERIALIZED (
      -- Materialized: each customer's earlier visit is looked up once, not once per count below.
      SELECT f.start_time, f.location_id, EXISTS (
        SELECT 1 FROM bookings e WHERE e.workspace_id = ${ws} AND e.customer_id = f.customer_id
          AND e.canceled_at IS NULL AND e.start_time < f.start_time) AS before
      FROM firsts f
    )
    SELECT (s.start_time AT TIME ZONE z.timezone)::date::text AS day,
           sum(s.new_customers)::int AS new_customers, sum(s.returning_customers)::int AS returning_customers
    FROM (
      -- Visits start on a few times a day: each distinct time is placed on its local day once.
      SELECT start_time, location_id, count(*) FILTER (WHERE NOT before) AS new_customers,
             count(*) FILTER (WHERE before) AS returning_customers
      FROM seen GROUP BY start_time, location_id
    ) s JOIN zoned z ON z.id = s.location_id
    GROUP BY 1`.execute(db);
  return result.rows;
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
