import type { Selectable } from 'kysely';
import { viewQuery } from '../bookings/bookings.repository.js';
import type { Db } from '../platform/db/client.js';
import type { CalendarFeedsTable } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { FeedBooking } from './calendar-file.js';

/** All the SQL of calendar feeds (docs/calendar-feeds.md); every statement names its workspace. */

export type CalendarFeedRow = Selectable<CalendarFeedsTable>;

/** Whose feed: a staffer's bookings, or a member's own (the bookings of the staffer they are). */
export type FeedOwner = { stafferId: string } | { userId: string };

const ownerColumn = (owner: FeedOwner) =>
  'stafferId' in owner
    ? ({ column: 'staffer_id', id: owner.stafferId } as const)
    : ({ column: 'user_id', id: owner.userId } as const);

export function findFeedByTokenHash(
  db: Db,
  workspaceId: string,
  hash: string,
): Promise<CalendarFeedRow | undefined> {
  return db
    .selectFrom('calendar_feeds')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('token_hash', '=', hash)
    .executeTakeFirst();
}

export function findFeed(
  db: Db,
  workspaceId: string,
  owner: FeedOwner,
): Promise<CalendarFeedRow | undefined> {
  const { column, id } = ownerColumn(owner);
  return db
    .selectFrom('calendar_feeds')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', id)
    .executeTakeFirst();
}

/** The owner's feed row, locked for the rest of the transaction (regenerations take turns). */
export function lockFeed(
  tx: Tx,
  workspaceId: string,
  owner: FeedOwner,
): Promise<CalendarFeedRow | undefined> {
  const { column, id } = ownerColumn(owner);
  return tx
    .selectFrom('calendar_feeds')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function insertFeed(
  tx: Tx,
  values: { workspaceId: string; id: string; owner: FeedOwner; nonce: string; tokenHash: string; at: Date },
): Promise<CalendarFeedRow> {
  const { column, id } = ownerColumn(values.owner);
  return tx
    .insertInto('calendar_feeds')
    .values({
      workspace_id: values.workspaceId,
      id: values.id,
      staffer_id: column === 'staffer_id' ? id : null,
      user_id: column === 'user_id' ? id : null,
      nonce: values.nonce,
      token_hash: values.tokenHash,
      created_at: values.at,
      regenerated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function renewFeed(
  tx: Tx,
  workspaceId: string,
  feedId: string,
  values: { nonce: string; tokenHash: string; at: Date },
): Promise<CalendarFeedRow> {
  return tx
    .updateTable('calendar_feeds')
    .set({ nonce: values.nonce, token_hash: values.tokenHash, regenerated_at: values.at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', feedId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The staffer a member is, or null. */
export async function stafferOfMember(db: Db, workspaceId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('memberships')
    .select('staffer_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.staffer_id ?? null;
}

/** "First Last" of a live staffer; undefined when archived or unknown (their feeds end). */
export async function liveStafferName(
  db: Db,
  workspaceId: string,
  stafferId: string,
): Promise<string | undefined> {
  const staffer = await db
    .selectFrom('staffers')
    .select(['first_name', 'last_name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stafferId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return staffer && `${staffer.first_name} ${staffer.last_name}`.trim();
}

/** Makes `userId` the member who is `stafferId` (null: none); false when there is no such member. */
export async function setMemberStaffer(
  tx: Tx,
  workspaceId: string,
  userId: string,
  stafferId: string | null,
): Promise<boolean> {
  if (stafferId !== null) {
    // A staffer is one member at most: whoever was it before is no longer.
    await tx
      .updateTable('memberships')
      .set({ staffer_id: null })
      .where('workspace_id', '=', workspaceId)
      .where('staffer_id', '=', stafferId)
      .where('user_id', '!=', userId)
      .execute();
  }
  const result = await tx
    .updateTable('memberships')
    .set({ staffer_id: stafferId })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface StafferFeedRow {
  staffer_id: string;
  first_name: string;
  last_name: string;
  /** The member who is this staffer, if any. */
  member_user_id: string | null;
  member_email: string | null;
  member_name: string | null;
  feed_id: string | null;
  nonce: string | null;
  regenerated_at: Date | null;
}

/** The workspace's live staffers with their feed (if made) and the member who is them (if any). */
export function listStafferFeeds(db: Db, workspaceId: string): Promise<StafferFeedRow[]> {
  return db
    .selectFrom('staffers as s')
    .leftJoin('calendar_feeds as f', (j) =>
      j.onRef('f.workspace_id', '=', 's.workspace_id').onRef('f.staffer_id', '=', 's.id'),
    )
    .leftJoin('memberships as m', (j) =>
      j.onRef('m.workspace_id', '=', 's.workspace_id').onRef('m.staffer_id', '=', 's.id'),
    )
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select([
      's.id as staffer_id',
      's.first_name',
      's.last_name',
      'm.user_id as member_user_id',
      'u.email as member_email',
      'u.name as member_name',
      'f.id as feed_id',
      'f.nonce',
      'f.regenerated_at',
    ])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.archived_at', 'is', null)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
}

/**
 * The feed's bookings: one staffer's, starting in [from, to), canceled ones left out (they leave
 * subscribed calendars at their next refresh), at most `limit`, earliest first.
 */
export async function feedBookings(
  db: Db,
  workspaceId: string,
  stafferId: string,
  range: { from: Date; to: Date; limit: number },
): Promise<FeedBooking[]> {
  return (await viewQuery(db, workspaceId)
    .select(['l.name as location_name', 'l.address_1 as location_address', 'l.city as location_city'])
    .where('b.staffer_id', '=', stafferId)
    .where('b.start_time', '>=', range.from)
    .where('b.start_time', '<', range.to)
    .where('s.type', '!=', 'canceled')
    .orderBy('b.start_time')
    .orderBy('b.id')
    .limit(range.limit)
    .execute()) as FeedBooking[];
}
