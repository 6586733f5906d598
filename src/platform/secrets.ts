import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { AppError, ruleIssue } from '../errors.js';

/**
 * Secrets at rest (provider credentials: text messages now, payments and CalDAV later): sealed
 * with AES-256-GCM under the server key, so a copy of the database (a backup, a dump, a replica
 * given to a developer) holds no usable credential. The key comes from SECRET_KEY; the embedded
 * store, which keeps everything in its data folder anyway, makes one there on first use
 * (`secret.key`) and reuses it. A PostgreSQL deployment without SECRET_KEY has no place to keep a
 * key that survives its processes, so it cannot save credentials and says so
 * (`secret_key_missing`).
 *
 * A sealed value is `v1.<iv>.<tag>.<ciphertext>` (base64url). Each use names a context (such as
 * `text-credentials:<workspace id>`), bound as GCM's additional data: a value copied into another
 * workspace's row does not open there.
 */
export interface SecretBox {
  /** False when no key can be had (PostgreSQL without SECRET_KEY): seal and open throw. */
  readonly available: boolean;
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

export const SECRET_KEY_MISSING =
  'Credentials cannot be saved: this server has no SECRET_KEY. Set SECRET_KEY (at least 32 characters, the same on every process) and restart.';

export class SecretKeyMissing extends AppError {
  constructor() {
    super(422, 'secret_key_missing', SECRET_KEY_MISSING, { credentials: [SECRET_KEY_MISSING] }, undefined, {
      credentials: ruleIssue('secret_key_missing'),
    });
  }
}

/** A sealed value that does not open: another key, another context, or altered. */
export class SecretUnreadable extends AppError {
  constructor() {
    super(
      409,
      'secret_unreadable',
      'Saved credentials cannot be read with this server’s key (was SECRET_KEY changed?). Enter them again.',
    );
  }
}

/** SECRET_KEY's shortest accepted length: anything shorter is guessable. */
export const MIN_SECRET_KEY_LENGTH = 32;

const KEY_FILE = 'secret.key';

/** The 32-byte AES key of a SECRET_KEY value (any text of 32+ characters, stretched by HKDF). */
export function keyFromSecret(secret: string): Buffer {
  if (secret.length < MIN_SECRET_KEY_LENGTH)
    throw new Error(`SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters`);
  return Buffer.from(hkdfSync('sha256', secret, 'kairos', 'secrets v1', 32));
}

/**
 * The embedded store's key file in `dataDir`: read, or made on first use with flag `wx`, so two
 * processes starting at once cannot both write one (the loser reads the winner's).
 */
export function dataDirSecret(dataDir: string): string {
  const file = path.join(dataDir, KEY_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

/** A box over a 32-byte key. */
export function secretBox(key: Buffer): SecretBox {
  return {
    available: true,
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
      return `v1.${parts.join('.')}`;
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined)
        throw new SecretUnreadable();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretUnreadable();
      }
    },
  };
}

const unavailable: SecretBox = {
  available: false,
  seal() {
    throw new SecretKeyMissing();
  },
  open() {
    throw new SecretKeyMissing();
  },
};

const boxes = new Map<string, SecretBox>();

/**
 * The process's box: SECRET_KEY when set; else, on the embedded store, the key file in the data
 * folder (read or made on first use, not at start-up: a server that never saves a credential
 * never writes one); else none.
 */
export function secretBoxOf(config: Pick<Config, 'secretKey' | 'databaseUrl' | 'dataDir'>): SecretBox {
  const source = config.secretKey
    ? `env:${config.secretKey}`
    : config.databaseUrl
      ? 'none'
      : `dir:${config.dataDir}`;
  const known = boxes.get(source);
  if (known) return known;
  let box: SecretBox;
  if (config.secretKey) box = secretBox(keyFromSecret(config.secretKey));
  else if (config.databaseUrl) box = unavailable;
  else {
    // Lazy: the file is made when the first credential is sealed or opened.
    let inner: SecretBox | undefined;
    const load = () => {
      inner ??= secretBox(keyFromSecret(dataDirSecret(config.dataDir)));
      return inner;
    };
    box = {
      available: true,
      seal: (plain, context) => load().seal(plain, context),
      open: (sealed, context) => load().open(sealed, context),
    };
  }
  boxes.set(source, box);
  return box;
}
