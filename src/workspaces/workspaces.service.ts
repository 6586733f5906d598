import { type CreatedApiKey, createApiKey } from '../api-keys/api-keys.service.js';
import { FieldErrorBag } from '../errors.js';
import type { StatusType } from '../platform/db/schema.js';
import type { Tx, UnitOfWork } from '../platform/db/unit-of-work.js';
import { canonicalLocale, settingsRuleErrors } from './settings.js';
import type { WorkspaceRow } from './workspaces.repository.js';

/** Every workspace starts with these (DESIGN §3 "Status"). */
export const DEFAULT_STATUSES: { name: string; type: StatusType; color: string; is_default: boolean }[] = [
  { name: 'New', type: 'new', color: '#2196f3', is_default: true },
  { name: 'Confirmed', type: 'confirmed', color: '#4caf50', is_default: false },
  { name: 'Completed', type: 'completed', color: '#9e9e9e', is_default: false },
  { name: 'Canceled', type: 'canceled', color: '#f44336', is_default: false },
];

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
    const existing = await tx
      .selectFrom('workspaces')
      .select('id')
      .where('slug', '=', input.slug)
      .executeTakeFirst();
    if (existing) {
      const bag = new FieldErrorBag();
      bag.add('slug', `The slug "${input.slug}" is already taken.`);
      bag.throwIfAny();
    }
    const workspace = await tx
      .insertInto('workspaces')
      .values({
        slug: input.slug,
        name: input.name.trim(),
        ...(input.currency ? { currency: input.currency } : {}),
        ...(input.locale ? { locale: canonicalLocale(input.locale) ?? input.locale } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('booking_statuses')
      .values(
        DEFAULT_STATUSES.map((status, position) => ({ ...status, position, workspace_id: workspace.id })),
      )
      .execute();
    const apiKey = await createApiKey(tx, workspace.id, keyName);
    await fill?.(tx, workspace);
    return { workspace, apiKey };
  });
}
