import { type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type {
  BookingPaymentState,
  PaymentKind,
  PaymentOperationKind,
  PaymentOperationsTable,
  PaymentProviderName,
  PaymentStatus,
} from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { noteBookingDays } from '../reports/report-rollup.repository.js';

export type PaymentOperationRow = Selectable<PaymentOperationsTable>;

/** The workspace's provider settings and sealed credentials. */
export async function findPaymentConfig(db: Db, workspaceId: string) {
  return db
    .selectFrom('workspaces')
    .select(['payment_settings', 'payment_credentials', 'currency'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
}

/** Saves the settings; `sealed` undefined keeps the credentials, null removes them. */
export async function savePaymentConfig(
  tx: Tx,
  workspaceId: string,
  settings: Record<string, unknown>,
  sealed: string | null | undefined,
): Promise<void> {
  await tx
    .updateTable('workspaces')
    .set({
      payment_settings: JSON.stringify(settings),
      ...(sealed !== undefined ? { payment_credentials: sealed } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', workspaceId)
    .execute();
}

export async function findServicePolicy(db: Db, workspaceId: string, serviceId: string) {
  return db
    .selectFrom('services')
    .select(['id', 'payment_policy'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', serviceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export async function saveServicePolicy(
  tx: Tx,
  workspaceId: string,
  serviceId: string,
  policy: Record<string, unknown>,
): Promise<boolean> {
  const result = await tx
    .updateTable('services')
    .set({ payment_policy: JSON.stringify(policy), updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', serviceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What decides a booking's money: its state, price, the policies of its services, what moved. */
export interface BookingMoney {
  id: string;
  order_id: string;
  workspace_id: string;
  location_id: string;
  start_time: Date;
  status_type: string;
  payment_state: BookingPaymentState | null;
  payment_hold_until: Date | null;
  customer_email: string;
  price: number;
  /** The first service's policy (a booking's services share one policy: the first decides). */
  policy: Record<string, unknown> | null;
  service_name: string;
}

export async function findBookingMoney(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<BookingMoney | undefined> {
  return (await db
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .innerJoin('customers as c', (j) =>
      j.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .select([
      'b.id',
      'b.order_id',
      'b.workspace_id',
      'b.location_id',
      'b.start_time',
      's.type as status_type',
      'b.payment_state',
      'b.payment_hold_until',
      'c.email as customer_email',
      sql<number>`(SELECT coalesce(sum(bs.price * bs.quantity), 0)::integer FROM booking_services bs
        WHERE bs.workspace_id = b.workspace_id AND bs.booking_id = b.id)`.as('price'),
      sql<Record<string, unknown> | null>`(SELECT sv.payment_policy FROM booking_services bs
        JOIN services sv ON sv.workspace_id = bs.workspace_id AND sv.id = bs.service_id
        WHERE bs.workspace_id = b.workspace_id AND bs.booking_id = b.id ORDER BY bs.position, bs.id LIMIT 1)`.as(
        'policy',
      ),
      sql<string>`(SELECT coalesce(string_agg(bs.name, ', ' ORDER BY bs.position, bs.id), '') FROM booking_services bs
        WHERE bs.workspace_id = b.workspace_id AND bs.booking_id = b.id)`.as('service_name'),
    ])
    .where('b.workspace_id', '=', workspaceId)
    .where('b.id', '=', bookingId)
    .executeTakeFirst()) as BookingMoney | undefined;
}

export async function setBookingPaymentState(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  state: BookingPaymentState | null,
  holdUntil: Date | null,
): Promise<void> {
  await tx
    .updateTable('bookings')
    .set({ payment_state: state, payment_hold_until: holdUntil, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .execute();
}

/** Moves a booking out of awaiting_payment (only from there: a late webhook changes nothing else). */
export async function settleHold(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  state: BookingPaymentState,
): Promise<boolean> {
  const result = await tx
    .updateTable('bookings')
    .set({ payment_state: state, payment_hold_until: null, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .where('payment_state', '=', 'awaiting_payment')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertOperation(
  tx: Tx,
  values: {
    workspaceId: string;
    bookingId: string;
    kind: PaymentOperationKind;
    amount: number;
    provider: PaymentProviderName;
    providerRef?: string | null;
    createdBy?: string | null;
    /** When it is due: now, by the caller's clock. */
    nextAttemptAt: Date;
  },
): Promise<string> {
  const row = await tx
    .insertInto('payment_operations')
    .values({
      workspace_id: values.workspaceId,
      booking_id: values.bookingId,
      kind: values.kind,
      amount: values.amount,
      provider: values.provider,
      provider_ref: values.providerRef ?? null,
      created_by: values.createdBy ?? null,
      next_attempt_at: values.nextAttemptAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function finishOperation(
  db: Db,
  workspaceId: string,
  operationId: string,
  values: {
    state: 'done' | 'failed' | 'pending';
    providerRef?: string | null;
    providerUrl?: string | null;
    response: string;
    retryAt?: Date;
  },
): Promise<void> {
  await db
    .updateTable('payment_operations')
    .set({
      state: values.state,
      ...(values.providerRef !== undefined ? { provider_ref: values.providerRef } : {}),
      ...(values.providerUrl !== undefined ? { provider_url: values.providerUrl } : {}),
      last_response: values.response.slice(0, 500),
      attempt_count: sql`attempt_count + 1`,
      ...(values.retryAt ? { next_attempt_at: values.retryAt } : {}),
      updated_at: sql`now()`,
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', operationId)
    .execute();
}

export async function findOperation(db: Db, workspaceId: string, operationId: string) {
  return db
    .selectFrom('payment_operations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', operationId)
    .executeTakeFirst();
}

/** The booking's latest checkout (its hosted page while open). */
export async function findCheckoutOperation(db: Db, workspaceId: string, bookingId: string) {
  return db
    .selectFrom('payment_operations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .where('kind', '=', 'checkout')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Owed operations due now, oldest first, each claimed (state sending, until `leaseUntil`) by a
 * conditional update of its own row: a row another worker claimed a moment ago no longer matches
 * and is left to it. No multi-shard row locks (Citus refuses FOR UPDATE across shards): the read
 * of candidates locks nothing, the claim is one single-shard statement per row.
 */
export async function claimDueOperations(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<PaymentOperationRow[]> {
  const due = await db
    .selectFrom('payment_operations')
    .select(['workspace_id', 'id', 'next_attempt_at'])
    .where('state', 'in', ['pending', 'sending'])
    .where('kind', '!=', 'checkout')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: PaymentOperationRow[] = [];
  for (const row of due) {
    const updated = await db
      .updateTable('payment_operations')
      .set({ state: 'sending', next_attempt_at: leaseUntil, updated_at: sql`now()` })
      .where('workspace_id', '=', row.workspace_id)
      .where('id', '=', row.id)
      .where('state', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '=', row.next_attempt_at)
      .returningAll()
      .executeTakeFirst();
    if (updated) claimed.push(updated);
  }
  return claimed;
}

/**
 * A movement of money in the booking's order. With a provider reference it lands once: a second
 * record of the same charge or refund (webhook and redirect, a redelivery, a retry) is ignored.
 * True when this call recorded it.
 */
export async function recordPayment(
  tx: Tx,
  values: {
    workspaceId: string;
    bookingId: string;
    accountId: string;
    provider: PaymentProviderName;
    reference: string;
    kind: PaymentKind;
    amount: number;
    status: PaymentStatus;
  },
): Promise<string | undefined> {
  const row = await tx
    .insertInto('payments')
    .values({
      workspace_id: values.workspaceId,
      booking_id: values.bookingId,
      payment_account_id: values.accountId,
      provider: values.provider,
      reference: values.reference,
      kind: values.kind,
      amount: values.amount,
      status: values.status,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'provider', 'reference']).where('reference', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (row) await noteBookingDays(tx, values.workspaceId, values.bookingId);
  return row?.id;
}

/** The provider's payments of a booking: what it holds now, and what was refunded. */
export async function providerPaymentsOf(db: Db, workspaceId: string, bookingId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'provider', 'reference', 'kind', 'amount', 'status', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .where('provider', '!=', 'manual')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The location's online account for provider payments, made on first use. */
export async function onlineAccountOf(
  tx: Tx,
  workspaceId: string,
  locationId: string,
  name: string,
): Promise<string> {
  const found = await tx
    .selectFrom('payment_accounts')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('location_id', '=', locationId)
    .where('type', '=', 'online')
    .where('name', '=', name)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (found) return found.id;
  const made = await tx
    .insertInto('payment_accounts')
    .values({ workspace_id: workspaceId, location_id: locationId, name, type: 'online' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

/** Records that a provider event was handled; false when it was already (a redelivery). */
export async function markEventHandled(
  tx: Tx,
  values: { workspaceId: string; provider: string; eventId: string; type: string; bookingId: string | null },
): Promise<boolean> {
  const row = await tx
    .insertInto('payment_events')
    .values({
      workspace_id: values.workspaceId,
      provider: values.provider,
      event_id: values.eventId,
      type: values.type,
      booking_id: values.bookingId,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Bookings whose unpaid hold ended at or before `now` (every workspace), oldest first. */
export async function expiredHolds(db: Db, now: Date, limit: number) {
  return db
    .selectFrom('bookings')
    .select(['workspace_id', 'id'])
    .where('payment_state', '=', 'awaiting_payment')
    .where('payment_hold_until', '<=', now)
    .orderBy('payment_hold_until')
    .limit(limit)
    .execute();
}

/** Refunds owed for a booking: every refund operation not failed (sent or not), in minor units. */
export async function owedRefunds(db: Db, workspaceId: string, bookingId: string): Promise<number> {
  const row = await db
    .selectFrom('payment_operations')
    .select(sql<number>`coalesce(sum(amount), 0)::integer`.as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .where('kind', '=', 'refund')
    .where('state', '!=', 'failed')
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
