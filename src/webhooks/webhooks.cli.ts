import { parseArgs } from 'node:util';
import { UsageError } from '../cli/errors.js';
import { loadConfig } from '../config.js';
import { notFound } from '../errors.js';
import type { InvalidationBus } from '../platform/bus/invalidation-bus.js';
import type { Database } from '../platform/db/client.js';
import { findWorkspaceBySlug } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { presentWebhook, presentWebhookWithSecret } from './webhooks.presenter.js';
import { listWebhooks } from './webhooks.repository.js';
import { createWebhook, deleteWebhook, rotateWebhookSecret } from './webhooks.service.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const USAGE = [
  'webhook list --workspace <slug>',
  'webhook create --workspace <slug> --url <url> [--events a,b | --events "*"] [--description <text>] [--disabled]',
  'webhook delete --workspace <slug> --uuid <uuid>',
  'webhook rotate-secret --workspace <slug> --uuid <uuid>',
];

type Flags = Record<string, { type: 'string' | 'boolean' }>;

const COMMANDS: Record<string, { flags: Flags; required: string[] }> = {
  list: { flags: { workspace: { type: 'string' } }, required: ['workspace'] },
  create: {
    flags: {
      workspace: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      disabled: { type: 'boolean' },
    },
    required: ['workspace', 'url'],
  },
  delete: {
    flags: { workspace: { type: 'string' }, uuid: { type: 'string' } },
    required: ['workspace', 'uuid'],
  },
  'rotate-secret': {
    flags: { workspace: { type: 'string' }, uuid: { type: 'string' } },
    required: ['workspace', 'uuid'],
  },
};

/**
 * `npm run --silent cli -- webhook <command> ...`: the operator's side of the management API.
 * Returns what the CLI prints as JSON; the secret appears only in create and rotate-secret.
 */
export async function webhookCommand(
  database: Database,
  args: string[],
  bus?: InvalidationBus,
): Promise<unknown> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || args.includes('--help') || args.includes('-h')) {
    return { commands: USAGE };
  }
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(`Unknown command "webhook ${name}". Commands: ${USAGE.join(' | ')}`);
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: rest, options: spec.flags, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (in "webhook ${name}").`);
  }
  const missing = spec.required.filter((flag) => typeof values[flag] !== 'string');
  if (missing.length > 0) {
    throw new UsageError(`"webhook ${name}" needs ${missing.map((flag) => `--${flag}`).join(', ')}.`);
  }

  const db = database.db;
  const { uow } = openWritePath(db, bus);
  const workspace = await findWorkspaceBySlug(db, values.workspace as string);
  if (!workspace) throw notFound('Workspace');
  const uuid = values.uuid as string | undefined;
  // Not a uuid names no webhook of this workspace: the same not_found as an unknown one.
  if (uuid !== undefined && !UUID_PATTERN.test(uuid)) throw notFound('Webhook');
  const now = Date.now();

  switch (name) {
    case 'list': {
      const { rows } = await listWebhooks(db, workspace.id, { page: 1, perPage: 10_000, offset: 0 });
      return { data: rows.map(presentWebhook) };
    }
    case 'create': {
      const events = typeof values.events === 'string' ? values.events.split(',') : undefined;
      const { webhook, secret } = await createWebhook(
        uow,
        workspace.id,
        {
          url: values.url as string,
          events,
          enabled: values.disabled !== true,
          description: typeof values.description === 'string' ? values.description : undefined,
        },
        {
          now,
          allowPrivate: loadConfig().webhooksAllowPrivate,
          maxWebhooks: loadConfig().maxWebhooksPerWorkspace,
        },
      );
      return { data: presentWebhookWithSecret(webhook, secret) };
    }
    case 'delete': {
      await deleteWebhook(uow, workspace.id, uuid as string);
      return { deleted: true, uuid };
    }
    default: {
      const { webhook, secret } = await rotateWebhookSecret(uow, workspace.id, uuid as string, now);
      return { data: presentWebhookWithSecret(webhook, secret) };
    }
  }
}
