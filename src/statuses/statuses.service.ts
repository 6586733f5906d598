import {
  conflict,
  type FieldErrors,
  type FieldIssue,
  invalidField,
  REQUIRED,
  ruleIssue,
  withIssues,
} from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { presentStatus } from './statuses.presenter.js';
import {
  BUILT_IN_TYPES,
  clearDefault,
  insertCustomStatus,
  isFinal,
  listAllStatuses,
  listLiveStatuses,
  liveStatusNamed,
  lockStatusesOf,
  nextPosition,
  requireLiveStatus,
  type StatusRow,
  updateStatus,
} from './statuses.repository.js';
import { NAME_MAX_LENGTH } from './statuses.schemas.js';

export { NAME_MAX_LENGTH };

const COLOR_RE = /^#[0-9a-fA-F]{6}$/;

export interface StatusInput {
  name?: unknown;
  color?: unknown;
  is_default?: unknown;
}

export interface StatusChanges {
  name?: string;
  color?: string;
  is_default?: boolean;
}

/**
 * The rules a schema cannot say well (a name of only spaces, a readable colour message), checked
 * on fields whose type is already right; the route schema reports wrong types.
 */
export function statusRuleErrors(body: StatusInput, options: { nameRequired: boolean }): FieldErrors {
  const errors: FieldErrors = {};
  const issues: Record<string, FieldIssue> = {};
  const required = () => {
    errors.name = ['The name field is required.'];
    issues.name = REQUIRED;
  };
  if (body.name === undefined) {
    if (options.nameRequired) required();
  } else if (typeof body.name === 'string') {
    if (body.name.trim() === '') required();
    else if (body.name.trim().length > NAME_MAX_LENGTH) {
      errors.name = [`The name may not be longer than ${NAME_MAX_LENGTH} characters.`];
      issues.name = { kind: 'too_long', limit: NAME_MAX_LENGTH };
    }
  }
  if (typeof body.color === 'string' && !COLOR_RE.test(body.color)) {
    errors.color = ['The color must be a hex colour #rrggbb, such as #4caf50.'];
    issues.color = ruleIssue('status_color');
  }
  return withIssues(errors, issues);
}

/** The changes a valid body asks for, trimmed and with the colour in lower case. */
export function statusChanges(body: StatusInput): StatusChanges {
  return {
    ...(typeof body.name === 'string' ? { name: body.name.trim() } : {}),
    ...(typeof body.color === 'string' ? { color: body.color.toLowerCase() } : {}),
    ...(typeof body.is_default === 'boolean' ? { is_default: body.is_default } : {}),
  };
}

export async function listStatuses(db: Db, workspaceId: string) {
  return (await listLiveStatuses(db, workspaceId)).map(presentStatus);
}

/** A custom status, last in the list; made the default at once if asked. */
export async function createStatus(
  uow: UnitOfWork,
  workspaceId: string,
  input: StatusChanges & { name: string },
) {
  return uow.run(workspaceId, async (tx) => {
    await lockStatusesOf(tx, workspaceId);
    await requireFreeName(tx, workspaceId, input.name);
    const position = await nextPosition(tx, workspaceId);
    let row = await insertCustomStatus(tx, workspaceId, {
      name: input.name,
      position,
      ...(input.color ? { color: input.color } : {}),
    });
    if (input.is_default) {
      await clearDefault(tx, workspaceId);
      row = await updateStatus(tx, workspaceId, row.id, { is_default: true });
    }
    return presentStatus(row);
  });
}

/**
 * Renames, recolours, or makes a status the default. Exactly one default remains: taking the
 * default moves it here in the same transaction, and the default cannot just be switched off.
 * The type never changes (the body has no say over it).
 */
export async function changeStatus(
  uow: UnitOfWork,
  workspaceId: string,
  statusId: string,
  changes: StatusChanges,
) {
  return uow.run(workspaceId, async (tx) => {
    await lockStatusesOf(tx, workspaceId);
    const status = await requireLiveStatus(tx, workspaceId, statusId);
    if (changes.name !== undefined) await requireFreeName(tx, workspaceId, changes.name, statusId);
    if (changes.is_default === true && isFinal(status.type)) {
      throw invalidField(
        'is_default',
        'A completed or canceled status cannot be the default.',
        ruleIssue('status_final_not_default'),
      );
    }
    if (changes.is_default === false && status.is_default) {
      throw invalidField(
        'is_default',
        'A default status is required: make another status the default instead.',
        ruleIssue('status_default_required'),
      );
    }
    if (changes.is_default === true && !status.is_default) await clearDefault(tx, workspaceId);
    const row = await updateStatus(tx, workspaceId, statusId, changes);
    return presentStatus(row);
  });
}

/**
 * Live statuses have distinct names, in any letter case: a list offering two "Confirmed" would
 * leave the person choosing to guess. Callers hold the workspace's status lock, so two requests
 * cannot both find a name free. An archived status's name may be used again.
 */
async function requireFreeName(tx: Db, workspaceId: string, name: string, exceptId?: string) {
  if (await liveStatusNamed(tx, workspaceId, name, exceptId)) {
    throw invalidField(
      'name',
      `A status named "${name}" already exists.`,
      ruleIssue('status_name_taken', { name }),
    );
  }
}

/** Archives a custom status; bookings that carry it keep it, it is just no longer offered. */
export async function archiveStatus(uow: UnitOfWork, workspaceId: string, statusId: string): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    await lockStatusesOf(tx, workspaceId);
    const status = await requireLiveStatus(tx, workspaceId, statusId);
    if (BUILT_IN_TYPES.includes(status.type)) {
      throw conflict('status_built_in', 'The built-in statuses cannot be archived.', {
        status: [`The ${status.type} status is built in and cannot be archived.`],
      });
    }
    if (status.is_default) {
      throw conflict(
        'status_is_default',
        'The default status cannot be archived: make another status the default first.',
        { status: ['The default status cannot be archived.'] },
      );
    }
    await updateStatus(tx, workspaceId, statusId, { archived: true });
  });
}

/** Every status of the workspace, archived ones last (the panel's list). */
export function listStatusesWithArchived(db: Db, workspaceId: string): Promise<StatusRow[]> {
  return listAllStatuses(db, workspaceId);
}

/** A live status of the workspace; a 404 otherwise. */
export function getStatus(db: Db, workspaceId: string, statusId: string): Promise<StatusRow> {
  return requireLiveStatus(db, workspaceId, statusId);
}
