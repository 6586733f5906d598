import type { Db } from '../platform/db/client.js';
import type { Role } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/** The email of a panel user while they are a member of the workspace. */
export async function linkedUserEmail(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return row?.email;
}

export async function locationAddress(db: Db, workspaceId: string, locationId: string) {
  return db
    .selectFrom('locations')
    .select(['name', 'address_1', 'address_2', 'postal_code', 'city'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', locationId)
    .executeTakeFirst();
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
  user_id: string | null;
  booking_emails: string[];
  /** The linked user's email while they are a member, else null. */
  user_email: string | null;
}

/** The workspace's live staffers with where their booking emails go. */
export async function listStafferRecipients(
  db: Db,
  workspaceId: string,
  onlyUserId?: string,
): Promise<StafferNotificationRow[]> {
  let query = db
    .selectFrom('staffers as s')
    .leftJoin('memberships as m', (j) =>
      j.onRef('m.workspace_id', '=', 's.workspace_id').onRef('m.user_id', '=', 's.user_id'),
    )
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select([
      's.id',
      's.first_name',
      's.last_name',
      's.email',
      's.user_id',
      's.booking_emails',
      'u.email as user_email',
    ])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.archived_at', 'is', null);
  if (onlyUserId) query = query.where('s.user_id', '=', onlyUserId);
  return query.orderBy('s.created_at').orderBy('s.id').execute();
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
  values: { email?: string | null; user_id?: string | null; booking_emails?: string[] },
  now: number,
): Promise<boolean> {
  const row = await tx
    .updateTable('staffers')
    .set({
      ...(values.email !== undefined ? { email: values.email } : {}),
      ...(values.user_id !== undefined ? { user_id: values.user_id } : {}),
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
