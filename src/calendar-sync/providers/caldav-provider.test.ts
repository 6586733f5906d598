/**
 * The CalDAV provider against a real Radicale started for this file: discovery from the server
 * address, calendar listing, first and incremental sync (sync-collection), the CTag/ETag
 * fallback through a loopback proxy that hides sync-collection, writes with ETag preconditions,
 * a wrong password, a server that never answers, and the SSRF guard.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Radicale, radicaleProxy, startRadicale } from '../../../test/helpers/radicale.js';
import { caldavProvider } from './caldav-provider.js';
import { CalendarProviderError } from './calendar-provider.js';

let radicale: Radicale;
let work: string;

const event = (uid: string, start: string, summary = uid) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    `SUMMARY:${summary}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const provider = (overrides: Partial<Parameters<typeof caldavProvider>[0]> = {}) =>
  caldavProvider({
    serverUrl: radicale.url,
    username: radicale.user,
    password: radicale.password,
    timeoutMs: 5_000,
    allowPrivate: true,
    ...overrides,
  });

async function expectFailure(promise: Promise<unknown>, kind: string): Promise<CalendarProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CalendarProviderError);
  expect((error as CalendarProviderError).kind).toBe(kind);
  return error as CalendarProviderError;
}

beforeAll(async () => {
  radicale = await startRadicale();
  work = await radicale.makeCalendar('work', 'Work');
  await radicale.makeCalendar('private', 'Private');
});

afterAll(async () => {
  await radicale?.stop();
});

describe('discovery', () => {
  it('finds the calendars from the bare server address (well-known, principal, home)', async () => {
    const calendars = await provider().listCalendars();
    expect(calendars.map((c) => [c.name, new URL(c.url).pathname, c.events]).sort()).toEqual([
      ['Private', '/anna/private/', true],
      ['Work', '/anna/work/', true],
    ]);
  });

  it('a wrong password is refused, not unreachable', async () => {
    const error = await expectFailure(provider({ password: 'wrong' }).listCalendars(), 'refused');
    expect(error.status).toBe(401);
  });

  it('the SSRF guard keeps a loopback address out unless private targets are allowed', async () => {
    await expectFailure(provider({ allowPrivate: false }).listCalendars(), 'unreachable');
  });

  it('a server that accepts and never answers times out as unreachable', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent = http.createServer(() => {
      // never answers
    });
    silent.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const error = await expectFailure(
      provider({ serverUrl: `http://127.0.0.1:${port}/`, timeoutMs: 300 }).listCalendars(),
      'unreachable',
    );
    expect(error.message).toMatch(/No answer within 300 ms/);
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});

describe('changes', () => {
  it('first sync is full, then only what changed (sync-collection)', async () => {
    const p = provider();
    const a = await radicale.put(work, 'a.ics', event('a', '20260701T090000Z'));
    await radicale.put(work, 'b.ics', event('b', '20260702T090000Z'));
    const first = await p.changes(work, null, new Map());
    expect(first.method).toBe('sync-collection');
    expect(first.full).toBe(true);
    expect(first.changed.map((c) => new URL(c.href).pathname).sort()).toEqual([
      '/anna/work/a.ics',
      '/anna/work/b.ics',
    ]);
    expect(first.changed.find((c) => c.href.endsWith('a.ics'))!.ics).toContain('UID:a');
    expect(first.state.syncToken).toBeTruthy();
    const known = new Map(first.changed.map((c) => [c.href, c.etag]));

    await radicale.put(work, 'a.ics', event('a', '20260701T150000Z', 'moved'));
    await radicale.remove(`${work}b.ics`);
    await radicale.put(work, 'c.ics', event('c', '20260703T090000Z'));
    const second = await p.changes(work, first.state, known);
    expect(second.full).toBe(false);
    expect(second.changed.map((c) => new URL(c.href).pathname).sort()).toEqual([
      '/anna/work/a.ics',
      '/anna/work/c.ics',
    ]);
    expect(second.changed.find((c) => c.href.endsWith('a.ics'))!.ics).toContain('SUMMARY:moved');
    expect(second.removed.map((h) => new URL(h).pathname)).toEqual(['/anna/work/b.ics']);
    expect(a.etag).not.toBe(second.changed.find((c) => c.href.endsWith('a.ics'))!.etag);

    const third = await p.changes(work, second.state, known);
    expect(third.changed).toEqual([]);
    expect(third.removed).toEqual([]);
  });

  it('a token the server no longer knows starts over with a full sync', async () => {
    const p = provider();
    const result = await p.changes(
      work,
      { syncToken: 'http://radicale.org/ns/sync/unknown', ctag: null },
      new Map(),
    );
    expect(result.full).toBe(true);
    expect(result.changed.length).toBeGreaterThan(0);
  });

  it('without sync-collection: CTag unchanged asks nothing more, ETags tell what changed', async () => {
    const noSync = await radicaleProxy(radicale, (req, body) =>
      req.method === 'REPORT' && body.includes('sync-collection') ? { status: 501, body: '' } : 'pass',
    );
    try {
      const url = `${noSync.url}anna/work/`;
      const p = provider({ serverUrl: noSync.url });
      const first = await p.changes(url, null, new Map());
      expect(first.method).toBe('ctag-etag');
      expect(first.state.ctag).toBeTruthy();
      const known = new Map(first.changed.map((c) => [c.href, c.etag]));
      expect(known.size).toBeGreaterThan(0);
      const same = await p.changes(url, first.state, known);
      expect(same.method).toBe('unchanged');
      await radicale.put(work, 'd.ics', event('d', '20260704T090000Z'));
      const [gone] = [...known.keys()];
      await radicale.remove(`${work}${gone!.split('/').pop()}`);
      const next = await p.changes(url, first.state, known);
      expect(next.method).toBe('ctag-etag');
      expect(next.changed.map((c) => c.href.split('/').pop())).toEqual(['d.ics']);
      expect(next.removed).toEqual([gone]);
    } finally {
      await noSync.close();
    }
  });
});

describe('writes with ETag preconditions', () => {
  it('create once (If-None-Match: *), replace with If-Match, a stale ETag is a precondition failure', async () => {
    const p = provider();
    const url = `${work}kairos-1.ics`;
    const created = await p.put(url, event('kairos-1', '20260710T090000Z'), null);
    await expectFailure(p.put(url, event('kairos-1', '20260710T090000Z'), null), 'precondition');
    // Someone moves it in their calendar app meanwhile.
    await radicale.put(work, 'kairos-1.ics', event('kairos-1', '20260710T150000Z', 'moved outside'));
    await expectFailure(p.put(url, event('kairos-1', '20260710T100000Z'), created.etag), 'precondition');
    const now = await p.get(url);
    expect(now!.ics).toContain('moved outside');
    const replaced = await p.put(url, event('kairos-1', '20260710T100000Z'), now!.etag);
    expect(replaced.etag).not.toBe(now!.etag);
    await expectFailure(p.remove(url, now!.etag), 'precondition');
    await p.remove(url, replaced.etag);
    expect(await p.get(url)).toBeNull();
    // Gone already: not an error (a redelivered cancel).
    await p.remove(url, replaced.etag);
  });
});
