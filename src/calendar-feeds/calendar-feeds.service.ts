import { randomUUID } from 'node:crypto';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { findStaffer } from '../staffers/staffers.repository.js';
import { findMembership, findUserById } from '../users/users.repository.js';
import { findWorkspaceById, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import {
  type CalendarFeedRow,
  type FeedOwner,
  feedBookings,
  findFeed,
  findFeedByTokenHash,
  insertFeed,
  listStafferFeeds,
  liveStafferName,
  lockFeed,
  renewFeed,
  setMemberStaffer,
  stafferOfMember,
} from './calendar-feeds.repository.js';
import { calendarFeedFile } from './calendar-file.js';
import { feedToken, newNonce, tokenHash, workspaceOfToken } from './feed-token.js';

/**
 * Calendar feeds (docs/calendar-feeds.md): a secret `/ical/<token>.ics` per
 * staffer and per member, holding their bookings from 30 days back to the workspace's horizon.
 */

/** How far back a feed reaches. */
export const FEED_DAYS_BACK = 30;
/** At most this many events in one feed (the earliest first): a calendar refresh stays light. */
export const FEED_MAX_EVENTS = 5000;

export type { FeedOwner };

export function feedUrl(linkBase: string, token: string): string {
  return `${linkBase}/ical/${token}.ics`;
}

/** A feed as the panel and the CLI show it. */
export interface ShownFeed {
  url: string;
  regenerated_at: Date;
}

function shown(workspace: WorkspaceRow, feed: CalendarFeedRow, linkBase: string): ShownFeed {
  return {
    url: feedUrl(linkBase, feedToken(workspace, feed.id, feed.nonce)),
    regenerated_at: feed.regenerated_at,
  };
}

/** The owner's feed URL, or undefined while none was made. */
export async function showFeed(
  db: Db,
  workspace: WorkspaceRow,
  owner: FeedOwner,
  linkBase: string,
): Promise<ShownFeed | undefined> {
  const feed = await findFeed(db, workspace.id, owner);
  return feed && shown(workspace, feed, linkBase);
}

/** The feed URL of a row the caller already read (the panel's list of staffers). */
export function feedUrlOf(
  workspace: WorkspaceRow,
  feed: { id: string; nonce: string },
  linkBase: string,
): string {
  return feedUrl(linkBase, feedToken(workspace, feed.id, feed.nonce));
}

async function requireOwner(db: Db, workspaceId: string, owner: FeedOwner): Promise<void> {
  if ('stafferId' in owner) {
    if (!(await findStaffer(db, workspaceId, owner.stafferId))) throw notFound('Staffer');
  } else if (!(await findMembership(db, workspaceId, owner.userId))) {
    throw notFound('Member');
  }
}

/**
 * Makes the owner's feed, or gives it a new token: the old URL finds nothing from this commit on
 * (its hash is no longer stored), the new one works at once.
 */
export async function regenerateFeed(
  uow: UnitOfWork,
  workspace: WorkspaceRow,
  owner: FeedOwner,
  linkBase: string,
  now: number,
): Promise<ShownFeed> {
  await requireOwner(uow.db, workspace.id, owner);
  const feed = await uow.run(workspace.id, async (tx) => {
    const existing = await lockFeed(tx, workspace.id, owner);
    const nonce = newNonce();
    const id = existing?.id ?? randomUUID();
    const values = { nonce, tokenHash: tokenHash(feedToken(workspace, id, nonce)), at: new Date(now) };
    return existing
      ? renewFeed(tx, workspace.id, existing.id, values)
      : insertFeed(tx, { workspaceId: workspace.id, id, owner, ...values });
  });
  return shown(workspace, feed, linkBase);
}

/** Says which staffer a member is (null: none); their own feed then holds that staffer's bookings. */
export async function linkMemberToStaffer(
  uow: UnitOfWork,
  workspaceId: string,
  userId: string,
  stafferId: string | null,
): Promise<void> {
  if (stafferId !== null) await requireOwner(uow.db, workspaceId, { stafferId });
  const linked = await uow.run(workspaceId, (tx) => setMemberStaffer(tx, workspaceId, userId, stafferId));
  if (!linked) throw notFound('Member');
}

/**
 * The feed a token opens, as an RFC 5545 calendar, or undefined for any token that opens none
 * (malformed, unknown, regenerated, or its member removed): the route answers 404 alike.
 */
export async function renderFeed(
  db: Db,
  token: string,
  now: number,
  linkBase: string,
): Promise<string | undefined> {
  const workspaceId = workspaceOfToken(token);
  if (workspaceId === undefined) return undefined;
  const feed = await findFeedByTokenHash(db, workspaceId, tokenHash(token));
  if (!feed) return undefined;
  const workspace = await findWorkspaceById(db, workspaceId);
  if (!workspace) return undefined;
  // A staffer's feed ends when the staffer is archived; a member's then holds nothing.
  const stafferId = feed.staffer_id ?? (await stafferOfMember(db, workspaceId, feed.user_id!));
  const staffer = stafferId ? await liveStafferName(db, workspaceId, stafferId) : undefined;
  if (feed.staffer_id && staffer === undefined) return undefined;
  const from = new Date(now - FEED_DAYS_BACK * 86_400_000);
  const to = new Date(now + workspace.horizon_days * 86_400_000);
  const bookings =
    stafferId && staffer !== undefined
      ? await feedBookings(db, workspaceId, stafferId, { from, to, limit: FEED_MAX_EVENTS })
      : [];
  const owner = feed.staffer_id ? staffer : await memberName(db, feed.user_id!);
  return calendarFeedFile(bookings, {
    name: `${workspace.name} · ${owner}`,
    host: new URL(linkBase).hostname,
  });
}

async function memberName(db: Db, userId: string): Promise<string> {
  const user = await findUserById(db, userId);
  return user ? user.name || user.email : 'Member';
}

/** Every live staffer with their feed, if they have one (the admins' list). */
export function listStaffersWithFeeds(db: Db, workspaceId: string) {
  return listStafferFeeds(db, workspaceId);
}

/** The staffer a member is linked to (Settings → Notifications), or null. */
export function linkedStafferOf(db: Db, workspaceId: string, userId: string): Promise<string | null> {
  return stafferOfMember(db, workspaceId, userId);
}

/** A live staffer's name; undefined once archived or gone. */
export function stafferNameOf(db: Db, workspaceId: string, stafferId: string): Promise<string | undefined> {
  return liveStafferName(db, workspaceId, stafferId);
}
