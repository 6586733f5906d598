import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { ALL_PARTITIONS } from './partitions.js';

/** At most this many workspaces are claimed in per round, so one round stays short. */
const WORKSPACES_PER_ROUND = 50;

/**
 * A queue of messages to customers and staff (emails, text messages): one row per message, with
 * `workspace_id`, `partition`, `booking_id`, `recipient`, `revision`, `kind`, `state`,
 * `attempt_count` and `next_attempt_at`. `markInDoubt`: a claim whose lease ran out sets
 * `in_doubt` (the provider may have taken the message before its worker died).
 */
export interface MessageQueue {
  table: 'mail_messages' | 'text_messages';
  markInDoubt: boolean;
}

/**
 * Claims up to `limit` due messages of the given partitions: pending ones whose time has come and
 * claimed ones whose lease ran out (their worker died mid-send: the message goes again). Like
 * webhook deliveries (src/webhooks/deliveries.repository.ts): workspaces with due work are found
 * by a plain read, then each is claimed by one statement that touches that workspace only.
 */
export async function claimDueQueueMessages<Row>(
  db: Db,
  queue: MessageQueue,
  now: number,
  leaseUntil: number,
  limit: number,
  partitions: readonly number[] = ALL_PARTITIONS,
): Promise<Row[]> {
  if (partitions.length === 0) return [];
  const at = new Date(now);
  const workspaces = await db
    .selectFrom((eb) =>
      eb
        .selectFrom(queue.table)
        .select(['workspace_id', 'partition'])
        .distinct()
        .where('partition', 'in', partitions)
        .where('state', 'in', ['pending', 'sending'])
        .where('next_attempt_at', '<=', at)
        .as('due'),
    )
    .select(['workspace_id', 'partition'])
    .orderBy(sql`random()`)
    .limit(Math.max(1, Math.min(Math.ceil(limit / 4), WORKSPACES_PER_ROUND)))
    .execute();
  if (workspaces.length === 0) return [];
  const share = Math.max(1, Math.floor(limit / workspaces.length));
  const claimed = await Promise.all(
    workspaces.map(({ workspace_id, partition }) =>
      claimInWorkspace<Row>(db, queue, workspace_id, partition, at, new Date(leaseUntil), share),
    ),
  );
  return claimed.flat();
}

/**
 * One workspace's claim: due messages become `sending` until `leaseUntil` (kept in
 * next_attempt_at) with the attempt number bumped. A message waits while an earlier one of its
 * booking to the same recipient is in flight or not yet tried, so a customer reads "confirmed"
 * before "canceled". The due condition is checked again on the row being updated, so two
 * workers racing for one row never both claim it. The workspace's partition lets the candidates
 * be read from the due index (partition, next_attempt_at): the workspace's reminders of later,
 * however many, are never scanned.
 */
async function claimInWorkspace<Row>(
  db: Db,
  queue: MessageQueue,
  workspaceId: string,
  partition: number,
  at: Date,
  leaseUntil: Date,
  limit: number,
): Promise<Row[]> {
  const table = sql.table(queue.table);
  const inDoubt = queue.markInDoubt ? sql`, in_doubt = m.in_doubt OR m.state = 'sending'` : sql``;
  const result = await sql<Row>`
    UPDATE ${table} AS m
    SET state = 'sending', attempt_count = m.attempt_count + 1, next_attempt_at = ${leaseUntil},
        updated_at = ${at}${inDoubt}
    WHERE m.workspace_id = ${workspaceId}
      AND m.state IN ('pending', 'sending') AND m.next_attempt_at <= ${at}
      AND m.id IN (
        SELECT c.id FROM ${table} AS c
        WHERE c.workspace_id = ${workspaceId} AND c.partition = ${partition}
          AND c.state IN ('pending', 'sending') AND c.next_attempt_at <= ${at}
          AND NOT EXISTS (
            SELECT 1 FROM ${table} AS e
            WHERE e.workspace_id = ${workspaceId} AND e.booking_id = c.booking_id
              AND e.recipient = c.recipient AND e.revision < c.revision AND e.kind <> 'reminder'
              AND ((e.state = 'sending' AND e.next_attempt_at > ${at})
                OR (e.state = 'pending' AND e.attempt_count = 0))
            -- Keeps this a lookup per candidate by (workspace_id, booking_id): see deliveries.repository.ts.
            OFFSET 0)
        ORDER BY c.next_attempt_at, c.revision, c.id
        LIMIT ${limit})
    RETURNING m.*`.execute(db);
  return result.rows;
}
