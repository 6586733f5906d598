import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  type Json,
  openStudio,
  outboxOf,
  type Studio,
} from '../../../test/bookings/bookings-kit.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

let s: Studio;
let staff: PanelClient;
beforeAll(async () => {
  s = await openStudio();
  staff = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => s.t.close());

const NEW = '/panel/bookings/new';

/** The new booking form for Ben at `time` on `day`, repeated weekly `count` times. */
function repeatForm(day: string, time: string, overrides: Record<string, string | string[]> = {}) {
  return {
    location_uuid: s.f.location.id,
    service_uuid: [s.f.haircut.id],
    staffer_uuid: s.f.ben.id,
    date: day,
    reserved_on: time,
    customer_phone: '+49 151 3000 0001',
    customer_first_name: 'Ada',
    customer_last_name: 'Lovelace',
    repeat: 'yes',
    repeat_frequency: 'weekly',
    repeat_interval: '1',
    repeat_count: '3',
    repeat_until: '',
    repeat_mode: 'all_or_nothing',
    ...overrides,
  };
}

function keyOf(html: string, action: string): string {
  for (const form of html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (form[1] !== action) continue;
    const key = /name="idempotency_key" value="([^"]+)"/.exec(form[2]!)?.[1];
    if (key) return key;
  }
  throw new Error(`no form posting to ${action} with a key`);
}

const seriesIdOf = async (bookingId: string): Promise<string> =>
  (await s.t.call('GET', `/bookings/${bookingId}`)).json().data.series_uuid;
const seriesOf = async (bookingId: string): Promise<Json> =>
  (await s.t.call('GET', `/series/${await seriesIdOf(bookingId)}`)).json().data;

