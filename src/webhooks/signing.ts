import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + 24 random bytes in base64: the Standard Webhooks secret format. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface SigningKeys {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign at `now`: the current one, plus the previous one for 24 h after a rotation. */
export function activeSecrets(keys: SigningKeys, now: number): string[] {
  const previousValid =
    keys.previousSecret !== null &&
    keys.previousSecretExpiresAt !== null &&
    keys.previousSecretExpiresAt.getTime() > now;
  return previousValid ? [keys.secret, keys.previousSecret as string] : [keys.secret];
}

/**
 * Standard Webhooks headers for one attempt. With several secrets the signature header holds
 * several space-separated `v1,<base64>` values; a receiver accepts the message if any matches.
 */
export function signedHeaders(
  secrets: string[],
  messageId: string,
  now: number,
  body: string,
): Record<string, string> {
  // The header carries whole seconds and the signature is computed over the same value.
  const timestamp = new Date(Math.floor(now / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(messageId, timestamp, body))
      .join(' '),
  };
}
