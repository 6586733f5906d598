import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

export interface FailureCounts {
  webhooks: number;
  emails: number;
  texts: number;
  /** Charges (deposits, fees) the provider declined. */
  payments: number;
  /** Bookings holding their time while they wait for payment, now. */
  holds: number;
  /** Waitlist offers whose hold ended with nobody claiming them (docs/waitlist.md). */
  waitlistExpired: number;
  /** People on the waitlist waiting now, with no offer open. */
  waitlistWaiting: number;
}

/**
 * What failed for good since `since`: webhook deliveries that ran out of attempts, emails and
 * texts the worker gave up on or the carrier refused, charges the provider declined; and the
 * bookings holding their time unpaid now. One statement by workspace_id, each count on an index
 * that holds only such rows (or the period's).
 */
export async function failuresSince(db: Db, workspaceId: string, since: Date): Promise<FailureCounts> {
  const ws = workspaceId;
  const result = await sql<FailureCounts>`
    SELECT
      (SELECT count(*) FROM webhook_deliveries
        WHERE workspace_id = ${ws} AND state = 'failed' AND updated_at >= ${since}::timestamptz)::int AS webhooks,
      (SELECT count(*) FROM mail_messages
        WHERE workspace_id = ${ws} AND state = 'failed' AND updated_at >= ${since}::timestamptz)::int AS emails,
      (SELECT count(*) FROM text_messages
        WHERE workspace_id = ${ws} AND state IN ('failed', 'undelivered')
          AND updated_at >= ${since}::timestamptz)::int AS texts,
      (SELECT count(*) FROM payments
        WHERE workspace_id = ${ws} AND status = 'failed' AND created_at >= ${since}::timestamptz)::int AS payments,
      (SELECT count(*) FROM bookings
        WHERE workspace_id = ${ws} AND payment_state = 'awaiting_payment')::int AS holds,
      (SELECT count(*) FROM waitlist_offers
        WHERE workspace_id = ${ws} AND state = 'expired' AND updated_at >= ${since}::timestamptz)::int
        AS "waitlistExpired",
      (SELECT count(*) FROM waitlist_entries
        WHERE workspace_id = ${ws} AND state = 'waiting')::int AS "waitlistWaiting"`.execute(db);
  return (
    result.rows[0] ?? {
      webhooks: 0,
      emails: 0,
      texts: 0,
      payments: 0,
      holds: 0,
      waitlistExpired: 0,
      waitlistWaiting: 0,
    }
  );
}
