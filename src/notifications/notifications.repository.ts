import type { Db } from '../platform/db/client.js';
import type { Role } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/** Locations' names and addresses by id, for what emails say. */
export async function locationAddresses(db: Db, workspaceId: string, locationIds: string[]) {
  const rows =
    locationIds.length === 0
      ? []
      : await db
          .selectFrom('locations')
          .select(['id', 'name', 'address_1', 'address_2', 'postal_code', 'city'])
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', locationIds)
          .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The language each of these bookings was made in (the booking page's), by booking id; null = none. */
export async function bookingLanguages(
  db: Db,
  workspaceId: string,
  bookingIds: string[],
): Promise<Map<string, string | null>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('bookings')
    .select(['id', 'language'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', bookingIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.language]));
}

/**
 * Where these staffers' booking emails go, by staffer id, archived ones included (a booking keeps
 * its staffer): their own address, what they chose, and the email of the member who is the
 * staffer (memberships.staffer_id), which wins over their own.
 */
export async function stafferRecipients(
  db: Db,
  workspaceId: string,
  stafferIds: string[],
): Promise<Map<string, StafferNotificationRow>> {
  if (stafferIds.length === 0) return new Map();
  const rows = await stafferRecipientsQuery(db, workspaceId).where('s.id', 'in', stafferIds).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function saveNotificationSettings(
  tx: Tx,
  workspaceId: string,
  stored: Record<string, unknown>,
  now: number,
): Promise<void> {
  await tx
    .updateTable('workspaces')
    .set({ notification_settings: JSON.stringify(stored), updated_at: new Date(now) })
    .where('id', '=', workspaceId)
    .execute();
}

export interface StafferNotificationRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  /** The member who is this staffer (memberships.staffer_id), or null. */
  user_id: string | null;
  booking_emails: string[];
  /** That member's email, else null. */
  user_email: string | null;
}

/**
 * The workspace's live staffers with where their booking emails go; with `onlyUserId`, just the
 * staffer that user is.
 */
export async function listStafferRecipients(
  db: Db,
  workspaceId: string,
  onlyUserId?: string,
): Promise<StafferNotificationRow[]> {
  let query = stafferRecipientsQuery(db, workspaceId).where('s.archived_at', 'is', null);
  if (onlyUserId) query = query.where('m.user_id', '=', onlyUserId);
  return query.orderBy('s.created_at').orderBy('s.id').execute();
}

function stafferRecipientsQuery(db: Db, workspaceId: string) {
  return db
    .selectFrom('staffers as s')
    .leftJoin('memberships as m', (j) =>
      j.onRef('m.workspace_id', '=', 's.workspace_id').onRef('m.staffer_id', '=', 's.id'),
    )
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select([
      's.id',
      's.first_name',
      's.last_name',
      's.email',
      'm.user_id',
      's.booking_emails',
      'u.email as user_email',
    ])
    .where('s.workspace_id', '=', workspaceId);
}

/**
 * A member's link, their membership row locked until the transaction ends (two forms linking one
 * member take turns): the staffer they are now, with its name while it is live. Undefined: no
 * such member.
 */
export async function lockMemberLink(
  tx: Tx,
  workspaceId: string,
  userId: string,
): Promise<{ stafferId: string | null; liveStafferName: string | undefined } | undefined> {
  const membership = await tx
    .selectFrom('memberships')
    .select('staffer_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!membership) return undefined;
  if (membership.staffer_id === null) return { stafferId: null, liveStafferName: undefined };
  const staffer = await tx
    .selectFrom('staffers')
    .select(['first_name', 'last_name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', membership.staffer_id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return {
    stafferId: membership.staffer_id,
    liveStafferName: staffer && `${staffer.first_name} ${staffer.last_name}`.trim(),
  };
}

/**
 * Makes `userId` the one member who is `stafferId` (null: no member is): whoever was it before
 * no longer is, and the user's link to any other staffer is replaced.
 */
export async function setStafferMember(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  userId: string | null,
): Promise<void> {
  let clear = tx
    .updateTable('memberships')
    .set({ staffer_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId);
  if (userId !== null) clear = clear.where('user_id', '!=', userId);
  await clear.execute();
  if (userId === null) return;
  await tx
    .updateTable('memberships')
    .set({ staffer_id: stafferId })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

/** Members of the workspace, to link a staffer to. */
export async function listMembers(
  db: Db,
  workspaceId: string,
): Promise<{ user_id: string; email: string; name: string; role: Role }[]> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'm.role'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('u.email')
    .execute();
}

export async function updateStafferRecipient(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  values: { email?: string | null; booking_emails?: string[] },
  now: number,
): Promise<boolean> {
  const row = await tx
    .updateTable('staffers')
    .set({
      ...(values.email !== undefined ? { email: values.email } : {}),
      ...(values.booking_emails !== undefined
        ? { booking_emails: JSON.stringify(values.booking_emails) }
        : {}),
      updated_at: new Date(now),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stafferId)
    .where('archived_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
