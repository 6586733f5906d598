import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/**
 * Every place Kairos keeps a customer's personal data, for the export and the erasure of one
 * customer (customer-data.service.ts, docs/customer-data.md). A table that starts holding
 * customer data adds its statements here, so the list stays whole in one file.
 */

/** The ids of the customer's bookings, oldest first. */
export async function bookingIdsOfCustomer(
  db: Db,
  workspaceId: string,
  customerId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('bookings')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('customer_id', '=', customerId)
    .orderBy('start_time')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** The emails sent about the customer's bookings (to them, and to staff about them). */
export async function mailOfBookings(db: Db, workspaceId: string, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('mail_messages')
    .select([
      'id',
      'booking_id',
      'kind',
      'recipient',
      'subject',
      'body_text',
      'snapshot',
      'state',
      'sent_at',
      'created_at',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', 'in', bookingIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The waitlist offers' emails sent to the customer's address (they name no booking yet). */
export async function waitlistMailTo(db: Db, workspaceId: string, email: string) {
  if (email === '') return [];
  return db
    .selectFrom('mail_messages')
    .select([
      'id',
      'booking_id',
      'kind',
      'recipient',
      'subject',
      'body_text',
      'snapshot',
      'state',
      'sent_at',
      'created_at',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'waitlist_offer')
    .where('recipient', '=', email)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function historyOfBookings(db: Db, workspaceId: string, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('booking_history')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', 'in', bookingIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function eventsOfBookings(db: Db, workspaceId: string, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('outbox_events')
    .select(['id', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', 'in', bookingIds)
    .execute();
}

export async function deliveriesOfEvents(db: Db, workspaceId: string, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'body'])
    .where('workspace_id', '=', workspaceId)
    .where('event_id', 'in', eventIds)
    .execute();
}

/** Stored idempotent answers that name the customer (their id appears in the answer). */
export async function answersNaming(db: Db, workspaceId: string, customerId: string) {
  return db
    .selectFrom('idempotency_keys')
    .select(['key', 'response_body'])
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`strpos(response_body::text, ${customerId}) > 0`)
    .execute();
}

/** Empties the customer's personal fields and marks them erased; false when already erased. */
export async function eraseCustomerRow(
  tx: Tx,
  workspaceId: string,
  customerId: string,
  at: Date,
): Promise<boolean> {
  const result = await tx
    .updateTable('customers')
    .set({ phone: '', first_name: '', last_name: '', email: '', erased_at: at, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', customerId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The customer's own words on their bookings: comments and public notes. */
export async function eraseBookingTexts(tx: Tx, workspaceId: string, bookingIds: string[], at: Date) {
  if (bookingIds.length === 0) return;
  await tx
    .updateTable('bookings')
    .set({ booking_comment: '', updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', bookingIds)
    .where('booking_comment', '<>', '')
    .execute();
  await tx
    .updateTable('public_notes')
    .set({ value: '' })
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', 'in', bookingIds)
    .execute();
}

export async function replaceHistoryChanges(
  tx: Tx,
  workspaceId: string,
  id: string,
  changes: Record<string, unknown>,
) {
  await tx
    .updateTable('booking_history')
    .set({ changes: JSON.stringify(changes) })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function replaceEventPayload(
  tx: Tx,
  workspaceId: string,
  id: string,
  payload: Record<string, unknown>,
) {
  await tx
    .updateTable('outbox_events')
    .set({ payload: JSON.stringify(payload) })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function replaceDeliveryBody(tx: Tx, workspaceId: string, id: string, body: string) {
  await tx
    .updateTable('webhook_deliveries')
    .set({ body })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * An email about the customer keeps its kind, state and times (the mail log's counts) and loses
 * what it said and, when it went to the customer, where it went.
 */
export async function eraseMail(
  tx: Tx,
  workspaceId: string,
  id: string,
  values: { snapshot: Record<string, unknown>; toCustomer: boolean },
) {
  await tx
    .updateTable('mail_messages')
    .set({
      snapshot: JSON.stringify(values.snapshot),
      subject: null,
      body_text: null,
      ...(values.toCustomer ? { recipient: '' } : {}),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function replaceStoredAnswer(tx: Tx, workspaceId: string, key: string, body: string) {
  await tx
    .updateTable('idempotency_keys')
    .set({ response_body: body })
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .execute();
}

/**
 * Customers of the workspace, not erased, created before `before` and with no booking starting
 * on or after it: the retention sweep's next few.
 */
export async function staleCustomers(
  db: Db,
  workspaceId: string,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('customers as c')
    .select('c.id')
    .where('c.workspace_id', '=', workspaceId)
    .where('c.erased_at', 'is', null)
    .where('c.created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('bookings as b')
            .select('b.id')
            .whereRef('b.workspace_id', '=', 'c.workspace_id')
            .whereRef('b.customer_id', '=', 'c.id')
            .where('b.start_time', '>=', before),
        ),
      ),
    )
    .orderBy('c.created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Workspaces that opted in to a retention period, with it. */
export async function workspacesWithRetention(db: Db) {
  return db
    .selectFrom('workspaces')
    .select(['id', 'customer_retention_months'])
    .where('customer_retention_months', 'is not', null)
    .execute();
}

/** The texts sent about the customer's bookings or to their number (src/text-messages/). */
export async function textsOf(db: Db, workspaceId: string, bookingIds: string[], phone: string) {
  if (bookingIds.length === 0 && phone === '') return [];
  return db
    .selectFrom('text_messages')
    .select([
      'id',
      'booking_id',
      'kind',
      'channel',
      'recipient',
      'body',
      'snapshot',
      'state',
      'sent_at',
      'created_at',
    ])
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        ...(bookingIds.length > 0 ? [eb('booking_id', 'in', bookingIds)] : []),
        ...(phone !== '' ? [eb('recipient', '=', phone)] : []),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** What the customer's number sent us (STOP, CONFIRM, ...). */
export async function inboundTextsOf(db: Db, workspaceId: string, phone: string) {
  if (phone === '') return [];
  return db
    .selectFrom('text_inbound')
    .select(['provider_message_id', 'body', 'action', 'booking_id', 'received_at'])
    .where('workspace_id', '=', workspaceId)
    .where('phone', '=', phone)
    .orderBy('received_at')
    .execute();
}

/** The number's text-message state (STOP / START), when it has one. */
export async function textOptOutOf(db: Db, workspaceId: string, phone: string) {
  if (phone === '') return undefined;
  return db
    .selectFrom('text_opt_outs')
    .select(['opted_out', 'keyword', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .where('phone', '=', phone)
    .executeTakeFirst();
}

/** Consent to texts given on the booking page, per booking (null: not asked). */
export async function textConsentsOf(db: Db, workspaceId: string, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('bookings')
    .select(['id', 'text_consent', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', bookingIds)
    .where('text_consent', 'is not', null)
    .orderBy('created_at')
    .execute();
}

/** A text about the customer keeps its kind, state, segments and price, and loses what it said and where. */
export async function eraseText(
  tx: Tx,
  workspaceId: string,
  id: string,
  values: { snapshot: Record<string, unknown>; toCustomer: boolean },
) {
  await tx
    .updateTable('text_messages')
    .set({
      snapshot: JSON.stringify(values.snapshot),
      body: null,
      ...(values.toCustomer ? { recipient: '' } : {}),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * What the number sent us loses the number and the words; the action it caused stays. The
 * opt-out itself (text_opt_outs) is kept: it is what stops texts to that number if it ever books
 * again, which the customer asked for.
 */
export async function eraseInboundTexts(tx: Tx, workspaceId: string, phone: string) {
  if (phone === '') return;
  await tx
    .updateTable('text_inbound')
    .set({ phone: '', body: '' })
    .where('workspace_id', '=', workspaceId)
    .where('phone', '=', phone)
    .execute();
}

/** The customer's waitlist entries (src/waitlist/), oldest first, with the offers made to them. */
export async function waitlistOfCustomer(db: Db, workspaceId: string, customerId: string) {
  const entries = await db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('customer_id', '=', customerId)
    .orderBy('joined_at')
    .orderBy('id')
    .execute();
  if (entries.length === 0) return [];
  const offers = await db
    .selectFrom('waitlist_offers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(
      'entry_id',
      'in',
      entries.map((entry) => entry.id),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return entries.map((entry) => ({ entry, offers: offers.filter((offer) => offer.entry_id === entry.id) }));
}

/**
 * Erasing a customer takes them off every waitlist: their entries still in line are left (the
 * wanted times, the language and the source cleared), and their open offers withdrawn, so no
 * offer of a freed time reaches an erased person.
 */
export async function eraseWaitlistEntries(tx: Tx, workspaceId: string, customerId: string, at: Date) {
  const inLine = await tx
    .updateTable('waitlist_entries')
    .set({ state: 'left', updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('customer_id', '=', customerId)
    .where('state', 'in', ['waiting', 'offered'])
    .returning('id')
    .execute();
  await tx
    .updateTable('waitlist_entries')
    .set({ windows: '[]', any_time: true, language: null, source: '', updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('customer_id', '=', customerId)
    .execute();
  if (inLine.length === 0) return;
  await tx
    .updateTable('waitlist_offers')
    .set({ state: 'withdrawn', updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where(
      'entry_id',
      'in',
      inLine.map((entry) => entry.id),
    )
    .where('state', '=', 'open')
    .execute();
}
