import { type Selectable, sql } from 'kysely';
import { claimDueQueueMessages, type MessageQueue } from '../outbox/message-queue.repository.js';
import { ALL_PARTITIONS } from '../outbox/partitions.js';
import type { Db } from '../platform/db/client.js';
import type { TextKind, TextMessagesTable, TextProviderName, TextState } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { TextSnapshot } from './text-render.js';

export type TextRow = Selectable<TextMessagesTable>;

/** A text to queue, in the transaction that dispatches the event of the change it tells of. */
export interface NewText {
  bookingId: string | null;
  kind: TextKind;
  revision: number;
  messageKey: string;
  channel: 'sms' | 'whatsapp';
  recipient: string;
  provider: TextProviderName;
  snapshot: TextSnapshot;
  dueAt: number;
  startsAt: number | null;
}

/**
 * Queues texts of one workspace; a key that exists already is left as it is, so a change's text
 * of a kind is queued at most once, however often its event is dispatched. One JSON document for
 * the batch (as the mail queue does).
 */
export async function insertTexts(
  tx: Tx | Db,
  workspaceId: string,
  texts: NewText[],
  now: number,
): Promise<void> {
  if (texts.length === 0) return;
  const rows = JSON.stringify(
    texts.map((m) => ({
      booking_id: m.bookingId,
      kind: m.kind,
      revision: m.revision,
      message_key: m.messageKey,
      channel: m.channel,
      recipient: m.recipient,
      provider: m.provider,
      snapshot: m.snapshot,
      due_at: new Date(m.dueAt).toISOString(),
      starts_at: m.startsAt === null ? null : new Date(m.startsAt).toISOString(),
    })),
  );
  await sql`
    INSERT INTO text_messages
      (workspace_id, booking_id, kind, revision, message_key, channel, recipient, provider, snapshot,
       due_at, starts_at, next_attempt_at, updated_at)
    SELECT ${workspaceId}::uuid, r.booking_id, r.kind, r.revision, r.message_key, r.channel, r.recipient,
      r.provider, r.snapshot, r.due_at, r.starts_at, r.due_at, ${new Date(now)}::timestamptz
    FROM jsonb_to_recordset(${rows}::jsonb) AS r(booking_id uuid, kind text, revision int,
      message_key text, channel text, recipient text, provider text, snapshot jsonb,
      due_at timestamptz, starts_at timestamptz)
    ON CONFLICT (workspace_id, message_key) DO NOTHING`.execute(tx);
}

/** Bookings changed or ended: their pending text reminders of earlier revisions are dropped. */
export async function dropTextRemindersBefore(
  tx: Tx,
  workspaceId: string,
  changes: { bookingId: string; revision: number }[],
  now: number,
): Promise<void> {
  if (changes.length === 0) return;
  const rows = changes.map((change) => sql`(${change.bookingId}::uuid, ${change.revision}::int)`);
  await sql`
    UPDATE text_messages AS m
    SET state = 'dropped', updated_at = ${new Date(now)}, last_response = 'dropped: the booking changed'
    FROM (VALUES ${sql.join(rows)}) AS v(booking_id, revision)
    WHERE m.workspace_id = ${workspaceId} AND m.booking_id = v.booking_id
      AND m.kind = 'reminder' AND m.state = 'pending' AND m.revision < v.revision`.execute(tx);
}

/**
 * Claims up to `limit` due texts of the given partitions, like the mail queue
 * (src/outbox/message-queue.repository.ts). A lease that ran out marks the text `in_doubt`: its
 * worker may have reached the provider and died before recording the answer.
 */
export function claimDueTexts(
  db: Db,
  now: number,
  leaseUntil: number,
  limit: number,
  partitions: readonly number[] = ALL_PARTITIONS,
): Promise<TextRow[]> {
  return claimDueQueueMessages<TextRow>(db, TEXT_QUEUE, now, leaseUntil, limit, partitions);
}

const TEXT_QUEUE: MessageQueue = { table: 'text_messages', markInDoubt: true };

/** What an attempt ended in. */
export interface TextAttempt {
  state: Extract<
    TextState,
    'pending' | 'sent' | 'delivered' | 'failed' | 'undelivered' | 'logged' | 'opted_out' | 'expired'
  >;
  nextAttemptAt?: number;
  response: string;
  providerRef?: string;
  priceMicros?: number;
  priceUnit?: string;
  sentAt?: number;
  body?: string;
  segments?: number;
  encoding?: 'gsm7' | 'ucs2';
}

/**
 * Records the ends of attempts of one workspace, each only while its claim still owns the text
 * (state `sending`, same attempt number). Answers the ids recorded. A text whose answer was
 * recorded is no longer in doubt.
 */
