import { type Selectable, sql } from 'kysely';
import type { CustomerSearch } from '../customers/customer-search.rules.js';
import { customerMatches } from '../customers/customers.repository.js';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { precompiled } from '../platform/db/precompiled.js';
import type {
  BookingPaymentState,
  BookingsTable,
  CancelReason,
  PublicNotesTable,
  StatusType,
} from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { noteBookingDays } from '../reports/report-rollup.repository.js';
import type { OfferedService } from '../slots/slots.repository.js';

export type BookingRow = Selectable<BookingsTable>;
export type PublicNoteRow = Pick<Selectable<PublicNotesTable>, 'id' | 'value' | 'created_at'>;

/** Everything a booking's JSON needs, read in one statement (lines, payments, notes as JSON). */
export interface BookingView {
  id: string;
  order_id: string;
  location_id: string;
  timezone: string;
  start_time: Date;
  end_time: Date;
  quantity: number;
  status_id: string;
  status_name: string;
  status_type: StatusType;
  cancel_reason: CancelReason | null;
  /** null: a rental (docs/resources.md "Rentals"), booked with its units and no staffer. */
  staffer_id: string | null;
  staffer_first_name: string | null;
  staffer_last_name: string | null;
  /**
   * Where the staffer's booking emails go, and which it wants (src/notifications): the member who
   * is this staffer (memberships.staffer_id; at most one), else the staffer's own address.
   */
  staffer_email: string | null;
  staffer_user_id: string | null;
  staffer_booking_emails: unknown;
  customer_id: string;
  customer_phone: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  booking_comment: string;
  booking_callback: boolean | null;
  source: string;
  /** The language the customer booked in (the booking page's); null = the workspace locale's. */
  language: string | null;
  created_at: Date;
  updated_at: Date;
  /** The booking's revision: bumped by every change that sends events (the .ics SEQUENCE). */
  event_sequence: number;
  lines: {
    id: string;
    service_id: string;
    name: string;
    quantity: number;
    price: number;
    original_price: number;
    discount: number;
    duration_minutes: number;
    /** The service's description (null if the service row were gone). */
    description: string | null;
  }[];
  payments: {
    id: string;
    payment_account_id: string;
    amount: number;
    provider: 'manual' | 'stripe';
    reference: string | null;
    kind: 'payment' | 'deposit' | 'prepayment' | 'late_cancel_fee' | 'no_show_fee' | 'refund';
    status: 'pending' | 'succeeded' | 'failed';
    created_at: string;
  }[];
  /** migrations/0028_payments.sql: null = nothing collected. */
  payment_state: BookingPaymentState | null;
  payment_hold_until: Date | null;
  /** The open checkout's hosted page while the booking awaits payment. */
  payment_url: string | null;
  notes: string[];
  /** The units the booking's session holds (docs/resources.md); [] once canceled. */
  resources: { uuid: string; type: string; name: string }[];
  /** migrations/0038_booking_series.sql: the series it is an occurrence of (docs/series.md). */
  series_id: string | null;
}

export interface BookingFilters {
  location_uuid?: string | undefined;
  staffer_uuid?: string | undefined;
  customer_uuid?: string | undefined;
  status_type?: StatusType | undefined;
  reserved_on_from?: Date | undefined;
  reserved_on_to?: Date | undefined;
  updated_since?: Date | undefined;
  /** A booking status of the workspace (the panel's list). */
  status_id?: string | undefined;
  /** Customers by name, email or phone digits (src/customers/customer-search.rules.ts). */
  customer_search?: CustomerSearch | undefined;
  /**
   * Local dates 'YYYY-MM-DD', inclusive, each booking read in its own location's zone (a day in
   * Berlin and a day in New York are different instants).
   */
  local_date_from?: string | undefined;
  local_date_to?: string | undefined;
}

const HOUR_MS = 3_600_000;

