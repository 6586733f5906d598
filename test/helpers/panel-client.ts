import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/platform/db/client.js';
import type { Role } from '../../src/platform/db/schema.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { hashPassword } from '../../src/users/passwords.js';
import { startSession } from '../../src/users/sessions.service.js';
import { insertUser, type UserRow, upsertMembership } from '../../src/users/users.repository.js';

/** What app.inject sends as Host, seen from a browser: the panel's own origin in these tests. */
export const PANEL_ORIGIN = 'http://localhost';
export const TEST_PASSWORD = 'correct horse battery staple';

// scrypt is slow on purpose: one hash per test file, shared by every test user.
let passwordHash: Promise<string> | undefined;

let counter = 0;

/** A user with a role in a workspace (made through the repositories, as `user add` would). */
export async function makeUser(
  db: Db,
  memberships: { workspaceId: string; role: Role }[],
  email = `user-${process.pid}-${++counter}@example.com`,
): Promise<UserRow> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const user = await insertUser(db, {
    email,
    name: '',
    passwordHash: await passwordHash,
    mustChangePassword: false,
    at: new Date(),
  });
  for (const { workspaceId, role } of memberships) {
    await upsertMembership(db, workspaceId, user.id, role, new Date());
  }
  return user;
}

/**
 * A browser in miniature for app.inject: keeps cookies, reads the CSRF token of the last page it
 * got, and sends the Origin a browser would.
 */
export class PanelClient {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  constructor(readonly app: ApiApp) {}

  /** A client already signed in as `user` (a session started as sign-in starts one). */
  static async signedIn(app: ApiApp, db: Db, user: UserRow, workspaceId?: string): Promise<PanelClient> {
    const client = new PanelClient(app);
    client.cookies.set('kairos_session', await startSession(db, user.id, workspaceId, Date.now()));
    return client;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (token) this.csrf = token;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() } });
    this.remember(response);
    return response;
  }

  /**
   * Posts a form as a browser would: with the CSRF token of the last page and our Origin, unless
   * the test takes them away.
   */
  async post(
    url: string,
    form: Record<string, string | string[]> = {},
    options: { csrf?: string | null; origin?: string | null } = {},
  ): Promise<LightMyRequestResponse> {
    const params = new URLSearchParams();
    const token = options.csrf === undefined ? this.csrf : options.csrf;
    if (token) params.append('_csrf', token);
    for (const [key, value] of Object.entries(form)) {
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
    }
    const origin = options.origin === undefined ? PANEL_ORIGIN : options.origin;
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        ...(origin ? { origin } : {}),
      },
      payload: params.toString(),
    });
    this.remember(response);
    return response;
  }

  /** GET a page (for its token), then POST a form to it or to `action`. */
  async submit(page: string, form: Record<string, string | string[]>, action = page) {
    await this.get(page);
    return this.post(action, form);
  }
}

/**
 * A signed-in member of `workspaceId` who picked `language` on their account page (the real
 * CSRF-protected form), so every panel page answers them in it.
 */
export async function memberSpeaking(
  app: ApiApp,
  db: Db,
  workspaceId: string,
  role: Role,
  language: string,
): Promise<PanelClient> {
  const client = await PanelClient.signedIn(app, db, await makeUser(db, [{ workspaceId, role }]));
  const saved = await client.submit('/panel/account/password', { language }, '/panel/account/language');
  if (saved.statusCode !== 303) throw new Error(`language ${language} not saved: ${saved.statusCode}`);
  return client;
}