export async function recordTextAttempts(
  db: Db,
  workspaceId: string,
  attempts: { claimed: TextRow; record: TextAttempt }[],
  now: number,
): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  const rows = attempts.map(
    ({ claimed, record }) =>
      sql`(${claimed.id}::uuid, ${claimed.attempt_count}::int, ${record.state}::text,
        ${new Date(record.nextAttemptAt ?? now)}::timestamptz, ${record.response}::text,
        ${record.providerRef ?? null}::text, ${record.priceMicros ?? null}::bigint, ${record.priceUnit ?? null}::text,
        ${record.sentAt === undefined ? null : new Date(record.sentAt)}::timestamptz,
        ${record.body ?? null}::text, ${record.segments ?? null}::int, ${record.encoding ?? null}::text)`,
  );
  const result = await sql<{ id: string }>`
    UPDATE text_messages AS m
    SET state = v.state, next_attempt_at = v.next_attempt_at, last_response = v.last_response,
        provider_ref = coalesce(v.provider_ref, m.provider_ref),
        price_micros = coalesce(v.price_micros, m.price_micros), price_unit = coalesce(v.price_unit, m.price_unit),
        sent_at = coalesce(v.sent_at, m.sent_at), in_doubt = false, updated_at = ${new Date(now)},
        body = coalesce(v.body, m.body), segments = coalesce(v.segments, m.segments),
        encoding = coalesce(v.encoding, m.encoding)
    FROM (VALUES ${sql.join(rows)})
      AS v(id, attempt_count, state, next_attempt_at, last_response, provider_ref, price_micros, price_unit,
        sent_at, body, segments, encoding)
    WHERE m.workspace_id = ${workspaceId} AND m.id = v.id
      AND m.state = 'sending' AND m.attempt_count = v.attempt_count
    RETURNING m.id`.execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/** The order in which delivery statuses may follow each other: a late "sent" never undoes "delivered". */
const STATUS_RANK: Partial<Record<TextState, number>> = {
  sending: 0,
  sent: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
};

/**
 * A provider's status callback on a message it took: the state moves forward only (callbacks may
 * arrive out of order or twice), the price is kept when given. Matched by the provider's
 * reference, or by our id when the callback names it (a message whose send answer was lost).
 */
export async function applyTextStatus(
  db: Db,
  workspaceId: string,
  match: { ref: string; id?: string | undefined },
  update: {
    state: 'sent' | 'delivered' | 'failed' | 'undelivered';
    response: string;
    priceMicros?: number | undefined;
    priceUnit?: string | undefined;
  },
  now: number,
): Promise<TextRow | undefined> {
  const row = await db
    .selectFrom('text_messages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      match.id
        ? eb.or([eb('provider_ref', '=', match.ref), eb('id', '=', match.id)])
        : eb('provider_ref', '=', match.ref),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  const rank = STATUS_RANK[row.state];
  const moves = rank !== undefined && (STATUS_RANK[update.state] ?? 0) > rank;
  return db
    .updateTable('text_messages')
    .set({
      ...(moves ? { state: update.state, last_response: update.response, in_doubt: false } : {}),
      // A message whose send answer never got recorded learns its reference here.
      provider_ref: row.provider_ref ?? match.ref,
      ...(update.priceMicros !== undefined
        ? { price_micros: update.priceMicros, price_unit: update.priceUnit ?? row.price_unit }
        : {}),
      ...(moves && row.sent_at === null ? { sent_at: new Date(now) } : {}),
      updated_at: new Date(now),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirst();
}

/** The numbers of `phones` that opted out of a workspace's texts. */
export async function optedOutOf(db: Db | Tx, workspaceId: string, phones: string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await db
    .selectFrom('text_opt_outs')
    .select('phone')
    .where('workspace_id', '=', workspaceId)
    .where('phone', 'in', phones)
    .where('opted_out', '=', true)
    .execute();
  return new Set(rows.map((row) => row.phone));
}

export async function setOptOut(
  tx: Tx,
  workspaceId: string,
  phone: string,
  optedOut: boolean,
  keyword: string,
  now: number,
) {
  await tx
    .insertInto('text_opt_outs')
    .values({ workspace_id: workspaceId, phone, opted_out: optedOut, keyword, updated_at: new Date(now) })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'phone']).doUpdateSet({
        opted_out: optedOut,
        keyword,
        updated_at: new Date(now),
      }),
    )
    .execute();
}

