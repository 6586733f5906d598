import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';
import { makeUser } from '../../test/helpers/panel-client.js';
import type { WeeklyJson } from '../platform/db/schema.js';
import { type RecordedStatement, recordStatements } from '../platform/db/statement-recorder.js';
import { deleteMembership } from '../users/users.repository.js';
import { openWritePath } from '../write-path.js';
import { linkMemberToStaffer, regenerateFeed } from './calendar-feeds.service.js';

/**
 * Calendar feeds at `/ical/<token>.ics`, read as a calendar app would (parsed by ical.js, never
 * compared as text). Bookings are made through the API; the feed is fetched through the app.
 */
const PUBLIC_URL = 'https://book.example';
const clock = new FixedClock('2026-10-10T08:00:00Z');
const ALL_DAY: WeeklyJson = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [{ from: '00:00', to: '24:00' }]]),
);
let t: TestApp;
let nina: { id: string };
let ben: { id: string };
let location: { id: string };
let consult: { id: string };
/** uuid of each booking by what it is. */
const booked: Record<string, string> = {};

async function book(name: string, reservedOn: string, stafferId: string) {
  const response = await t.call('POST', '/bookings', {
    reserved_on: reservedOn,
    location_uuid: location.id,
    service_uuid: consult.id,
    staffer_uuid: stafferId,
    customer_phone: '+4915170000031',
    customer_first_name: 'Erika',
    customer_last_name: 'Muster',
    booking_comment: 'Second floor',
  });
  expect(response.statusCode, response.body).toBe(201);
  booked[name] = response.json().data.uuid;
}

const uow = () => openWritePath(t.db).uow;
const pathOf = (url: string) => new URL(url).pathname;

async function fetchFeed(url: string) {
  return t.app.inject({ method: 'GET', url: pathOf(url) });
}

interface ParsedEvent {
  uid: string;
  start: ICAL.Time;
  end: ICAL.Time;
  summary: string;
  location: string;
  description: string;
}

/** The feed as a calendar app reads it: every VEVENT by booking uuid. */
function parseFeed(body: string): { calendar: ICAL.Component; events: Map<string, ParsedEvent> } {
  const calendar = new ICAL.Component(ICAL.parse(body));
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  expect(calendar.getFirstPropertyValue('prodid')).toBeTruthy();
  // RFC 5545 §3.4: a calendar holds at least one component, an empty feed too.
  expect(calendar.getAllSubcomponents().length).toBeGreaterThan(0);
  const events = new Map<string, ParsedEvent>();
  for (const component of calendar.getAllSubcomponents('vevent')) {
    // RFC 5545 §3.6.1: UID and DTSTAMP are required in every VEVENT of a calendar without METHOD
    // REQUEST; DTSTART too.
    expect(component.getFirstPropertyValue('dtstamp')).toBeTruthy();
    const event = new ICAL.Event(component);
    const uid = event.uid.split('@')[0]!;
    events.set(uid, {
      uid: event.uid,
      start: event.startDate,
      end: event.endDate,
      summary: event.summary,
      location: event.location,
      description: event.description,
    });
  }
  // Content lines fold at 75 octets (RFC 5545 §3.1).
  for (const line of body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  return { calendar, events };
}

/** The wall time of an instant in a zone, as "YYYY-MM-DD HH:MM GMT+X". */
function wallTime(date: Date, zone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'shortOffset',
  }).format(date);
}

beforeAll(async () => {
  t = await buildTestApp({ clock, config: { publicUrl: PUBLIC_URL } });
  const ws = t.workspace.id;
  location = await createLocation(t.db, ws, { name: 'Mitte studio', timezone: 'Europe/Berlin' });
  consult = await createService(t.db, ws, [location.id], { name: 'Consultation', durationMinutes: 120 });
  nina = await createStaffer(t.db, ws, location.id, [consult.id], {
    firstName: 'Nina',
    lastName: 'Night',
    weekly: ALL_DAY,
  });
  ben = await createStaffer(t.db, ws, location.id, [consult.id], { firstName: 'Ben', weekly: ALL_DAY });
  expect((await t.call('PATCH', '/workspace', { horizon_days: 365 })).statusCode).toBe(200);

  // Made while it was late August: one 40 days before "now" (outside), one 20 days before (inside).
  clock.set('2026-08-25T08:00:00Z');
  await book('fortyDaysAgo', '2026-08-31T07:00:00Z', nina.id);
  await book('twentyDaysAgo', '2026-09-20T07:00:00Z', nina.id);
  clock.set('2026-10-10T08:00:00Z');
  // 01:30 summer time on the night clocks go back (03:00 CEST -> 02:00 CET), for two hours.
  await book('acrossFallBack', '2026-10-24T23:30:00Z', nina.id);
  // 01:30 winter time on the night clocks go forward (02:00 CET -> 03:00 CEST), for two hours.
  await book('acrossSpringForward', '2027-03-28T00:30:00Z', nina.id);
  await book('canceled', '2026-10-12T08:00:00Z', nina.id);
  expect((await t.call('PUT', `/bookings/${booked.canceled}/status/cancel`, {})).statusCode).toBe(200);
  await book('bens', '2026-10-13T08:00:00Z', ben.id);
});

