import { type CreatedApiKey, createApiKey } from '../api-keys/api-keys.service.js';
import { type AuditActor, recordAudit } from '../audit/audit.service.js';
import { normalizePhone } from '../customers/phone.rules.js';
import { FieldErrorBag, notFound, ruleIssue } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { BookingForm, StatusType } from '../platform/db/schema.js';
import type { Tx, UnitOfWork } from '../platform/db/unit-of-work.js';
import { insertStatuses } from '../statuses/statuses.repository.js';
import { canonicalLocale, settingsRuleErrors } from './workspace-settings.rules.js';
import {
  findWorkspaceById,
  findWorkspaceBySlug,
  insertWorkspace,
  updateWorkspace,
  type WorkspaceChanges,
  type WorkspaceRow,
} from './workspaces.repository.js';
import type { WorkspaceSettings } from './workspaces.schemas.js';

/** The booking statuses every workspace starts with. */
export const DEFAULT_STATUSES: { name: string; type: StatusType; color: string; is_default: boolean }[] = [
  { name: 'New', type: 'new', color: '#2196f3', is_default: true },
  { name: 'Confirmed', type: 'confirmed', color: '#4caf50', is_default: false },
  { name: 'Completed', type: 'completed', color: '#9e9e9e', is_default: false },
  { name: 'Canceled', type: 'canceled', color: '#f44336', is_default: false },
];

/** A workspace by id; a 404 when it is gone (its last request raced its removal). */
export async function getWorkspace(db: Db, workspaceId: string): Promise<WorkspaceRow> {
  const workspace = await findWorkspaceById(db, workspaceId);
  if (!workspace) throw notFound('Workspace');
  return workspace;
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;

export interface CreateWorkspaceInput {
  slug: string;
  name: string;
  currency?: string;
  locale?: string;
}

/**
 * Creates a workspace with its default statuses and a first API key, in one transaction.
 * `fill` runs inside that transaction too (the demo data): all of it commits, or none.
 */
export async function createWorkspace(
  uow: UnitOfWork,
  input: CreateWorkspaceInput,
  keyName = 'default',
  fill?: (tx: Tx, workspace: WorkspaceRow) => Promise<unknown>,
): Promise<{ workspace: WorkspaceRow; apiKey: CreatedApiKey }> {
  const errors = new FieldErrorBag();
  if (!SLUG_PATTERN.test(input.slug)) {
    errors.add(
      'slug',
      'The slug must be 2-63 characters: lowercase letters, digits and dashes, starting with a letter or digit.',
      ruleIssue('slug_format'),
    );
  }
  // The same rules as PATCH /workspace, so the CLI and the API accept the same values.
  for (const [field, messages] of Object.entries(
    settingsRuleErrors({ name: input.name, currency: input.currency, locale: input.locale }),
  )) {
    for (const message of messages) errors.add(field, message);
  }
  errors.throwIfAny();
  // A new workspace has no cached answers to invalidate.
  return uow.run(null, async (tx) => {
    if (await findWorkspaceBySlug(tx, input.slug)) {
      const bag = new FieldErrorBag();
      bag.add(
        'slug',
        `The slug "${input.slug}" is already taken.`,
        ruleIssue('slug_taken', { slug: input.slug }),
      );
      bag.throwIfAny();
    }
    const workspace = await insertWorkspace(tx, {
      slug: input.slug,
      name: input.name.trim(),
      ...(input.currency ? { currency: input.currency } : {}),
      ...(input.locale ? { locale: canonicalLocale(input.locale) ?? input.locale } : {}),
    });
    await insertStatuses(
      tx,
      DEFAULT_STATUSES.map((status, position) => ({ ...status, position, workspace_id: workspace.id })),
    );
    const apiKey = await createApiKey(tx, workspace.id, keyName);
    await fill?.(tx, workspace);
    return { workspace, apiKey };
  });
}

/**
 * Applies a valid settings body in one statement and returns the row as stored now. The booking
 * form merges inside the UPDATE (workspaces.repository), so two PATCHes of different form fields
 * both stick.
 */
export async function updateWorkspaceSettings(
  uow: UnitOfWork,
  workspaceId: string,
  settings: WorkspaceSettings,
  actor: AuditActor,
): Promise<WorkspaceRow> {
  const bookingForm: Partial<BookingForm> = { ...settings.booking_form };
  const changes: WorkspaceChanges = {
    ...(settings.name !== undefined ? { name: settings.name.trim() } : {}),
    ...(settings.currency !== undefined ? { currency: settings.currency } : {}),
    ...(settings.locale !== undefined ? { locale: canonicalLocale(settings.locale) ?? settings.locale } : {}),
    ...(Object.keys(bookingForm).length > 0 ? { booking_form_patch: bookingForm } : {}),
    ...(settings.staffer_selection !== undefined ? { staffer_selection: settings.staffer_selection } : {}),
    ...(settings.slot_step_minutes !== undefined ? { slot_step_minutes: settings.slot_step_minutes } : {}),
    ...(settings.min_notice_minutes !== undefined ? { min_notice_minutes: settings.min_notice_minutes } : {}),
    ...(settings.horizon_days !== undefined ? { horizon_days: settings.horizon_days } : {}),
    ...(settings.manage_cutoff_minutes !== undefined
      ? { manage_cutoff_minutes: settings.manage_cutoff_minutes }
      : {}),
    ...(settings.embed_origins !== undefined
      ? { embed_origins: JSON.stringify([...new Set(settings.embed_origins)]) }
      : {}),
    ...(settings.customer_retention_months !== undefined
      ? { customer_retention_months: settings.customer_retention_months }
      : {}),
    ...(settings.country_iso !== undefined
      ? { country_iso: (settings.country_iso ?? '').toUpperCase() }
      : {}),
    ...(settings.contacts?.phone !== undefined
      ? { contact_phone: normalizePhone(settings.contacts.phone ?? '') ?? '' }
      : {}),
    ...(settings.contacts?.email !== undefined
      ? { contact_email: (settings.contacts.email ?? '').trim() }
      : {}),
  };
  if (Object.keys(changes).length === 0) {
    const row = await findWorkspaceById(uow.db, workspaceId);
    if (!row) throw new Error(`workspace ${workspaceId} vanished`);
    return row;
  }
  // Slot step, notice and horizon shape every cached slot answer: the unit of work invalidates them.
  return uow.run(workspaceId, async (tx) => {
    const row = await updateWorkspace(tx, workspaceId, changes);
    await recordAudit(tx, workspaceId, actor, 'settings.workspace_updated', workspaceId, {
      fields: Object.keys(settings).sort(),
    });
    return row;
  });
}
