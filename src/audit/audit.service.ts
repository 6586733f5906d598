import { toCsv } from '../platform/csv.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import { type AuditFilters, actorNames, insertAuditEntry, listAuditRows } from './audit.repository.js';

/**
 * Who acted: a panel user, an API key, an operator at the CLI, or Kairos itself (the worker's
 * retention sweep, a workspace's first key).
 */
export interface AuditActor {
  type: 'user' | 'api_key' | 'cli' | 'system';
  id: string | null;
}

/** The CLI's actor: the operator has no identity in the store. */
export const CLI_ACTOR: AuditActor = { type: 'cli', id: null };

/** A panel user as the actor (routes that have the session but not the whole context). */
export const userActor = (userId: string): AuditActor => ({ type: 'user', id: userId });

/** The groups of the log's filter, by the prefix of their actions. */
export const AUDIT_GROUPS = {
  booking: 'Bookings',
  settings: 'Settings',
  team: 'Team',
  api_key: 'API keys',
  webhook: 'Webhooks',
  customer: 'Customers',
  data: 'Imports and exports',
} as const;
export type AuditGroup = keyof typeof AUDIT_GROUPS;

/**
 * Records one change in the change's own transaction (pass the transaction: a unit of work's
 * `Tx`, or the team's own transactions, which sign-in state keeps outside units of work): it is
 * in the log exactly when the change committed. `action` is `<group>.<what>` (`api_key.created`); `details` say what changed, never
 * a secret.
 */
export async function recordAudit(
  tx: Db,
  workspaceId: string,
  actor: AuditActor,
  action: `${AuditGroup}.${string}`,
  subjectId: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  await insertAuditEntry(tx, {
    workspaceId,
    actorType: actor.type,
    actorId: actor.id,
    action,
    subjectId,
    details,
  });
}

/**
 * Records something that changes nothing but must be known, such as an export of customer data,
 * in a short unit of work of its own. It names no workspace to the unit of work: nothing a cached
 * answer shows changed, so the workspace's slot caches stay (a read must not empty them).
 */
export function recordAccess(
  uow: UnitOfWork,
  workspaceId: string,
  actor: AuditActor,
  action: `${AuditGroup}.${string}`,
  subjectId: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  return uow.run(null, (tx) => recordAudit(tx, workspaceId, actor, action, subjectId, details));
}

export interface AuditEntryView {
  at: string;
  actor: { type: string; uuid: string | null; name: string };
  action: string;
  subject_uuid: string | null;
  details: Record<string, unknown>;
}

/** One page of the log with the actors' names, newest first. */
export async function auditPage(
  db: Db,
  workspaceId: string,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<AuditEntryView[]> {
  const rows = await listAuditRows(db, workspaceId, filters, page);
  const names = await actorNames(db, workspaceId, rows);
  return rows.map((row) => ({
    at: toUtcIso(row.at.getTime()),
    actor: {
      type: row.actor_type,
      uuid: row.actor_id,
      name:
        (row.actor_id ? names.get(row.actor_id) : undefined) ??
        (row.actor_type === 'cli' ? 'CLI' : row.actor_type === 'system' ? 'Kairos' : 'deleted'),
    },
    action: row.action,
    subject_uuid: row.subject_id,
    details: row.details,
  }));
}

/** The whole filtered log as CSV, newest first, at most `max` entries. */
export async function auditCsv(db: Db, workspaceId: string, filters: AuditFilters, max = 100_000) {
  const rows: unknown[][] = [];
  for (let offset = 0; offset < max; offset += 1000) {
    const page = await auditPage(db, workspaceId, filters, { limit: 1000, offset });
    for (const entry of page) {
      rows.push([
        entry.at,
        entry.actor.type,
        entry.actor.name,
        entry.action,
        entry.subject_uuid ?? '',
        JSON.stringify(entry.details),
      ]);
    }
    if (page.length < 1000) break;
  }
  return toCsv(['at', 'actor_type', 'actor', 'action', 'subject_uuid', 'details'], rows);
}
