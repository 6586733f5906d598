import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';
import { makeUser } from '../../test/helpers/panel-client.js';
import { parseCommand } from '../cli/args.js';
import { toCliError } from '../cli/errors.js';
import { calendarFeedCommand } from './calendar-feeds.cli.js';

/** `calendar-feed show|regenerate|link`: the operator's side of the panel's feed buttons. */
const ENV = { PUBLIC_URL: 'https://book.example/' };
let t: TestApp;
let staffer: { id: string };
let email: string;
const now = Date.parse('2026-05-04T09:00:00Z');
const cli = (args: string[]) =>
  calendarFeedCommand(t.database, args, now, ENV) as Promise<Record<string, string>>;
const failure = (args: string[]) =>
  cli(args).then(
    () => undefined,
    (error: unknown) => toCliError(error),
  );
const status = async (url: string) =>
  (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode;

beforeAll(async () => {
  t = await buildTestApp();
  const location = await createLocation(t.db, t.workspace.id);
  const service = await createService(t.db, t.workspace.id, [location.id]);
  staffer = await createStaffer(t.db, t.workspace.id, location.id, [service.id], { firstName: 'Cleo' });
  email = (await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }])).email;
});
afterAll(() => t.close());

describe('calendar-feed CLI', () => {
  it('makes, shows and regenerates a staffer’s feed URL under PUBLIC_URL; the old URL ends at once', async () => {
    const slug = t.workspace.slug;
    expect(await failure(['show', '--workspace', slug, '--staffer', staffer.id])).toMatchObject({
      exitCode: 1,
      body: { error: { code: 'not_found' } },
    });
    const made = await cli(['regenerate', '--workspace', slug, '--staffer', staffer.id]);
    expect(made.url).toMatch(/^https:\/\/book\.example\/ical\/[A-Za-z0-9_-]{65}\.ics$/);
    expect(await cli(['show', '--workspace', slug, '--staffer', staffer.id])).toEqual(made);
    const response = await t.app.inject({ method: 'GET', url: new URL(made.url!).pathname });
    expect(new ICAL.Component(ICAL.parse(response.body)).getFirstPropertyValue('x-wr-calname')).toBe(
      'Test Studio · Cleo Stylist',
    );
    const renewed = await cli(['regenerate', '--workspace', slug, '--staffer', staffer.id]);
    expect(renewed.url).not.toBe(made.url);
    expect(await status(made.url!)).toBe(404);
    expect(await status(renewed.url!)).toBe(200);
  });

  it('links a member to a staffer and makes the member’s own feed', async () => {
    const slug = t.workspace.slug;
    expect(
      await cli(['link', '--workspace', slug, '--user', email.toUpperCase(), '--staffer', staffer.id]),
    ).toEqual({
      user: email,
      staffer_uuid: staffer.id,
    });
    const own = await cli(['regenerate', '--workspace', slug, '--user', email]);
    expect(await status(own.url!)).toBe(200);
    expect(await cli(['link', '--workspace', slug, '--user', email, '--none'])).toEqual({
      user: email,
      staffer_uuid: null,
    });
  });

  it.each([
    [['show', '--workspace', 'x'], 'usage'],
    [['show', '--workspace', 'x', '--staffer', 'a', '--user', 'b'], 'usage'],
    [['link', '--workspace', 'x', '--user', 'b'], 'usage'],
    [['link', '--workspace', 'x', '--user', 'b', '--staffer', 'a', '--none'], 'usage'],
    [['explode'], 'usage'],
    [['show', '--workspace', 'no-such-workspace', '--user', 'a@b.c'], 'not_found'],
  ])('refuses %j with %s', async (args, code) => {
    expect((await failure(args))?.body.error.code).toBe(code);
  });

  it('answers not_found for a staffer, user or member this workspace does not have', async () => {
    const slug = t.workspace.slug;
    const stranger = await makeUser(t.db, []);
    for (const args of [
      ['regenerate', '--workspace', slug, '--staffer', 'not-a-uuid'],
      ['regenerate', '--workspace', slug, '--staffer', '00000000-0000-4000-8000-000000000000'],
      ['regenerate', '--workspace', slug, '--user', 'nobody@example.com'],
      ['regenerate', '--workspace', slug, '--user', stranger.email],
      ['link', '--workspace', slug, '--user', email, '--staffer', '00000000-0000-4000-8000-000000000000'],
    ]) {
      expect((await failure(args))?.body.error.code, args.join(' ')).toBe('not_found');
    }
  });

  it('is routed by the CLI’s parser', () => {
    expect(parseCommand(['calendar-feed', 'show', '--workspace', 's'])).toEqual({
      kind: 'calendar-feed',
      args: ['show', '--workspace', 's'],
    });
  });
});
