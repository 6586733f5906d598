import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  /** 'on' runs the webhook delivery worker inside the API process. */
  worker: 'on' | 'off';
  webhooksAllowPrivate: boolean;
  publicUrl: string | undefined;
  /** How long SIGTERM may take: in-flight requests and sends finish within it, then the process exits. */
  shutdownDrainMs: number;
  /** Requests per minute per API key on the API; 0 turns the limit off. */
  apiRateLimitPerMinute: number;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** When set, /metrics is served on this port (on `metricsHost`) instead of the API port. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Live API keys and webhooks one workspace may have (one tenant must not fill the tables). */
  maxApiKeysPerWorkspace: number;
  maxWebhooksPerWorkspace: number;
  /** Requests per minute one IP may make to the booking page (/book, /embed.js). */
  widgetRequestsPerMinute: number;
  /** Where emails go (smtp:// or smtps://, auth in the URL); unset: nothing is sent, the mail log keeps each message. */
  smtpUrl: string | undefined;
  /** The From address of every email; the workspace's sender name is its display name. */
  mailFrom: string;
}

/** Reads the environment once; everything else takes a Config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got "${env.PORT}"`);
  }
  const worker = (env.WORKER ?? 'on').toLowerCase();
  if (worker !== 'on' && worker !== 'off')
    throw new Error(`WORKER must be "on" or "off", got "${env.WORKER}"`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    worker,
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
    publicUrl: env.PUBLIC_URL || undefined,
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 10_000, 0, 600_000),
    apiRateLimitPerMinute: integer(env, 'API_RATE_LIMIT_PER_MINUTE', 300, 0, 1_000_000),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    metricsHost: env.METRICS_HOST ?? '127.0.0.1',
    maxApiKeysPerWorkspace: integer(env, 'MAX_API_KEYS_PER_WORKSPACE', 50, 1, 100_000),
    maxWebhooksPerWorkspace: integer(env, 'MAX_WEBHOOKS_PER_WORKSPACE', 25, 1, 100_000),
    widgetRequestsPerMinute: integer(env, 'WIDGET_REQUESTS_PER_MINUTE', 300, 1, 1_000_000),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, env.PUBLIC_URL),
  };
}

function smtpUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`);
  if (!url.hostname) throw new Error('SMTP_URL must name a host');
  return raw;
}

/** MAIL_FROM, else no-reply at PUBLIC_URL's host, else at localhost. */
function mailFrom(raw: string | undefined, publicUrl: string | undefined): string {
  if (raw) {
    if (!/^[^@<>\s]+@[^@<>\s]+$/.test(raw) && !/<[^@<>\s]+@[^@<>\s]+>\s*$/.test(raw))
      throw new Error(
        `MAIL_FROM must be an address, like bookings@example.com or "Studio <bookings@example.com>", got "${raw}"`,
      );
    return raw;
  }
  let host = 'localhost';
  try {
    if (publicUrl) host = new URL(publicUrl).hostname || host;
  } catch {
    // PUBLIC_URL is checked where it is used.
  }
  return `no-reply@${host}`;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}
