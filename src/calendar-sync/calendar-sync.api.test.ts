/**
 * A staffer's own calendar through the real API, a real PGlite store and a real Radicale:
 * connect (discovery, a refused password, the password kept sealed), busy times blocking
 * time-slots and creates (single, recurring across the October DST change, all-day; transparent
 * not), moves and deletes made outside read back by "sync now", a server that goes away
 * mid-sync (last known busy times kept, bookings still taken), and disconnecting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  bookingBody,
  expectError,
  type Json,
  openStudio,
  type Studio,
} from '../../test/bookings/bookings-kit.js';
import { type Radicale, radicaleProxy, startRadicale } from '../../test/helpers/radicale.js';

let s: Studio;
let radicale: Radicale;
let work: string;
let privateCal: string;

const SECRET_KEY = 'calendar-sync-test-key-0123456789abcdef';

function ics(uid: string, lines: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260801T000000Z',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

async function slotStarts(stafferId: string, date: string): Promise<string[]> {
  const response = await s.t.call(
    'GET',
    `/locations/${s.f.location.id}/time-slots?${new URLSearchParams({
      service_uuid: s.f.haircut.id,
      staffer_uuid: stafferId,
      range_start: date,
      range_end: date,
    })}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().dates as Json[])[0].slots.map((slot: Json) => slot.start);
}

async function connect(stafferId: string, body: Record<string, unknown>) {
  return s.t.call('PUT', `/staffers/${stafferId}/calendar-connection`, body);
}

async function syncNow(stafferId: string): Promise<Json> {
  const response = await s.t.call('POST', `/staffers/${stafferId}/calendar-connection/sync`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  [s, radicale] = await Promise.all([
    openStudio({ config: { secretKey: SECRET_KEY, webhooksAllowPrivate: true } }),
    startRadicale(),
  ]);
  work = await radicale.makeCalendar('work', 'Work');
  privateCal = await radicale.makeCalendar('private', 'Private');
  // Wednesday 2 September: a meeting 10:00-11:00 Berlin, and a transparent one at 15:00.
  await radicale.put(
    work,
    'meeting.ics',
    ics('meeting', [
      'DTSTART;TZID=Europe/Berlin:20260902T100000',
      'DTEND;TZID=Europe/Berlin:20260902T110000',
      'SUMMARY:Dentist',
    ]),
  );
  await radicale.put(
    work,
    'free.ics',
    ics('free', [
      'DTSTART;TZID=Europe/Berlin:20260902T150000',
      'DTEND;TZID=Europe/Berlin:20260902T160000',
      'TRANSP:TRANSPARENT',
    ]),
  );
  // Thursday 3 September, all day, in the other calendar.
  await radicale.put(
    privateCal,
    'holiday.ics',
    ics('holiday', ['DTSTART;VALUE=DATE:20260903', 'SUMMARY:Holiday']),
  );
  // Every Monday 10:00-11:00 New York time: 16:00 in Berlin, but 15:00 on Monday 26 October
  // (Berlin left summer time on 25 October, New York only on 1 November).
  await radicale.put(
    work,
    'weekly.ics',
    ics('weekly', [
      'DTSTART;TZID=America/New_York:20260907T100000',
      'DTEND;TZID=America/New_York:20260907T110000',
      'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10',
      'EXDATE;TZID=America/New_York:20260914T100000',
    ]),
  );
});

afterAll(async () => {
  await s?.t.close();
  await radicale?.stop();
});

describe('connect', () => {
  it('a refused app password answers 422 on the password field and saves nothing', async () => {
    const response = await connect(s.f.anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: 'wrong',
    });
    expectError(response, 422, 'calendar_connect_failed');
    expect(Object.keys(response.json().errors)).toEqual(['password']);
    expect((await s.t.call('GET', `/staffers/${s.f.anna.id}/calendar-connection`)).statusCode).toBe(404);
  });

  it('test connection lists the calendars found from the bare server address', async () => {
    const response = await s.t.call('POST', `/staffers/${s.f.anna.id}/calendar-connection/test`, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json().data as Json[]).map((c) => c.name).sort()).toEqual(['Private', 'Work']);
  });

  it('connects, keeps the password sealed, and syncs at once', async () => {
    const response = await connect(s.f.anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.data.read_calendars.sort()).toEqual([privateCal, work].sort());
    expect(body.data.status).toBe('ok');
    expect(body.data.last_success_at).not.toBeNull();
    expect(response.body).not.toContain(radicale.password);
    const row = await s.t.db
      .selectFrom('calendar_connections')
      .select('password_sealed')
      .where('staffer_id', '=', s.f.anna.id)
      .executeTakeFirstOrThrow();
    expect(row.password_sealed).toMatch(/^v1\./);
    expect(row.password_sealed).not.toContain(radicale.password);
  });
});

describe('busy time blocks slots and creates', () => {
  it('a single event removes its hour; a transparent one does not', async () => {
    const starts = await slotStarts(s.f.anna.id, '2026-09-02');
    expect(starts).not.toContain('10:00');
    expect(starts).not.toContain('09:30');
    expect(starts).toContain('11:00');
    expect(starts).toContain('15:00');
    // Ben has no calendar: his day is whole.
    expect(await slotStarts(s.f.ben.id, '2026-09-02')).toContain('10:00');
  });

  it('an all-day event of another chosen calendar blocks the day', async () => {
    expect(await slotStarts(s.f.anna.id, '2026-09-03')).toEqual([]);
  });

  it('a weekly event in New York keeps 10:00 there across both DST changes, minus its EXDATE', async () => {
    // Berlin is 6 hours ahead of New York, except 26 October (Berlin on winter time, New York not).
    expect(await slotStarts(s.f.anna.id, '2026-09-07')).not.toContain('16:00');
    expect(await slotStarts(s.f.anna.id, '2026-09-14')).toContain('16:00');
    const oct26 = await slotStarts(s.f.anna.id, '2026-10-26');
    expect(oct26).not.toContain('15:00');
    expect(oct26).toContain('16:00');
    expect(await slotStarts(s.f.anna.id, '2026-11-02')).not.toContain('16:00');
  });

  it('a create at a blocked time is refused like any taken time', async () => {
    expectError(
      await s.t.call('POST', '/bookings', bookingBody(s.f, at('2026-09-02', '10:00'))),
      409,
      'slot_unavailable',
    );
    const ok = await s.t.call('POST', '/bookings', bookingBody(s.f, at('2026-09-02', '11:00')));
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('busy times answer "Busy" (no title) until the staffer shows titles', async () => {
    const path = `/staffers/${s.f.anna.id}/busy-times?from=2026-09-02T00:00:00Z&to=2026-09-02T21:00:00Z`;
    const hidden = (await s.t.call('GET', path)).json().data as Json[];
    expect(hidden).toEqual([
      {
        start_time: '2026-09-02T08:00:00.000Z',
        end_time: '2026-09-02T09:00:00.000Z',
        all_day: false,
        title: null,
      },
    ]);
    // Password left out: the saved one is kept (same server and user).
    const changed = await connect(s.f.anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      show_titles: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const shown = (await s.t.call('GET', path)).json().data as Json[];
    expect(shown.map((b) => b.title)).toEqual(['Dentist']);
  });
});

describe('changes made outside are read back', () => {
  it('a moved event frees its old time and blocks the new one after sync now', async () => {
    await radicale.put(
      work,
      'meeting.ics',
      ics('meeting', [
        'DTSTART;TZID=Europe/Berlin:20260902T130000',
        'DTEND;TZID=Europe/Berlin:20260902T140000',
        'SUMMARY:Dentist',
      ]),
    );
    // Cached answers may hold the old state until the sync changes the availability version.
    expect(await slotStarts(s.f.anna.id, '2026-09-02')).not.toContain('10:00');
    const sync = await syncNow(s.f.anna.id);
    expect(sync.sync).toEqual({ ok: true, changed: 1, removed: 0, error: null });
    const starts = await slotStarts(s.f.anna.id, '2026-09-02');
    expect(starts).toContain('10:00');
    expect(starts).not.toContain('13:00');
  });

  it('a deleted event stops blocking', async () => {
    await radicale.remove(`${work}meeting.ics`);
    const sync = await syncNow(s.f.anna.id);
    expect(sync.sync).toMatchObject({ ok: true, removed: 1 });
    expect(await slotStarts(s.f.anna.id, '2026-09-02')).toContain('13:00');
  });
});

describe('failure never blocks the business', () => {
  it('a server that goes away mid-sync keeps the last known busy times; bookings are still taken', async () => {
    const proxy = await radicaleProxy(radicale);
    try {
      const ben = s.f.ben.id;
      await radicale.put(
        work,
        'ben.ics',
        ics('ben', [
          'DTSTART;TZID=Europe/Berlin:20260904T100000',
          'DTEND;TZID=Europe/Berlin:20260904T110000',
        ]),
      );
      const connected = await connect(ben, {
        server_url: proxy.url,
        username: radicale.user,
        password: radicale.password,
        read_calendars: [`${proxy.url}anna/work/`],
      });
      expect(connected.statusCode, connected.body).toBe(200);
      expect(await slotStarts(ben, '2026-09-04')).not.toContain('10:00');

      // A change, and the server drops the connection while the objects are fetched.
      await radicale.put(
        work,
        'ben.ics',
        ics('ben', [
          'DTSTART;TZID=Europe/Berlin:20260904T140000',
          'DTEND;TZID=Europe/Berlin:20260904T150000',
        ]),
      );
      proxy.setDecide((_req, body) => (body.includes('calendar-multiget') ? 'drop' : 'pass'));
      const failed = await syncNow(ben);
      expect(failed.sync.ok).toBe(false);
      expect(failed.data.status).toBe('failing');
      expect(failed.data.last_error).toMatch(/closed|socket|hang up|reset/i);
      // Retried with backoff, not at once.
      expect(Date.parse(failed.data.next_sync_at)).toBeGreaterThanOrEqual(s.clock.now() + 5 * 60_000);
      // The last known busy time still blocks; a booking at a free time is taken.
      const starts = await slotStarts(ben, '2026-09-04');
      expect(starts).not.toContain('10:00');
      expect(starts).toContain('14:00');
      const booked = await s.t.call(
        'POST',
        '/bookings',
        bookingBody(s.f, at('2026-09-04', '12:00'), { staffer_uuid: ben }),
      );
      expect(booked.statusCode, booked.body).toBe(201);

      // Back: the next sync applies the move.
      proxy.setDecide(() => 'pass');
      const back = await syncNow(ben);
      expect(back.data.status).toBe('ok');
      const after = await slotStarts(ben, '2026-09-04');
      expect(after).toContain('10:00');
      expect(after).not.toContain('14:00');
    } finally {
      await proxy.close();
    }
  });

  it('a 401 marks the connection refused and keeps its busy times', async () => {
    const proxy = await radicaleProxy(radicale);
    try {
      const res = await connect(s.f.ben.id, {
        server_url: proxy.url,
        username: radicale.user,
        password: radicale.password,
        read_calendars: [`${proxy.url}anna/work/`],
      });
      expect(res.statusCode, res.body).toBe(200);
      proxy.setDecide(() => ({ status: 401, body: '' }));
      const refused = await syncNow(s.f.ben.id);
      expect(refused.data.status).toBe('refused');
      expect(await slotStarts(s.f.ben.id, '2026-09-04')).not.toContain('14:00');
    } finally {
      await proxy.close();
    }
  });

  it('disconnecting frees the time at once', async () => {
    expect(await slotStarts(s.f.anna.id, '2026-09-03')).toEqual([]);
    const response = await s.t.call('DELETE', `/staffers/${s.f.anna.id}/calendar-connection`);
    expect(response.statusCode).toBe(204);
    expect(await slotStarts(s.f.anna.id, '2026-09-03')).toContain('09:00');
    expect(
      await s.t.db
        .selectFrom('calendar_busy_spans')
        .select('href')
        .where('staffer_id', '=', s.f.anna.id)
        .execute(),
    ).toEqual([]);
  });
});
