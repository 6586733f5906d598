import { Webhook } from 'standardwebhooks';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { secretBoxOf } from '../platform/secrets.js';
import { isUuid } from '../platform/uuid.js';
import { findWorkspaceById, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { priceMicrosOf } from './providers/text-provider.js';
import { twilioSignatureValid } from './providers/twilio-provider.js';
import { applyTextStatus, findTextConfig } from './text-messages.repository.js';
import { openCredentials, type ProviderEnvironment, providerOf } from './text-providers.service.js';
import { textSettingsOf } from './text-settings.rules.js';

type HookConfig = ProviderEnvironment['config'] & Pick<Config, 'secretKey'>;

const refused = () => new AppError(403, 'invalid_signature', 'The signature does not match.');

/** The workspace a hook URL names, with its opened credentials; 404 for an unknown one. */
async function hookWorkspace(db: Db, config: HookConfig, workspaceId: string) {
  if (!isUuid(workspaceId)) throw new AppError(404, 'not_found', 'Not found.');
  const [workspace, row] = await Promise.all([
    findWorkspaceById(db, workspaceId),
    findTextConfig(db, workspaceId),
  ]);
  if (!workspace || !row) throw new AppError(404, 'not_found', 'Not found.');
  let credentials: { twilioAuthToken?: string; gatewaySecret?: string } = {};
  try {
    credentials = openCredentials(secretBoxOf(config), workspaceId, row.text_credentials);
  } catch {
    // Unreadable credentials verify nothing: every request is refused below.
  }
  return {
    workspace,
    settings: textSettingsOf(row.text_settings),
    credentials,
    sealed: row.text_credentials,
  };
}

/**
 * A Twilio webhook (inbound message or status callback), verified as Twilio signs it: the
 * X-Twilio-Signature over the URL Twilio was given (our public address, never the request's Host)
 * and the POST parameters, checked by the twilio package's validateRequest with the workspace's
 * auth token. 403 when it does not match.
 */
export async function verifyTwilioHook(
  db: Db,
  config: HookConfig,
  workspaceId: string,
  hook: { url: string; signature: string | undefined; params: Record<string, string> },
): Promise<WorkspaceRow> {
  const { workspace, credentials } = await hookWorkspace(db, config, workspaceId);
  const token = credentials.twilioAuthToken;
  if (!token || !hook.signature || !twilioSignatureValid(token, hook.signature, hook.url, hook.params))
    throw refused();
  return workspace;
}

/** A gateway webhook, verified per Standard Webhooks with the workspace's gateway secret (5-minute tolerance). */
export async function verifyGatewayHook(
  db: Db,
  config: HookConfig,
  workspaceId: string,
  hook: { body: string; headers: Record<string, string | string[] | undefined> },
): Promise<{ workspace: WorkspaceRow; payload: Record<string, unknown> }> {
  const { workspace, credentials } = await hookWorkspace(db, config, workspaceId);
  if (!credentials.gatewaySecret) throw refused();
  const headers = {
    'webhook-id': String(hook.headers['webhook-id'] ?? ''),
    'webhook-timestamp': String(hook.headers['webhook-timestamp'] ?? ''),
    'webhook-signature': String(hook.headers['webhook-signature'] ?? ''),
  };
  try {
    const payload = new Webhook(credentials.gatewaySecret).verify(hook.body, headers) as Record<
      string,
      unknown
    >;
    return { workspace, payload };
  } catch {
    throw refused();
  }
}

const STATUSES = ['sent', 'delivered', 'failed', 'undelivered'] as const;
type DeliveryStatus = (typeof STATUSES)[number];
const isStatus = (value: unknown): value is DeliveryStatus =>
  (STATUSES as readonly unknown[]).includes(value);

/**
 * A provider's status callback on a message: the log entry moves forward (sent → delivered, or
 * failed/undelivered with the error code), idempotent and order-proof. Twilio's callbacks carry no
 * price; once a message has left, its price is asked of Twilio (one GET, best effort).
 */
export async function applyStatusCallback(
  db: Db,
  env: ProviderEnvironment,
  workspaceId: string,
  callback: {
    ref: string;
    messageId?: string | undefined;
    status: string;
    errorCode?: string | undefined;
    price?: unknown;
    priceUnit?: string | undefined;
  },
  now: number,
): Promise<boolean> {
  // Twilio also reports intermediate states (queued, sending, accepted): nothing to record.
  if (!isStatus(callback.status)) return false;
  const priceMicros = priceMicrosOf(callback.price);
  const row = await applyTextStatus(
    db,
    workspaceId,
    {
      ref: callback.ref,
      id: callback.messageId && isUuid(callback.messageId) ? callback.messageId : undefined,
    },
    {
      state: callback.status,
      response: `${callback.status}${callback.errorCode ? ` (error ${callback.errorCode})` : ''}`,
      priceMicros,
      priceUnit: callback.priceUnit,
    },
    now,
  );
  if (!row) return false;
  if (row.provider === 'twilio' && row.price_micros === null && callback.status !== 'failed') {
    const config = await findTextConfig(db, workspaceId);
    try {
      const provider = providerOf(
        env,
        workspaceId,
        textSettingsOf(config?.text_settings),
        config?.text_credentials ?? null,
      );
      const price = await provider.price?.(callback.ref);
      if (price)
        await applyTextStatus(
          db,
          workspaceId,
          { ref: callback.ref },
          { state: callback.status, response: row.last_response ?? callback.status, ...price },
          now,
        );
    } catch {
      // The price is a figure for the log; a message without it is still recorded.
    }
  }
  return true;
}