export async function findOptOut(db: Db, workspaceId: string, phone: string) {
  return db
    .selectFrom('text_opt_outs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('phone', '=', phone)
    .executeTakeFirst();
}

/**
 * Records an inbound message once per provider message id: false when it was recorded already (a
 * provider's retry), and the caller then changes nothing.
 */
export async function recordInbound(
  tx: Tx,
  row: {
    workspaceId: string;
    provider: string;
    messageId: string;
    phone: string;
    body: string;
    action: string;
    bookingId: string | null;
  },
  now: number,
): Promise<boolean> {
  const inserted = await tx
    .insertInto('text_inbound')
    .values({
      workspace_id: row.workspaceId,
      provider: row.provider,
      provider_message_id: row.messageId,
      phone: row.phone,
      body: row.body,
      action: row.action,
      booking_id: row.bookingId,
      received_at: new Date(now),
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'provider', 'provider_message_id']).doNothing())
    .returning('provider_message_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findInbound(db: Db | Tx, workspaceId: string, provider: string, messageId: string) {
  return db
    .selectFrom('text_inbound')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('provider', '=', provider)
    .where('provider_message_id', '=', messageId)
    .executeTakeFirst();
}

/** The text log of a workspace, newest first. */
export async function listTextLog(
  db: Db,
  workspaceId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: TextRow[]; total: number }> {
  const rows = await db
    .selectFrom('text_messages')
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/**
 * Per calendar month (UTC) and price unit: texts that left, their segments and the provider's
 * price, newest month first.
 */
export async function monthlyTextTotals(db: Db, workspaceId: string, months = 6) {
  const rows = await db
    .selectFrom('text_messages')
    .select([
      sql<string>`to_char(date_trunc('month', coalesce(sent_at, created_at) AT TIME ZONE 'UTC'), 'YYYY-MM')`.as(
        'month',
      ),
      sql<string>`coalesce(price_unit, '')`.as('unit'),
      sql<number>`count(*)::int`.as('messages'),
      sql<number>`coalesce(sum(segments), 0)::int`.as('segments'),
      sql<number>`coalesce(sum(price_micros), 0)::bigint`.as('price_micros'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('state', 'in', ['sent', 'delivered', 'undelivered', 'failed'])
    .where('provider_ref', 'is not', null)
    .groupBy([sql`1`, sql`2`])
    .orderBy(sql`1`, 'desc')
    .limit(months * 4)
    .execute();
  return rows.map((row) => ({ ...row, price_micros: Number(row.price_micros) }));
}

/** The workspace's text settings and sealed credentials. */
export async function findTextConfig(db: Db | Tx, workspaceId: string) {
  return db
    .selectFrom('workspaces')
    .select([
      'id',
      'slug',
      'name',
      'locale',
      'contact_phone',
      'contact_email',
      'text_settings',
      'text_credentials',
    ])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
}

export async function saveTextConfig(
  tx: Tx,
  workspaceId: string,
  settings: Record<string, unknown>,
  credentials: string | null | undefined,
  now: number,
): Promise<void> {
  await tx
    .updateTable('workspaces')
    .set({
      text_settings: JSON.stringify(settings),
      ...(credentials !== undefined ? { text_credentials: credentials } : {}),
      updated_at: new Date(now),
    })
    .where('id', '=', workspaceId)
    .execute();
}

/** The quiet hours of locations, by id. */
export async function locationQuietHours(tx: Tx, workspaceId: string, ids: string[]) {
  if (ids.length === 0)
    return new Map<string, { name: string; address: string; quiet: string | null; zone: string }>();
  const rows = await tx
    .selectFrom('locations')
    .select(['id', 'name', 'address_1', 'city', 'text_quiet_hours', 'timezone'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        name: row.name,
        address: [row.address_1, row.city].filter(Boolean).join(', '),
        quiet: row.text_quiet_hours,
        zone: row.timezone,
      },
    ]),
  );
}

/** Booking language and text consent, by booking id. */
export async function bookingTextFacts(tx: Tx, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, { language: string | null; consent: boolean | null }>();
  const rows = await tx
    .selectFrom('bookings')
    .select(['id', 'language', 'text_consent'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, { language: row.language, consent: row.text_consent }]));
}

/** The customer's next booking not yet over or final, by the phone it was made with. */
export async function nextBookingOfPhone(db: Db, workspaceId: string, phone: string, now: number) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('customers as c', (join) =>
      join.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .innerJoin('booking_statuses as s', (join) =>
      join.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 'b.workspace_id').onRef('l.id', '=', 'b.location_id'),
    )
    .select(['b.id', 'b.start_time', 's.type as status_type', 'b.language', 'l.timezone'])
    .where('b.workspace_id', '=', workspaceId)
    .where('c.phone', '=', phone)
    .where('b.start_time', '>', new Date(now))
    .where('s.type', 'not in', ['completed', 'canceled'])
    .orderBy('b.start_time')
    .limit(1)
    .executeTakeFirst();
}

/** The workspace's live locations with their quiet hours (null = the default). */
export async function listQuietHours(db: Db, workspaceId: string) {
  return db
    .selectFrom('locations')
    .select(['id', 'name', 'timezone', 'text_quiet_hours'])
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .orderBy('name')
    .execute();
}

/** Sets a location's quiet hours; false when the workspace has no such live location. */
export async function saveQuietHours(tx: Tx, workspaceId: string, locationId: string, value: string | null) {
  const result = await tx
    .updateTable('locations')
    .set({ text_quiet_hours: value })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', locationId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findText(db: Db | Tx, workspaceId: string, id: string): Promise<TextRow | undefined> {
  return db
    .selectFrom('text_messages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}
