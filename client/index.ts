/**
 * A typed client of the Kairos public API: openapi-fetch over the types openapi-typescript
 * generates from the server's OpenAPI document (client/schema.ts, `npm run client:generate`),
 * and a verifier of the Standard Webhooks signature every delivery carries. README.md beside
 * this file shows it in use.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface KairosClientOptions {
  /** Where the server answers, e.g. `https://booking.example.com` (the API is under /api/public/v2). */
  baseUrl: string;
  /** An API key's secret, `secret_...` (panel: Settings → Developers → API keys). */
  apiKey: string;
  /** The workspace's slug, sent as the `Workspace` header. */
  workspace: string;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
}

export type KairosClient = Client<paths>;

/** A client whose every call is typed by path, method, parameters, body and answer. */
export function createKairosClient(options: KairosClientOptions): KairosClient {
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/public/v2`,
    headers: { authorization: `Bearer ${options.apiKey}`, workspace: options.workspace },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** Deliveries older or newer than this are refused: a captured one cannot be replayed later. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Checks a delivery's Standard Webhooks signature and returns its parsed body; throws
 * WebhookVerificationError when it does not match. `body` is the raw request body, exactly as
 * received (a re-serialised object would not match); `secret` the webhook's `whsec_...`.
 * During a secret rotation a delivery carries two signatures, and either may match.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  now: number = Date.now(),
): unknown {
  const header = (name: string) => {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-* headers.');
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('The delivery is too old or from the future.');
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('No signature matches the secret.');
  return JSON.parse(body);
}