/**
 * The booking view of every booking of the workspace; callers add their filters. The subqueries
 * name the workspace by its bound value, not by `b.workspace_id`: Citus routes a correlated
 * subquery to the workspace's shard only when it sees the distribution column equal a constant.
 */
export function viewQuery(db: Db, workspaceId: string) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .innerJoin('customers as c', (j) =>
      j.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .innerJoin('locations as l', (j) =>
      j.onRef('l.workspace_id', '=', 'b.workspace_id').onRef('l.id', '=', 'b.location_id'),
    )
    .leftJoin('staffers as st', (j) =>
      j.onRef('st.workspace_id', '=', 'b.workspace_id').onRef('st.id', '=', 'b.staffer_id'),
    )
    .leftJoin('memberships as m', (j) =>
      j.onRef('m.workspace_id', '=', 'b.workspace_id').onRef('m.staffer_id', '=', 'b.staffer_id'),
    )
    .select([
      'b.id',
      'b.order_id',
      'b.location_id',
      'l.timezone',
      'b.start_time',
      'b.end_time',
      'b.quantity',
      'b.status_id',
      's.name as status_name',
      's.type as status_type',
      'b.cancel_reason',
      'b.staffer_id',
      'st.first_name as staffer_first_name',
      'st.last_name as staffer_last_name',
      'st.email as staffer_email',
      'm.user_id as staffer_user_id',
      'st.booking_emails as staffer_booking_emails',
      'b.customer_id',
      'c.phone as customer_phone',
      'c.first_name as customer_first_name',
      'c.last_name as customer_last_name',
      'c.email as customer_email',
      'b.booking_comment',
      'b.booking_callback',
      'b.source',
      'b.language',
      'b.created_at',
      'b.updated_at',
      'b.event_sequence',
      'b.series_id',
      sql<BookingView['lines']>`(
        SELECT coalesce(json_agg(json_build_object(
          'id', bs.id, 'service_id', bs.service_id, 'name', bs.name, 'quantity', bs.quantity, 'price', bs.price,
          'original_price', bs.original_price, 'discount', bs.discount, 'duration_minutes', bs.duration_minutes,
          'description', sv.description
        ) ORDER BY bs.position, bs.id), '[]'::json)
        FROM booking_services bs
        LEFT JOIN services sv ON sv.workspace_id = ${workspaceId} AND sv.id = bs.service_id
        WHERE bs.workspace_id = ${workspaceId} AND bs.booking_id = b.id)`.as('lines'),
      sql<BookingView['payments']>`(
        SELECT coalesce(json_agg(json_build_object(
          'id', p.id, 'payment_account_id', p.payment_account_id, 'amount', p.amount, 'provider', p.provider,
          'reference', p.reference, 'kind', p.kind, 'status', p.status, 'created_at', p.created_at
        ) ORDER BY p.created_at, p.id), '[]'::json)
        FROM payments p WHERE p.workspace_id = ${workspaceId} AND p.booking_id = b.id)`.as('payments'),
      'b.payment_state',
      'b.payment_hold_until',
      sql<string | null>`(CASE WHEN b.payment_state = 'awaiting_payment' THEN (
        SELECT po.provider_url FROM payment_operations po
        WHERE po.workspace_id = ${workspaceId} AND po.booking_id = b.id AND po.kind = 'checkout'
        ORDER BY po.created_at DESC LIMIT 1) END)`.as('payment_url'),
      sql<string[]>`(
        SELECT coalesce(json_agg(n.value ORDER BY n.created_at, n.id), '[]'::json)
        FROM public_notes n WHERE n.workspace_id = ${workspaceId} AND n.booking_id = b.id)`.as('notes'),
      sql<BookingView['resources']>`(
        SELECT coalesce(json_agg(json_build_object('uuid', r.id, 'type', r.type, 'name', r.name)
          ORDER BY r.type, r.name, r.id), '[]'::json)
        FROM resource_occupancies ro
        JOIN resources r ON r.workspace_id = ${workspaceId} AND r.id = ro.resource_id
        WHERE ro.workspace_id = ${workspaceId} AND ro.occupancy_id = b.occupancy_id)`.as('resources'),
    ])
    .where('b.workspace_id', '=', workspaceId);
}