describe('New booking: Repeat', () => {
  it('is off by default', async () => {
    const page = await staff.get(NEW);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<legend>Repeat</legend>');
    expect(page.body).toMatch(/<input type="checkbox" name="repeat" value="yes" id="f-repeat"\/?>/);
  });

  it('books every date once, however often the form is sent, and opens the first with its series', async () => {
    const shown = await staff.get(NEW);
    const form = {
      ...repeatForm('2026-10-05', '09:00'),
      idempotency_key: keyOf(shown.body, '/panel/bookings'),
    };
    const answers = await Promise.all([
      staff.post('/panel/bookings', form),
      staff.post('/panel/bookings', form),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([303, 303]);
    expect(answers[0]!.headers.location).toBe(answers[1]!.headers.location);
    const id = /\/panel\/bookings\/([0-9a-f-]{36})\?notice=series-created$/.exec(
      String(answers[0]!.headers.location),
    )?.[1];
    expect(id).toBeDefined();
    const series = await seriesOf(id!);
    expect(series.occurrences.map((o: Json) => o.start_time_local)).toEqual([
      '2026-10-05T09:00:00+02:00',
      '2026-10-12T09:00:00+02:00',
      '2026-10-19T09:00:00+02:00',
    ]);
    const page = await staff.get(String(answers[0]!.headers.location));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The series was created: its bookings are listed below.');
    expect(page.body).toContain('Every week at 09:00');
    for (const occurrence of series.occurrences.slice(1))
      expect(page.body).toContain(`href="/panel/bookings/${occurrence.booking_uuid}"`);
    // The bookings list marks each of them as part of a series.
    const list = await staff.get('/panel/bookings?from=2026-10-05&to=2026-10-19');
    expect(list.statusCode).toBe(200);
    expect(list.body.split('Part of a series').length - 1).toBeGreaterThanOrEqual(3);
  });

  it('all or nothing with a date taken: a 409 naming each date, nothing booked', async () => {
    await book(
      s.t,
      bookingBody(s.f, at('2026-10-13', '09:00'), {
        staffer_uuid: s.f.ben.id,
        customer_phone: '+4915130000099',
      }),
    );
    const answer = await staff.submit(NEW, repeatForm('2026-10-06', '09:00'), '/panel/bookings');
    expect(answer.statusCode).toBe(409);
    expect(answer.body).toContain('Not every date is free: nothing was booked.');
    expect(answer.body).toContain('Tue, 13 Oct 2026, 09:00: not free.');
    expect(answer.body).toContain('Tue, 6 Oct 2026, 09:00: free');
    expect(answer.body).toMatch(/Free that day: 10:00/);
    const rows = await s.t.db
      .selectFrom('booking_series')
      .select('id')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('first_date', '=', '2026-10-06')
      .execute();
    expect(rows).toEqual([]);
  });

  it('names a bad rule next to its field', async () => {
    const answer = await staff.submit(
      NEW,
      repeatForm('2026-10-07', '09:00', { repeat_count: '60' }),
      '/panel/bookings',
    );
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toMatch(/id="f-repeat_count-error"/);
  });
});

describe('A booking of a series', () => {
  async function makeSeries(day: string, time: string): Promise<string[]> {
    const answer = await staff.submit(NEW, repeatForm(day, time), '/panel/bookings');
    expect(answer.statusCode, answer.body).toBe(303);
    const id = /bookings\/([0-9a-f-]{36})/.exec(String(answer.headers.location))![1]!;
    return (await seriesOf(id)).occurrences.map((o: Json) => o.booking_uuid);
  }

  it('cancels this and the following, each with its history and its booking-canceled event', async () => {
    const ids = await makeSeries('2026-10-01', '11:00');
    const answer = await staff.submit(
      `/panel/bookings/${ids[1]}`,
      { scope: 'following' },
      `/panel/bookings/${ids[1]}/series-cancel`,
    );
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/panel/bookings/${ids[1]}?notice=series-canceled`);
    const series = await seriesOf(ids[0]!);
    expect(series.occurrences.map((o: Json) => o.status.type)).toEqual(['new', 'canceled', 'canceled']);
    for (const id of [ids[1]!, ids[2]!])
      expect((await outboxOf(s.t, id)).map((e) => e.type)).toEqual(['booking-created', 'booking-canceled']);
    expect((await outboxOf(s.t, ids[0]!)).map((e) => e.type)).toEqual(['booking-created']);
    const page = await staff.get(String(answer.headers.location));
    expect(page.body).toContain('The bookings of the series were canceled.');
    expect(page.body).toContain('(this one)');
    // Every booking of the series is final or the scope's: the forms stay for the open first one.
    const first = await staff.get(`/panel/bookings/${ids[0]}`);
    expect(first.body).toContain(`action="/panel/bookings/${ids[0]}/series-cancel"`);
  });

  it('moves all of them to another time on their own dates', async () => {
    const ids = await makeSeries('2026-10-02', '13:00');
    const answer = await staff.submit(
      `/panel/bookings/${ids[2]}`,
      { scope: 'all', time: '15:30' },
      `/panel/bookings/${ids[2]}/series-move`,
    );
    expect(answer.statusCode).toBe(303);
    const series = await seriesOf(ids[0]!);
    expect(series.occurrences.map((o: Json) => o.start_time_local)).toEqual([
      '2026-10-02T15:30:00+02:00',
      '2026-10-09T15:30:00+02:00',
      '2026-10-16T15:30:00+02:00',
    ]);
    const history = (await s.t.call('GET', `/bookings/${ids[0]}/history`)).json().data;
    expect(history.map((h: Json) => h.action)).toEqual(['created', 'rescheduled']);
  });

  it('a move to a taken time is a 409 naming the date, and changes nothing', async () => {
    const ids = await makeSeries('2026-10-03', '10:00');
    await book(
      s.t,
      bookingBody(s.f, at('2026-10-10', '16:00'), {
        staffer_uuid: s.f.ben.id,
        customer_phone: '+4915130000098',
      }),
    );
    const answer = await staff.submit(
      `/panel/bookings/${ids[0]}`,
      { scope: 'all', time: '16:00' },
      `/panel/bookings/${ids[0]}/series-move`,
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.body).toContain(
      'Not every booking can move to that time: Sat, 10 Oct 2026, 16:00. Nothing was changed.',
    );
    const series = await seriesOf(ids[0]!);
    expect(series.occurrences.map((o: Json) => o.start_time_local.slice(11, 16))).toEqual([
      '10:00',
      '10:00',
      '10:00',
    ]);
  });

  it('speaks German and Arabic (right to left)', async () => {
    const ids = await makeSeries('2026-10-04', '14:00');
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', 'de');
    const de = await german.get(`/panel/bookings/${ids[0]}`);
    expect(de.body).toContain('<h2 id="booking-series">Serie</h2>');
    expect(de.body).toContain('Jede Woche um 14:00');
    expect(de.body).toContain('Diese und die folgenden');
    const arabic = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', 'ar');
    const ar = await arabic.get(`/panel/bookings/${ids[0]}`);
    expect(ar.body).toContain('dir="rtl"');
    expect(ar.body).toContain('<h2 id="booking-series">السلسلة</h2>');
    const newAr = await arabic.get(NEW);
    expect(newAr.body).toContain('<legend>التكرار</legend>');
  });
});
