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
  };
}