export async function findBookingView(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<BookingView | undefined> {
  return (await bookingView(db, workspaceId, bookingId)).rows[0] as BookingView | undefined;
}

// Every create and change reads its booking back through this: compiled once (the view's builder
// is the largest on the write path).
const bookingView = precompiled(2, (db, workspaceId: string, bookingId: string) =>
  viewQuery(db, workspaceId).where('b.id', '=', bookingId),
);

export async function requireBookingView(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<BookingView> {
  const view = await findBookingView(db, workspaceId, bookingId);
  if (!view) throw notFound('Booking');
  return view;
}

/** One page of bookings matching the filters, ordered by start time, and the total. */
export async function listBookingViews(
  db: Db,
  workspaceId: string,
  filters: BookingFilters,
  page: { perPage: number; offset: number },
  order: 'oldest-first' | 'newest-first' = 'oldest-first',
): Promise<{ rows: BookingView[]; total: number }> {
  let query = viewQuery(db, workspaceId);
  if (filters.location_uuid) query = query.where('b.location_id', '=', filters.location_uuid);
  if (filters.staffer_uuid) query = query.where('b.staffer_id', '=', filters.staffer_uuid);
  if (filters.customer_uuid) query = query.where('b.customer_id', '=', filters.customer_uuid);
  if (filters.status_type) query = query.where('s.type', '=', filters.status_type);
  if (filters.reserved_on_from) query = query.where('b.start_time', '>=', filters.reserved_on_from);
  if (filters.reserved_on_to) query = query.where('b.start_time', '<=', filters.reserved_on_to);
  if (filters.updated_since) query = query.where('b.updated_at', '>=', filters.updated_since);
  if (filters.status_id) query = query.where('b.status_id', '=', filters.status_id);
  if (filters.customer_search) query = query.where(customerMatches('c', filters.customer_search));
  if (filters.local_date_from) {
    const from = filters.local_date_from;
    // Zones lie within UTC-12..UTC+14: the coarse bound lets the start_time index do the work.
    query = query
      .where('b.start_time', '>=', new Date(Date.parse(`${from}T00:00:00Z`) - 14 * HOUR_MS))
      .where(sql<boolean>`b.start_time >= (${from}::date::timestamp AT TIME ZONE l.timezone)`);
  }
  if (filters.local_date_to) {
    const to = filters.local_date_to;
    query = query
      .where('b.start_time', '<', new Date(Date.parse(`${to}T00:00:00Z`) + 36 * HOUR_MS))
      .where(sql<boolean>`b.start_time < ((${to}::date + 1)::timestamp AT TIME ZONE l.timezone)`);
  }
  const newestFirst = order === 'newest-first';
  const rows = (await query
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('b.start_time', newestFirst ? 'desc' : 'asc')
    .orderBy('b.int_id', newestFirst ? 'desc' : 'asc')
    .limit(page.perPage)
    .offset(page.offset)
    .execute()) as (BookingView & { total: number })[];
  let total = rows[0]?.total;
  if (total === undefined) {
    total = page.offset === 0 ? 0 : await countBookings(db, workspaceId, filters);
  }
  return { rows, total: Number(total) };
}

/** Location id -> name for the locations of some bookings (archived ones too: their bookings stay). */
export async function locationNamesOf(
  db: Db,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('locations')
    .select(['id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

async function countBookings(db: Db, workspaceId: string, filters: BookingFilters): Promise<number> {
  const { rows, total } = await listBookingViews(db, workspaceId, filters, { perPage: 1, offset: 0 });
  return rows.length === 0 ? 0 : total;
}

/** The booking row, locked for the rest of the transaction: changes of one booking take turns. */
export async function lockBooking(tx: Tx, workspaceId: string, bookingId: string): Promise<BookingRow> {
  const row = await tx
    .selectFrom('bookings')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Booking');
  return row;
}

/**
 * Bumps the booking's event_sequence by `count`; answers the first new number. In the change's
 * statement, so concurrent changes of one booking get distinct numbers in commit order.
 */
export async function reserveEventSequences(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  count: number,
): Promise<number> {
  const { event_sequence: last } = await tx
    .updateTable('bookings')
    .set({ event_sequence: sql`event_sequence + ${count}` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .returning('event_sequence')
    .executeTakeFirstOrThrow();
  return last - count + 1;
}

/** A new booking row; its status is the workspace's default one. */
export async function insertBooking(
  tx: Tx,
  values: {
    id: string;
    workspaceId: string;
    locationId: string;
    /** null: a rental. */
    stafferId: string | null;
    customerId: string;
    occupancyId: string;
    start: Date;
    end: Date;
    bookingComment: string;
    bookingCallback: boolean | null;
    source: string;
    createdByKeyId: string | null;
    eventSequence: number;
    language?: string | null;
    textConsent?: boolean | null;
    ref?: string | null;
    seriesId?: string | null;
  },
): Promise<void> {
  // The default status is read first, not by a subquery in VALUES: Citus plans no subquery
  // inside an INSERT, and pulls an INSERT ... SELECT through the coordinator.
  const [status] = (await defaultStatus(tx, values.workspaceId)).rows;
  if (!status) throw new Error(`workspace ${values.workspaceId} has no default booking status`);
  await tx
    .insertInto('bookings')
    .values({
      workspace_id: values.workspaceId,
      id: values.id,
      location_id: values.locationId,
      staffer_id: values.stafferId,
      customer_id: values.customerId,
      status_id: status.id,
      occupancy_id: values.occupancyId,
      start_time: values.start,
      end_time: values.end,
      booking_comment: values.bookingComment,
      booking_callback: values.bookingCallback,
      source: values.source,
      language: values.language ?? null,
      text_consent: values.textConsent ?? null,
      ref: values.ref ?? null,
      created_by_key_id: values.createdByKeyId,
      event_sequence: values.eventSequence,
      series_id: values.seriesId ?? null,
    })
    .execute();
  await noteBookingDays(tx, values.workspaceId, values.id);
}

// Every workspace has exactly one default status (a unique index) and cannot lose it.
const defaultStatus = precompiled(1, (db, workspaceId: string) =>
  db
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', true),
);

/** Column changes of one booking; `updated_at` is stamped with them. */
export async function updateBooking(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  values: Partial<{
    staffer_id: string | null;
    start_time: Date;
    end_time: Date;
    occupancy_id: string;
    status_id: string;
    cancel_reason: CancelReason | null;
    completed: true;
    canceled: true;
  }>,
): Promise<void> {
  const { completed, canceled, ...columns } = values;
  // The reports' day sums: a moved visit changes the day it leaves and the day it lands on; a
  // status or completion alone changes no figure of theirs.
  const reported = REPORTED_COLUMNS.some((column) => column in values);
  if (values.start_time) await noteBookingDays(tx, workspaceId, bookingId);
  await tx
    .updateTable('bookings')
    .set({
      ...columns,
      ...(completed ? { completed_at: sql`now()` } : {}),
      ...(canceled ? { canceled_at: sql`now()` } : {}),
      updated_at: sql`now()`,
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .execute();
  if (reported) await noteBookingDays(tx, workspaceId, bookingId);
}

/** The columns of a booking the reports sum (src/reports/report-rollup.repository.ts). */
const REPORTED_COLUMNS = [
  'staffer_id',
  'start_time',
  'end_time',
  'occupancy_id',
  'cancel_reason',
  'canceled',
];

/** The order lines of these services at their current prices. */
export async function insertOrderLines(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  services: OfferedService[],
): Promise<void> {
  await tx
    .insertInto('booking_services')
    .values(
      services.map((service, position) => ({
        workspace_id: workspaceId,
        booking_id: bookingId,
        service_id: service.id,
        name: service.name,
        price: service.price,
        original_price: service.price,
        duration_minutes: service.duration_minutes,
        position,
      })),
    )
    .execute();
  await noteBookingDays(tx, workspaceId, bookingId);
}

export async function deleteOrderLines(tx: Tx, workspaceId: string, bookingId: string): Promise<void> {
  await tx
    .deleteFrom('booking_services')
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .execute();
}

/** The booking's current services (its order lines), for re-checking a changed booking. */
export async function findBookingServices(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<OfferedService[]> {
  return db
    .selectFrom('booking_services as bs')
    .innerJoin('services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'bs.workspace_id').onRef('s.id', '=', 'bs.service_id'),
    )
    .select([
      's.id',
      's.name',
      'bs.price',
      'bs.duration_minutes',
      's.capacity',
      's.buffer_before_minutes',
      's.buffer_after_minutes',
      's.resource_requirements',
      's.staffer_needed',
    ])
    .where('bs.workspace_id', '=', workspaceId)
    .where('bs.booking_id', '=', bookingId)
    .orderBy('bs.position')
    .orderBy('bs.id')
    .execute();
}

export async function insertPayment(
  tx: Tx,
  values: { workspaceId: string; bookingId: string; paymentAccountId: string; amount: number },
): Promise<string> {
  const row = await tx
    .insertInto('payments')
    .values({
      workspace_id: values.workspaceId,
      booking_id: values.bookingId,
      payment_account_id: values.paymentAccountId,
      amount: values.amount,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await noteBookingDays(tx, values.workspaceId, values.bookingId);
  return row.id;
}

export async function insertPublicNote(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  value: string,
): Promise<PublicNoteRow> {
  return tx
    .insertInto('public_notes')
    .values({ workspace_id: workspaceId, booking_id: bookingId, value })
    .returning(['id', 'value', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** The booking's public notes in order, or undefined when there is no such booking here. */
export async function listPublicNotes(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<PublicNoteRow[] | undefined> {
  const exists = await db
    .selectFrom('bookings')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .executeTakeFirst();
  if (!exists) return undefined;
  return db
    .selectFrom('public_notes')
    .select(['id', 'value', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many live (not canceled) bookings each staffer has starting in [from, to). */
export async function liveBookingCounts(
  db: Db,
  workspaceId: string,
  stafferIds: string[],
  from: Date,
  to: Date,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .select(['b.staffer_id', sql<number>`count(*)::int`.as('n')])
    .where('b.workspace_id', '=', workspaceId)
    .where('b.staffer_id', 'in', stafferIds)
    .where('s.type', '!=', 'canceled')
    .where('b.start_time', '>=', from)
    .where('b.start_time', '<', to)
    .groupBy('b.staffer_id')
    .execute();
  // Only staffers were asked for: no row names no staffer.
  return new Map(rows.flatMap((row) => (row.staffer_id === null ? [] : [[row.staffer_id, row.n] as const])));
}

/** The seat a booking holds (none once canceled), so free times around it leave it out. */
export async function findBookingSeat(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<{ id: string; seats: number } | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select(['occupancy_id', 'quantity'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .executeTakeFirst();
  return row?.occupancy_id ? { id: row.occupancy_id, seats: row.quantity } : undefined;
}

/** Whether any of these services needs a staffer (false when every one is a rental); [] = true. */
export async function anyNeedsStaffer(db: Db, workspaceId: string, serviceIds: string[]): Promise<boolean> {
  if (serviceIds.length === 0) return true;
  const rows = await db
    .selectFrom('services')
    .select('staffer_needed')
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`id = any(${serviceIds}::uuid[])`)
    .execute();
  return rows.length === 0 || rows.some((row) => row.staffer_needed);
}
