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
  /** Failed API authentications per minute per client address before 429; 0 turns the limit off. */
  apiAuthFailuresPerMinute: number;
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
  /** REDIS_URL: cache invalidation over Redis pub/sub instead of LISTEN/NOTIFY. */
  redisUrl: string | undefined;
  /** INVALIDATION_BUS: 'auto' pushes slot-cache invalidations between processes; 'off' reads versions from the store. */
  invalidationBus: 'auto' | 'off';
  /** INVALIDATION_CHANNEL: the bus channel; installations sharing a PostgreSQL or Redis need their own. */
  invalidationChannel: string;
  /** Where emails go (smtp:// or smtps://, auth in the URL); unset: nothing is sent, the mail log keeps each message. */
  smtpUrl: string | undefined;
  /** The From address of every email; the workspace's sender name is its display name. */
  mailFrom: string;
  /**
   * SECRET_KEY: the key that seals provider credentials at rest (src/platform/secrets.ts), at
   * least 32 characters. Unset: the embedded store keeps one in its data folder; PostgreSQL
   * deployments cannot save credentials.
   */
  secretKey: string | undefined;
  /**
   * TWILIO_API_BASE: where the Twilio provider sends its API calls instead of https://api.twilio.com
   * (the tests' fake Twilio on loopback; a egress proxy). Unset in production.
   */
  twilioApiBase: string | undefined;
  /**
   * STRIPE_API_BASE: where the Stripe provider sends its API calls instead of
   * https://api.stripe.com (the tests' fake Stripe on loopback). Unset in production.
   */
  stripeApiBase: string | undefined;
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
  const invalidationBus = (env.INVALIDATION_BUS ?? 'auto').toLowerCase();
  if (invalidationBus !== 'auto' && invalidationBus !== 'off')
    throw new Error(`INVALIDATION_BUS must be "auto" or "off", got "${env.INVALIDATION_BUS}"`);
  const invalidationChannel = env.INVALIDATION_CHANNEL || 'kairos_invalidation';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(invalidationChannel))
    throw new Error(
      `INVALIDATION_CHANNEL must be lowercase letters, digits and _, got "${invalidationChannel}"`,
    );
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
    apiAuthFailuresPerMinute: integer(env, 'API_AUTH_FAILURES_PER_MINUTE', 30, 0, 1_000_000),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    metricsHost: env.METRICS_HOST ?? '127.0.0.1',
    maxApiKeysPerWorkspace: integer(env, 'MAX_API_KEYS_PER_WORKSPACE', 50, 1, 100_000),
    maxWebhooksPerWorkspace: integer(env, 'MAX_WEBHOOKS_PER_WORKSPACE', 25, 1, 100_000),
    widgetRequestsPerMinute: integer(env, 'WIDGET_REQUESTS_PER_MINUTE', 300, 1, 1_000_000),
    redisUrl: env.REDIS_URL || undefined,
    invalidationBus,
    invalidationChannel,
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, env.PUBLIC_URL),
    secretKey: secretKey(env.SECRET_KEY),
    twilioApiBase: env.TWILIO_API_BASE || undefined,
    stripeApiBase: env.STRIPE_API_BASE || undefined,
  };
}

/**
 * The base of the absolute links Kairos hands out that must open from anywhere: manage and
 * calendar links in API answers and webhook bodies, calendar feed URLs, password reset links, the
 * start-up banner. PUBLIC_URL (without a trailing slash) when set; without it, the address the
 * server listens on (HOST and PORT, with 0.0.0.0 and :: read as loopback), which only this machine
 * can open — set PUBLIC_URL for anything others must reach (README "Configuration").
 */
export function publicBaseUrl(
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
  port = config.port,
): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
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

function secretKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (raw.length < 32)
    throw new Error('SECRET_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`)');
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