afterAll(() => t.close());

describe('a staffer calendar feed', () => {
  it('holds the staffer’s live bookings from 30 days back to the horizon, each at its instant across DST', async () => {
    const { url } = await regenerateFeed(uow(), t.workspace, { stafferId: nina.id }, PUBLIC_URL, clock.now());
    expect(url).toMatch(/^https:\/\/book\.example\/ical\/[A-Za-z0-9_-]{65}\.ics$/);
    const response = await fetchFeed(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar/);
    // Calendar apps probe with HEAD too.
    expect((await t.app.inject({ method: 'HEAD', url: pathOf(url) })).statusCode).toBe(200);
    const { calendar, events } = parseFeed(response.body);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Test Studio · Nina Night');
    expect([...events.keys()].sort()).toEqual(
      [booked.twentyDaysAgo, booked.acrossFallBack, booked.acrossSpringForward].sort(),
    );

    const fall = events.get(booked.acrossFallBack!)!;
    // UTC times: no VTIMEZONE needed, the instant is the instant.
    expect(fall.start.zone).toBe(ICAL.Timezone.utcTimezone);
    expect(fall.start.toJSDate().toISOString()).toBe('2026-10-24T23:30:00.000Z');
    expect(fall.end.toJSDate().toISOString()).toBe('2026-10-25T01:30:00.000Z');
    expect(fall.end.subtractDate(fall.start).toSeconds()).toBe(2 * 3600);
    // In Berlin: 01:30 summer time to 02:30 winter time, one wall hour for two real ones.
    expect(wallTime(fall.start.toJSDate(), 'Europe/Berlin')).toBe('2026-10-25 01:30 GMT+2');
    expect(wallTime(fall.end.toJSDate(), 'Europe/Berlin')).toBe('2026-10-25 02:30 GMT+1');

    const spring = events.get(booked.acrossSpringForward!)!;
    expect(spring.start.toJSDate().toISOString()).toBe('2027-03-28T00:30:00.000Z');
    expect(spring.end.subtractDate(spring.start).toSeconds()).toBe(2 * 3600);
    expect(wallTime(spring.start.toJSDate(), 'Europe/Berlin')).toBe('2027-03-28 01:30 GMT+1');
    expect(wallTime(spring.end.toJSDate(), 'Europe/Berlin')).toBe('2027-03-28 04:30 GMT+2');

    expect(fall.uid).toBe(`${booked.acrossFallBack}@book.example`);
    expect(fall.summary).toBe('Consultation · Erika Muster');
    expect(fall.location).toBe('Mitte studio, Berlin');
    expect(fall.description).toContain('+4915170000031');
    expect(fall.description).toContain('Second floor');
  });

  it('follows the workspace horizon and every change at the next refresh', async () => {
    const { url } = await regenerateFeed(uow(), t.workspace, { stafferId: nina.id }, PUBLIC_URL, clock.now());
    // 100 days from 2026-10-10 end on 2027-01-18: the March booking falls outside.
    expect((await t.call('PATCH', '/workspace', { horizon_days: 100 })).statusCode).toBe(200);
    try {
      const { events } = parseFeed((await fetchFeed(url)).body);
      expect(events.has(booked.acrossSpringForward!)).toBe(false);
      expect(events.has(booked.acrossFallBack!)).toBe(true);
    } finally {
      expect((await t.call('PATCH', '/workspace', { horizon_days: 365 })).statusCode).toBe(200);
    }
    const moved = await t.call('PUT', `/bookings/${booked.acrossFallBack}/reschedule`, {
      reserved_on: '2026-10-24T22:30:00Z',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = parseFeed((await fetchFeed(url)).body).events.get(booked.acrossFallBack!)!;
    expect(after.start.toJSDate().toISOString()).toBe('2026-10-24T22:30:00.000Z');
  });

  it('ends the old URL at once when regenerated, and the new one works at once', async () => {
    const first = await regenerateFeed(uow(), t.workspace, { stafferId: ben.id }, PUBLIC_URL, clock.now());
    expect((await fetchFeed(first.url)).statusCode).toBe(200);
    const second = await regenerateFeed(uow(), t.workspace, { stafferId: ben.id }, PUBLIC_URL, clock.now());
    expect(second.url).not.toBe(first.url);
    expect((await fetchFeed(first.url)).statusCode).toBe(404);
    const fresh = await fetchFeed(second.url);
    expect(fresh.statusCode).toBe(200);
    expect([...parseFeed(fresh.body).events.keys()]).toEqual([booked.bens]);
    // Only the token's hash is stored.
    const token = pathOf(second.url).slice('/ical/'.length, -'.ics'.length);
    const rows = await t.db
      .selectFrom('calendar_feeds')
      .selectAll()
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token.slice(22));
  });

  it('answers 404 to every token that opens no feed, and never a 500', async () => {
    const { url } = await regenerateFeed(uow(), t.workspace, { stafferId: nina.id }, PUBLIC_URL, clock.now());
    const token = pathOf(url).slice('/ical/'.length, -'.ics'.length);
    const other = await buildTestApp({ database: t.database, clock });
    try {
      const otherWorkspacePart = Buffer.from(other.workspace.id.replaceAll('-', ''), 'hex').toString(
        'base64url',
      );
      for (const path of [
        `/ical/${token}`, // no .ics
        `/ical/${token}.ics.ics`,
        `/ical/${token.slice(0, -1)}.ics`,
        `/ical/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}.ics`,
        `/ical/${otherWorkspacePart}${token.slice(22)}.ics`, // the secret under another workspace
        `/ical/${'A'.repeat(65)}.ics`,
        `/ical/${encodeURIComponent("'; drop table bookings; --")}.ics`,
        `/ical/${'x'.repeat(90)}.ics`,
        '/ical/.ics',
      ]) {
        const response = await t.app.inject({ method: 'GET', url: path });
        expect(response.statusCode, path).toBe(404);
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
      }
      // Past the router's parameter length: a 4xx of the framework, still no 500.
      expect((await t.app.inject({ method: 'GET', url: `/ical/${'x'.repeat(5000)}.ics` })).statusCode).toBe(
        414,
      );
      expect((await fetchFeed(url)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('sends only statements scoped to the feed’s workspace', async () => {
    const { url } = await regenerateFeed(uow(), t.workspace, { stafferId: nina.id }, PUBLIC_URL, clock.now());
    const statements: RecordedStatement[] = [];
    const stop = recordStatements((statement) => {
      if (statement.request?.startsWith('GET /ical/')) statements.push(statement);
    });
    try {
      expect((await fetchFeed(url)).statusCode).toBe(200);
    } finally {
      stop();
    }
    const tenant = /\b(calendar_feeds|bookings|staffers|memberships)\b/i;
    const touching = statements.filter((statement) => tenant.test(statement.sql));
    expect(touching.length).toBeGreaterThan(0);
    for (const statement of touching) expect(statement.sql).toMatch(/"?workspace_id"?\s*=\s*\$\d+/);
  });
});

describe('an archived staffer', () => {
  it('ends the staffer’s feed, and empties the feed of the member who was them', async () => {
    const cleo = await createStaffer(t.db, t.workspace.id, location.id, [consult.id], {
      firstName: 'Cleo',
      weekly: ALL_DAY,
    });
    await book('cleos', '2026-10-14T08:00:00Z', cleo.id);
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    await linkMemberToStaffer(uow(), t.workspace.id, user.id, cleo.id);
    const staffers = await regenerateFeed(
      uow(),
      t.workspace,
      { stafferId: cleo.id },
      PUBLIC_URL,
      clock.now(),
    );
    const own = await regenerateFeed(uow(), t.workspace, { userId: user.id }, PUBLIC_URL, clock.now());
    expect([...parseFeed((await fetchFeed(own.url)).body).events.keys()]).toEqual([booked.cleos]);

    expect((await t.call('DELETE', `/staffers/${cleo.id}`)).statusCode).toBe(204);
    expect((await fetchFeed(staffers.url)).statusCode).toBe(404);
    const after = await fetchFeed(own.url);
    expect(after.statusCode).toBe(200);
    expect(parseFeed(after.body).events.size).toBe(0);
  });
});

describe('a member’s own feed', () => {
  it('holds the bookings of the staffer the member is, and ends with the membership', async () => {
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    const { url } = await regenerateFeed(uow(), t.workspace, { userId: user.id }, PUBLIC_URL, clock.now());
    // Not linked to a staffer yet: a valid calendar without events.
    const empty = await fetchFeed(url);
    expect(empty.statusCode).toBe(200);
    expect(parseFeed(empty.body).events.size).toBe(0);

    await linkMemberToStaffer(uow(), t.workspace.id, user.id, ben.id);
    expect([...parseFeed((await fetchFeed(url)).body).events.keys()]).toEqual([booked.bens]);

    await deleteMembership(t.db, t.workspace.id, user.id);
    expect((await fetchFeed(url)).statusCode).toBe(404);
  });
});

describe('rate limit', () => {
  it('limits feed requests per IP like the booking page', async () => {
    const limited = await buildTestApp({
      database: t.database,
      clock,
      config: { widgetRequestsPerMinute: 2 },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push(
          (await limited.app.inject({ method: 'GET', url: `/ical/${'A'.repeat(65)}.ics` })).statusCode,
        );
      }
      expect(statuses).toEqual([404, 404, 429]);
      const other = await limited.app.inject({
        method: 'GET',
        url: `/ical/${'A'.repeat(65)}.ics`,
        remoteAddress: '127.0.0.9',
      });
      expect(other.statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
