import { randomUUID } from 'node:crypto';
import { type AuditActor, recordAudit } from '../audit/audit.service.js';
import type { Config } from '../config.js';
import { normalizePhone } from '../customers/phone.rules.js';
import { conflict, invalidField, notFound, ruleIssue, validationFailed } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { TextState } from '../platform/db/schema.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { secretBoxOf } from '../platform/secrets.js';
import { formatMinutes } from '../platform/time/zone.js';
import { checkWebhookUrl } from '../webhooks/ssrf-guard.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { checkQuietHours, quietHoursOf } from './quiet-hours.rules.js';
import {
  findOptOut,
  findText,
  findTextConfig,
  insertTexts,
  listQuietHours,
  listTextLog,
  monthlyTextTotals,
  saveQuietHours,
  saveTextConfig,
} from './text-messages.repository.js';
import { textKey } from './text-plan.rules.js';
import { openCredentials, sealCredentials } from './text-providers.service.js';
import type { TextSnapshot } from './text-render.js';
import {
  checkTextSettings,
  storedTextSettings,
  type TextSettings,
  type TextSettingsInput,
  textSettingsOf,
} from './text-settings.rules.js';

type SecretsConfig = Pick<Config, 'secretKey' | 'databaseUrl' | 'dataDir' | 'webhooksAllowPrivate'>;

/**
 * Settings → Notifications → Text messages: 422 with field errors, the gateway URL through the
 * webhooks' SSRF guard, typed credentials sealed with the server key (SecretKeyMissing when there
 * is none); credentials left empty keep the saved ones.
 */
export async function updateTextSettings(
  uow: UnitOfWork,
  workspaceId: string,
  input: TextSettingsInput,
  config: SecretsConfig,
  now: number,
  actor: AuditActor,
): Promise<TextSettings> {
  const box = secretBoxOf(config);
  const row = await findTextConfig(uow.db, workspaceId);
  let saved = {};
  try {
    saved = openCredentials(box, workspaceId, row?.text_credentials ?? null);
  } catch {
    // Unreadable (another key): treated as none, so the form asks for them again.
  }
  const current = saved as { twilioAuthToken?: string; gatewaySecret?: string };
  const { settings, credentials, errors } = checkTextSettings(input, {
    twilioAuthToken: current.twilioAuthToken !== undefined,
    gatewaySecret: current.gatewaySecret !== undefined,
  });
  if (!settings) throw validationFailed(errors);
  if (settings.provider === 'gateway') {
    const problem = await checkWebhookUrl(settings.gatewayUrl, config.webhooksAllowPrivate);
    if (problem) {
      throw invalidField(
        'gateway_url',
        problem.message.replace('The url', 'The URL'),
        ruleIssue(problem.rule),
      );
    }
  }
  const typed = Object.keys(credentials).length > 0;
  const sealed = typed ? sealCredentials(box, workspaceId, { ...current, ...credentials }) : undefined;
  await uow.run(workspaceId, async (tx) => {
    await saveTextConfig(tx, workspaceId, storedTextSettings(settings), sealed, now);
    // What changed, never a credential: only that new ones were typed.
    await recordAudit(tx, workspaceId, actor, 'settings.text_messages_updated', workspaceId, {
      enabled: settings.enabled,
      provider: settings.provider,
      credentials_changed: typed,
    });
  });
  return settings;
}

/** What the panel shows of the settings: never a credential, only whether one is saved. */
export async function textSettingsView(db: Db, workspaceId: string, config: SecretsConfig) {
  const row = await findTextConfig(db, workspaceId);
  const settings = textSettingsOf(row?.text_settings);
  let saved: { twilioAuthToken?: string; gatewaySecret?: string } = {};
  let problem: string | undefined;
  try {
    saved = openCredentials(secretBoxOf(config), workspaceId, row?.text_credentials ?? null);
  } catch (error) {
    problem = (error as Error).message;
  }
  return {
    settings,
    hasAuthToken: saved.twilioAuthToken !== undefined,
    hasGatewaySecret: saved.gatewaySecret !== undefined,
    canSaveCredentials: secretBoxOf(config).available,
    ...(problem ? { problem } : {}),
  };
}

