import type { Config } from '../config.js';
import { type SecretBox, secretBoxOf } from '../platform/secrets.js';
import { gatewayProvider } from './providers/gateway-provider.js';
import { noProvider, type TextMessageProvider } from './providers/text-provider.js';
import { twilioProvider } from './providers/twilio-provider.js';
import type { TextCredentials, TextSettings } from './text-settings.rules.js';

/** What a provider needs besides a workspace's settings: the process's, not the workspace's. */
export interface ProviderEnvironment {
  config: Pick<Config, 'secretKey' | 'databaseUrl' | 'dataDir' | 'webhooksAllowPrivate' | 'twilioApiBase'>;
  now: () => number;
}

/** The sealing context of a workspace's credentials: they open in no other workspace's row. */
export const credentialsContext = (workspaceId: string) => `text-credentials:${workspaceId}`;

export function openCredentials(box: SecretBox, workspaceId: string, sealed: string | null): TextCredentials {
  if (!sealed) return {};
  return JSON.parse(box.open(sealed, credentialsContext(workspaceId))) as TextCredentials;
}

export function sealCredentials(box: SecretBox, workspaceId: string, credentials: TextCredentials): string {
  return box.seal(JSON.stringify(credentials), credentialsContext(workspaceId));
}

/**
 * A workspace's provider from its settings and sealed credentials. Throws SecretKeyMissing or
 * SecretUnreadable when the credentials cannot be opened.
 */
export function providerOf(
  env: ProviderEnvironment,
  workspaceId: string,
  settings: TextSettings,
  sealed: string | null,
): TextMessageProvider {
  if (settings.provider === 'none') return noProvider;
  const credentials = openCredentials(secretBoxOf(env.config), workspaceId, sealed);
  if (settings.provider === 'twilio') {
    return twilioProvider({
      accountSid: settings.twilioAccountSid,
      authToken: credentials.twilioAuthToken ?? '',
      sender: settings.sender,
      apiBase: env.config.twilioApiBase,
    });
  }
  return gatewayProvider({
    url: settings.gatewayUrl,
    secret: credentials.gatewaySecret ?? '',
    sender: settings.sender,
    allowPrivate: env.config.webhooksAllowPrivate,
    now: env.now,
  });
}

/** Where a provider reports on our message `id` of a workspace. */
export function statusCallbackUrl(
  publicBase: string,
  workspaceId: string,
  provider: string,
  id: string,
): string {
  return `${publicBase}/hooks/text/${workspaceId}/${provider}/status?message=${id}`;
}
