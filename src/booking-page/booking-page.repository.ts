import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

/**
 * The booking page's own SQL: form tokens of submitted booking forms (a double submit finds the
 * first submit's booking). Reference data and bookings are read through their features'
 * repositories.
 */

/** A claim whose create never finished (the process died) is released after this. */
const ABANDONED_AFTER_MS = 2 * 60_000;

export type Claim = { claimed: true } | { claimed: false; bookingId: string | null };

/**
 * Takes the form token for this submit. A token already taken answers the booking it made (or
 * null while that submit is still running); one abandoned without a booking is taken over.
 */
export async function claimFormToken(db: Db, workspaceId: string, token: string): Promise<Claim> {
  const claimed = await db
    .insertInto('booking_page_submissions')
    .values({ workspace_id: workspaceId, token })
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'token'])
        // The proposed row's default, now(): Citus refuses functions in an upsert's DO UPDATE.
        .doUpdateSet({ created_at: sql`excluded.created_at` })
        .where(({ eb, and }) =>
          and([
            eb('booking_page_submissions.booking_id', 'is', null),
            // A bound cut-off (Citus allows only IMMUTABLE functions here), on the real clock
            // like the database's that stamped created_at.
            eb('booking_page_submissions.created_at', '<', new Date(Date.now() - ABANDONED_AFTER_MS)),
          ]),
        ),
    )
    .returning('token')
    .executeTakeFirst();
  if (claimed) return { claimed: true };
  const row = await db
    .selectFrom('booking_page_submissions')
    .select('booking_id')
    .where('workspace_id', '=', workspaceId)
    .where('token', '=', token)
    .executeTakeFirst();
  return { claimed: false, bookingId: row?.booking_id ?? null };
}

/** The booking a form token made, null while its submit still runs, undefined when released. */
export async function formTokenBooking(
  db: Db,
  workspaceId: string,
  token: string,
): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('booking_page_submissions')
    .select('booking_id')
    .where('workspace_id', '=', workspaceId)
    .where('token', '=', token)
    .executeTakeFirst();
  return row ? row.booking_id : undefined;
}

export async function recordFormBooking(
  db: Db,
  workspaceId: string,
  token: string,
  bookingId: string,
): Promise<void> {
  await db
    .updateTable('booking_page_submissions')
    .set({ booking_id: bookingId })
    .where('workspace_id', '=', workspaceId)
    .where('token', '=', token)
    .execute();
}

/** A submit that made no booking gives its token back, so the customer can submit again. */
export async function releaseFormToken(db: Db, workspaceId: string, token: string): Promise<void> {
  await db
    .deleteFrom('booking_page_submissions')
    .where('workspace_id', '=', workspaceId)
    .where('token', '=', token)
    .where('booking_id', 'is', null)
    .execute();
}
