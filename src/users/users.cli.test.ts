import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { PanelClient } from '../../test/helpers/panel-client.js';
import { parseCommand } from '../cli/args.js';
import { HELP } from '../cli/help.js';
import { UsageError } from '../errors.js';
import { userCommand } from './users.cli.js';

/** The CLI's user commands on the test store, and their effect on the panel. */
let t: TestApp;
const now = Date.now();
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const command = parseCommand(argv);
  if (command.kind !== 'user') throw new Error('not a user command');
  return userCommand(t.database, command.args, now, env) as Promise<Record<string, unknown>>;
};

describe('user commands', () => {
  it('refuses bad command lines before the store is opened', () => {
    expect(() => parseCommand(['user', 'add', '--email', 'a@example.com'])).toThrow(UsageError);
    expect(() => parseCommand(['user', 'promote'])).toThrow(/Unknown command "user promote"/);
    expect(HELP).toContain('user reset-password --email E');
  });

  it('create prints a one-time password; add gives a role; the user signs in and must choose a password', async () => {
    const created = await run(['user', 'create', '--email', 'Ops@Example.com', '--name', 'Ops']);
    expect(created.user).toMatchObject({ email: 'ops@example.com', name: 'Ops' });
    const password = created.one_time_password as string;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    await expect(run(['user', 'create', '--email', 'ops@example.com'])).rejects.toMatchObject({
      errors: { email: [expect.stringContaining('already exists')] },
    });
    await expect(
      run(['user', 'add', '--email', 'ops@example.com', '--workspace', t.workspace.slug, '--role', 'boss']),
    ).rejects.toMatchObject({ errors: { role: [expect.any(String)] } });
    expect(
      await run([
        'user',
        'add',
        '--email',
        'ops@example.com',
        '--workspace',
        t.workspace.slug,
        '--role',
        'admin',
      ]),
    ).toMatchObject({ workspace: t.workspace.slug, role: 'admin' });

    const client = new PanelClient(t.app);
    await client.get('/panel/sign-in');
    const signedIn = await client.post('/panel/sign-in', { email: 'ops@example.com', password });
    expect(signedIn.statusCode).toBe(303);
    expect((await client.get('/panel')).headers.location).toBe('/panel/account/password');
  });

  it('reset-password prints a one-time link under PUBLIC_URL that sets a new password once', async () => {
    await run(['user', 'create', '--email', 'forgot@example.com']);
    const { reset_url: url } = await run(['user', 'reset-password', '--email', 'forgot@example.com'], {
      PUBLIC_URL: 'https://book.example.com',
    });
    expect(url).toMatch(/^https:\/\/book\.example\.com\/panel\/reset-password\/[A-Za-z0-9_-]{43}$/);
    const path = new URL(url as string).pathname;
    const client = new PanelClient(t.app);
    expect((await client.get(path)).statusCode).toBe(200);
    const short = await client.post(path, { password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('at least 10 characters');
    expect((await client.post(path, { password: 'a brand new password' })).headers.location).toBe(
      '/panel/sign-in?notice=password-reset',
    );
    expect((await client.get(path)).statusCode).toBe(404);
    await client.get('/panel/sign-in');
    const signedIn = await client.post('/panel/sign-in', {
      email: 'forgot@example.com',
      password: 'a brand new password',
    });
    expect(signedIn.statusCode).toBe(303);
    await expect(run(['user', 'reset-password', '--email', 'nobody@example.com'])).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