/** "Send a test text": queued like any other, so it shows the whole path works. */
export async function sendTestText(uow: UnitOfWork, workspace: WorkspaceRow, phone: string, now: number) {
  const to = normalizePhone(phone, (workspace.country_iso || undefined) as never);
  if (!to) throw invalidField('phone', 'Enter a mobile number, like +14155550100.');
  const settings = textSettingsOf(workspace.text_settings);
  await uow.run(workspace.id, (tx) =>
    insertTexts(
      tx,
      workspace.id,
      [
        {
          bookingId: null,
          kind: 'test',
          revision: 0,
          messageKey: textKey(null, 'test', 0, randomUUID()),
          channel: settings.whatsapp ? 'whatsapp' : 'sms',
          recipient: to,
          provider: settings.provider,
          snapshot: {
            workspaceName: workspace.name,
            workspaceSlug: workspace.slug,
            locale: workspace.locale,
            language: null,
            manageToken: null,
            services: '',
            location: '',
            zone: 'UTC',
            start: new Date(now).toISOString(),
          },
          dueAt: now,
          startsAt: null,
        },
      ],
      now,
    ),
  );
  return to;
}

export function textLogPage(db: Db, workspaceId: string, page: { limit: number; offset: number }) {
  return listTextLog(db, workspaceId, page);
}

export function textMonthlyTotals(db: Db, workspaceId: string) {
  return monthlyTextTotals(db, workspaceId);
}

/** Whether a customer's number opted out of this workspace's texts (the customer page shows it). */
export async function textOptOutState(db: Db, workspaceId: string, phone: string) {
  const row = await findOptOut(db, workspaceId, phone);
  return row ? { optedOut: row.opted_out, keyword: row.keyword, at: row.updated_at } : undefined;
}

/** The locations and their quiet hours, for the panel. */
export async function quietHoursOfLocations(db: Db, workspaceId: string) {
  return (await listQuietHours(db, workspaceId)).map((row) => {
    const quiet = quietHoursOf(row.text_quiet_hours);
    return {
      id: row.id,
      name: row.name,
      zone: row.timezone,
      start: formatMinutes(quiet.start),
      end: formatMinutes(quiet.end),
    };
  });
}

/** A location's quiet hours (422 with the field's error; 404 for another workspace's location). */
export async function updateQuietHours(
  uow: UnitOfWork,
  workspaceId: string,
  locationId: string,
  input: { start: string; end: string },
  actor: AuditActor,
): Promise<void> {
  const checked = checkQuietHours(input.start, input.end);
  if ('error' in checked) throw invalidField('quiet_hours', checked.error);
  await uow.run(workspaceId, async (tx) => {
    if (!(await saveQuietHours(tx, workspaceId, locationId, checked.value))) throw notFound('Location');
    await recordAudit(tx, workspaceId, actor, 'settings.quiet_hours_updated', locationId, {
      start: input.start,
      end: input.end,
    });
  });
}

/** Texts the panel may send again: the provider refused them or could not deliver them. */
export const RESENDABLE: readonly TextState[] = ['failed', 'undelivered'];

/**
 * "Send again" from the message log, for a failed or undelivered text: a new text with the same
 * snapshot and a key of its own (the first one's key stays taken), due now.
 */
export async function resendText(uow: UnitOfWork, workspaceId: string, textId: string, now: number) {
  await uow.run(workspaceId, async (tx) => {
    const text = await findText(tx, workspaceId, textId);
    if (!text) throw notFound('Text message');
    if (!RESENDABLE.includes(text.state))
      throw conflict('text_not_failed', 'Only a failed or undelivered text can be sent again.');
    await insertTexts(
      tx,
      workspaceId,
      [
        {
          bookingId: text.booking_id,
          kind: text.kind,
          revision: text.revision,
          messageKey: `${text.message_key}.resend-${randomUUID().slice(0, 8)}`,
          channel: text.channel,
          recipient: text.recipient,
          provider: text.provider,
          snapshot: text.snapshot as unknown as TextSnapshot,
          dueAt: now,
          startsAt: text.starts_at?.getTime() ?? null,
        },
      ],
      now,
    );
  });
}
