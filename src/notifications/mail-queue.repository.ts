import { type Selectable, sql } from 'kysely';
import { claimDueQueueMessages, type MessageQueue } from '../outbox/message-queue.repository.js';
import { ALL_PARTITIONS } from '../outbox/partitions.js';
import type { Db } from '../platform/db/client.js';
import type { MailKind, MailMessagesTable, MailState } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { MailSnapshot } from './mail-message.js';

export type MailRow = Selectable<MailMessagesTable>;

/** A message to queue, in the transaction that dispatches the event of the change it tells of. */
export interface NewMessage {
  bookingId: string | null;
  kind: MailKind;
  revision: number;
  messageKey: string;
  recipient: string;
  snapshot: MailSnapshot;
  dueAt: number;
  startsAt: number | null;
}

/**
 * Queues messages of one workspace. A key that exists already is left as it is: a message per
 * booking, kind, revision and variant is queued at most once. The rows go as one JSON document
 * that the store unpacks (jsonb_to_recordset), not as a parameter per column and row: a
 * dispatcher's batch of a few hundred messages is one string to send, where thousands of bound
 * values cost the server's process several times the CPU.
 */
export async function insertMessages(
  tx: Tx,
  workspaceId: string,
  messages: NewMessage[],
  now: number,
): Promise<void> {
  if (messages.length === 0) return;
  const rows = JSON.stringify(
    messages.map((m) => ({
      booking_id: m.bookingId,
      kind: m.kind,
      revision: m.revision,
      message_key: m.messageKey,
      recipient: m.recipient,
      snapshot: m.snapshot,
      due_at: new Date(m.dueAt).toISOString(),
      starts_at: m.startsAt === null ? null : new Date(m.startsAt).toISOString(),
    })),
  );
  await sql`
    INSERT INTO mail_messages
      (workspace_id, booking_id, kind, revision, message_key, recipient, snapshot, due_at, starts_at,
       next_attempt_at, updated_at)
    SELECT ${workspaceId}::uuid, r.booking_id, r.kind, r.revision, r.message_key, r.recipient, r.snapshot,
      r.due_at, r.starts_at, r.due_at, ${new Date(now)}::timestamptz
    FROM jsonb_to_recordset(${rows}::jsonb) AS r(booking_id uuid, kind text, revision int,
      message_key text, recipient text, snapshot jsonb, due_at timestamptz, starts_at timestamptz)
    ON CONFLICT (workspace_id, message_key) DO NOTHING`.execute(tx);
}

/**
 * Bookings changed or ended: their reminders of earlier revisions not yet claimed are dropped (a
 * new plan, if any, was queued with the change's revision). One statement for the batch.
 */
export async function dropRemindersBefore(
  tx: Tx,
  workspaceId: string,
  changes: { bookingId: string; revision: number }[],
  now: number,
): Promise<void> {
  if (changes.length === 0) return;
  const rows = changes.map((change) => sql`(${change.bookingId}::uuid, ${change.revision}::int)`);
  await sql`
    UPDATE mail_messages AS m
    SET state = 'dropped', updated_at = ${new Date(now)}, last_response = 'dropped: the booking changed'
    FROM (VALUES ${sql.join(rows)}) AS v(booking_id, revision)
    WHERE m.workspace_id = ${workspaceId} AND m.booking_id = v.booking_id
      AND m.kind = 'reminder' AND m.state = 'pending' AND m.revision < v.revision`.execute(tx);
}

/**
 * Claims up to `limit` due messages of the given partitions (src/outbox/message-queue.repository.ts):
 * a message whose worker died mid-send goes again, with the same Message-ID.
 */
export function claimDueMessages(
  db: Db,
  now: number,
  leaseUntil: number,
  limit: number,
  partitions: readonly number[] = ALL_PARTITIONS,
): Promise<MailRow[]> {
  return claimDueQueueMessages<MailRow>(db, MAIL_QUEUE, now, leaseUntil, limit, partitions);
}

const MAIL_QUEUE: MessageQueue = { table: 'mail_messages', markInDoubt: false };

/** What an attempt ended in. */
export interface AttemptRecord {
  state: Extract<MailState, 'pending' | 'sent' | 'logged' | 'failed' | 'expired'>;
  /** For `pending`: when to try again. */
  nextAttemptAt?: number;
  response: string;
  subject?: string;
  bodyText?: string;
  sentAt?: number;
}

/**
 * Records the ends of attempts of one workspace in one statement, each only while its claim
 * still owns the message (state `sending`, same attempt number): one statement per round and
 * workspace, not one per message, so the worker keeps up on a busy embedded store. Answers the
 * ids that were recorded; a missing one was taken by another claim meanwhile (its lease ran out).
 */
export async function recordAttempts(
  db: Db,
  workspaceId: string,
  attempts: { claimed: MailRow; record: AttemptRecord }[],
  now: number,
): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  const at = new Date(now);
  const rows = attempts.map(
    ({ claimed, record }) =>
      sql`(${claimed.id}::uuid, ${claimed.attempt_count}::int, ${record.state}::text,
        ${new Date(record.nextAttemptAt ?? now)}::timestamptz, ${record.response}::text,
        ${record.subject ?? null}::text, ${record.bodyText ?? null}::text,
        ${record.sentAt === undefined ? null : new Date(record.sentAt)}::timestamptz)`,
  );
  const result = await sql<{ id: string }>`
    UPDATE mail_messages AS m
    SET state = v.state, next_attempt_at = v.next_attempt_at, last_response = v.last_response,
        subject = coalesce(v.subject, m.subject), body_text = coalesce(v.body_text, m.body_text),
        sent_at = coalesce(v.sent_at, m.sent_at), updated_at = ${at}
    FROM (VALUES ${sql.join(rows)})
      AS v(id, attempt_count, state, next_attempt_at, last_response, subject, body_text, sent_at)
    WHERE m.workspace_id = ${workspaceId} AND m.id = v.id
      AND m.state = 'sending' AND m.attempt_count = v.attempt_count
    RETURNING m.id`.execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/** The mail log of a workspace, newest first. */
export async function listMailLog(
  db: Db,
  workspaceId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: MailRow[]; total: number }> {
  const rows = await db
    .selectFrom('mail_messages')
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

export async function findMessage(db: Db, workspaceId: string, id: string): Promise<MailRow | undefined> {
  return db
    .selectFrom('mail_messages')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Messages not yet done with (pending or being sent) across all workspaces, and how many are due. */
export async function openMessageFigures(db: Db, now: number): Promise<{ open: number; due: number }> {
  const row = await db
    .selectFrom('mail_messages')
    .select([
      sql<number>`count(*)::int`.as('open'),
      // A claimed message's next_attempt_at is its lease's end: it counts as due while it is out.
      sql<number>`count(*) FILTER (WHERE state = 'sending' OR next_attempt_at <= ${new Date(now)})::int`.as(
        'due',
      ),
    ])
    .where('state', 'in', ['pending', 'sending'])
    .executeTakeFirstOrThrow();
  return row;
}
