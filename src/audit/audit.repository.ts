import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

export interface AuditEntryValues {
  workspaceId: string;
  actorType: 'user' | 'api_key' | 'cli' | 'system';
  actorId: string | null;
  action: string;
  subjectId: string | null;
  details: Record<string, unknown>;
}

export async function insertAuditEntry(tx: Db, entry: AuditEntryValues): Promise<void> {
  await tx
    .insertInto('audit_entries')
    .values({
      workspace_id: entry.workspaceId,
      actor_type: entry.actorType,
      actor_id: entry.actorId,
      action: entry.action,
      subject_id: entry.subjectId,
      details: JSON.stringify(entry.details),
    })
    .execute();
}

export interface AuditFilters {
  /** An action prefix: `booking.`, `settings.`, `team.`, ... */
  actionPrefix?: string | undefined;
  actorType?: string | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

export interface AuditRow {
  at: Date;
  actor_type: string;
  actor_id: string | null;
  action: string;
  subject_id: string | null;
  details: Record<string, unknown>;
}

/**
 * One page of the log, newest first: the audit entries and, as `booking.<action>`, the bookings'
 * history entries, which already record each change with its actor. Both are read by
 * workspace_id, so on Citus the whole statement runs on one node.
 */
export async function listAuditRows(
  db: Db,
  workspaceId: string,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  const entries = db
    .selectFrom('audit_entries')
    .select([
      'at',
      'actor_type',
      'actor_id',
      'action',
      'subject_id',
      'details',
      sql<string>`id::text`.as('tiebreak'),
    ])
    .where('workspace_id', '=', workspaceId);
  const history = db
    .selectFrom('booking_history')
    .select([
      'created_at as at',
      'actor_type',
      'actor_id',
      sql<string>`'booking.' || action`.as('action'),
      sql<string>`booking_id::text`.as('subject_id'),
      'changes as details',
      sql<string>`id::text`.as('tiebreak'),
    ])
    .where('workspace_id', '=', workspaceId);
  let query = db.selectFrom(entries.unionAll(history).as('e')).selectAll('e');
  if (filters.actionPrefix)
    query = query.where('e.action', 'like', `${filters.actionPrefix.replace(/[\\%_]/g, '\\$&')}%`);
  if (filters.actorType) query = query.where('e.actor_type', '=', filters.actorType as 'user');
  if (filters.from) query = query.where('e.at', '>=', filters.from);
  if (filters.before) query = query.where('e.at', '<', filters.before);
  const rows = await query
    .orderBy('e.at', 'desc')
    .orderBy('e.tiebreak', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(({ tiebreak: _, ...row }) => row as AuditRow);
}

/** Who the actors are, for the log: users by email, API keys by name (deleted ones too). */
export async function actorNames(db: Db, workspaceId: string, rows: AuditRow[]) {
  const userIds = [
    ...new Set(rows.filter((r) => r.actor_type === 'user' && r.actor_id).map((r) => r.actor_id!)),
  ];
  const keyIds = [
    ...new Set(rows.filter((r) => r.actor_type === 'api_key' && r.actor_id).map((r) => r.actor_id!)),
  ];
  const [users, keys] = await Promise.all([
    userIds.length === 0
      ? []
      : db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute(),
    keyIds.length === 0
      ? []
      : db
          .selectFrom('api_keys')
          .select(['id', 'name'])
          .where('workspace_id', '=', workspaceId)
          .where('id', 'in', keyIds)
          .execute(),
  ]);
  return new Map<string, string>([
    ...users.map((u) => [u.id, u.email] as [string, string]),
    ...keys.map((k) => [k.id, k.name] as [string, string]),
  ]);
}
