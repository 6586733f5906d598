import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { loadConfig } from '../config.js';
import { type FieldErrors, notFound, UsageError } from '../errors.js';
import type { InvalidationBus } from '../platform/bus/invalidation-bus.js';
import type { Database } from '../platform/db/client.js';
import type { WebhookFormat } from '../platform/db/schema.js';
import { throwIfInvalid } from '../platform/http/validation.js';
import { isUuid } from '../platform/uuid.js';
import { findWorkspaceBySlug } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { presentWebhook, presentWebhookWithSecret } from './webhooks.presenter.js';
import { listWebhooks } from './webhooks.repository.js';
import { createWebhook, deleteWebhook, rotateWebhookSecret } from './webhooks.service.js';

const USAGE = [
  'webhook list --workspace <slug>',
  'webhook create --workspace <slug> --url <url> [--events a,b | --events "*"] [--description <text>] [--disabled] [--format standard|legacy] [--header "Name: value"]...',
  'webhook delete --workspace <slug> --uuid <uuid>',
  'webhook rotate-secret --workspace <slug> --uuid <uuid>',
];

type Flags = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

const COMMANDS: Record<string, { flags: Flags; required: string[] }> = {
  list: { flags: { workspace: { type: 'string' } }, required: ['workspace'] },
  create: {
    flags: {
      workspace: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      disabled: { type: 'boolean' },
      format: { type: 'string' },
      header: { type: 'string', multiple: true },
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
 * `--header "Name: value"` flags as the API's `headers` object. A flag without a colon is refused
 * here (it names no header); names and values are then checked by the service like the API's.
 */
function headersOf(flags: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    if (colon <= 0) {
      errors[`headers.${flag}`] = ['Each --header is "Name: value", e.g. --header "Webhook-Token: abc".'];
      continue;
    }
    const name = flag.slice(0, colon).trim();
    if (Object.keys(headers).some((known) => known.toLowerCase() === name.toLowerCase())) {
      errors[`headers.${name}`] = [`The header ${name} is given twice (names are case-insensitive).`];
    }
    headers[name] = flag.slice(colon + 1);
  }
  throwIfInvalid({}, errors);
  return headers;
}

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
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    // Only `header` repeats (a string list); every other flag is one string or boolean.
    values = parseArgs({ args: rest, options: spec.flags, strict: true, allowPositionals: false })
      .values as typeof values;
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
  if (uuid !== undefined && !isUuid(uuid)) throw notFound('Webhook');
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
          // Checked by the service with the API's rules (format, header names and values).
          format: typeof values.format === 'string' ? (values.format as WebhookFormat) : undefined,
          headers: Array.isArray(values.header) ? headersOf(values.header) : undefined,
        },
        {
          now,
          allowPrivate: loadConfig().webhooksAllowPrivate,
          maxWebhooks: loadConfig().maxWebhooksPerWorkspace,
        },
        CLI_ACTOR,
      );
      // As the API answers a create: the secret and the header values, shown this once.
      return { data: { ...presentWebhookWithSecret(webhook, secret), headers: webhook.headers } };
    }
    case 'delete': {
      await deleteWebhook(uow, workspace.id, uuid as string, CLI_ACTOR);
      return { deleted: true, uuid };
    }
    default: {
      const { webhook, secret } = await rotateWebhookSecret(
        uow,
        workspace.id,
        uuid as string,
        now,
        CLI_ACTOR,
      );
      return { data: presentWebhookWithSecret(webhook, secret) };
    }
  }
}
