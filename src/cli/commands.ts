import { createApiKey, deleteApiKey, listApiKeys } from '../api-keys/api-keys.service.js';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { loadConfig } from '../config.js';
import { invalidField, notFound } from '../errors.js';
import type { InvalidationBus } from '../platform/bus/invalidation-bus.js';
import type { Database, Db } from '../platform/db/client.js';
import { isUuid } from '../platform/uuid.js';
import { seedDemoWorkspace } from '../workspaces/demo.service.js';
import { findWorkspaceBySlug, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { createWorkspace } from '../workspaces/workspaces.service.js';
import { openWritePath } from '../write-path.js';
import type { Command } from './args.js';

/** Runs one parsed command on an open, migrated store; the result is printed as JSON. */
export async function executeCommand(
  database: Database,
  command: Exclude<
    Command,
    | { kind: 'help' }
    | { kind: 'webhook' }
    | { kind: 'user' }
    | { kind: 'calendar-feed' }
    | { kind: 'import' }
    | { kind: 'db-migrate' }
    | { kind: 'db-distribute' }
  >,
  now: number,
  bus?: InvalidationBus,
): Promise<unknown> {
  const db = database.db;
  const { uow } = openWritePath(db, bus);
  switch (command.kind) {
    case 'workspace-create': {
      // createWorkspace checks slug, name, currency and locale with the API's own rules.
      const { workspace, apiKey } = await createWorkspace(
        uow,
        {
          slug: command.slug,
          name: command.name,
          ...(command.currency !== undefined ? { currency: command.currency } : {}),
          ...(command.locale !== undefined ? { locale: command.locale } : {}),
        },
        'default',
        // The demo data commits with the workspace or not at all.
        command.demo ? (tx, created) => seedDemoWorkspace(tx, created, now) : undefined,
      );
      return {
        workspace: { uuid: workspace.id, slug: workspace.slug, name: workspace.name },
        api_key: apiKey,
      };
    }
    case 'key-create': {
      if (command.name.trim() === '') throw invalidField('name', 'The name field is required.');
      const workspace = await requireWorkspace(db, command.workspace);
      const apiKey = await uow.run(workspace.id, (tx) =>
        createApiKey(
          tx,
          workspace.id,
          command.name.trim(),
          { limit: loadConfig().maxApiKeysPerWorkspace },
          CLI_ACTOR,
        ),
      );
      return { api_key: apiKey };
    }
    case 'key-list': {
      const workspace = await requireWorkspace(db, command.workspace);
      return { data: await listApiKeys(db, workspace.id) };
    }
    case 'key-delete': {
      const workspace = await requireWorkspace(db, command.workspace);
      // Not a uuid names no key of this workspace: the same not_found as an unknown one.
      if (!isUuid(command.uuid)) throw notFound('API key');
      await uow.run(workspace.id, (tx) => deleteApiKey(tx, workspace.id, command.uuid, CLI_ACTOR));
      return { deleted: true, uuid: command.uuid };
    }
  }
}

async function requireWorkspace(db: Db, slug: string): Promise<WorkspaceRow> {
  const workspace = await findWorkspaceBySlug(db, slug);
  if (!workspace) throw notFound(`Workspace "${slug}"`);
  return workspace;
}
