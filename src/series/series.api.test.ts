import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  expect422,
  expectError,
  type Json,
  NOW,
  openStudio,
  outboxOf,
  PHONE,
  type Studio,
} from '../../test/bookings/bookings-kit.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';

let s: Studio;
beforeAll(async () => {
  // The webhook tests subscribe a local address (no delivery is attempted: no worker runs).
  s = await openStudio({ config: { webhooksAllowPrivate: true } });
});
afterAll(() => s.t.close());

const weekly = (count: number, mode?: string, extra: Record<string, unknown> = {}) => ({
  frequency: 'weekly',
  interval: 1,
  count,
  ...(mode ? { mode } : {}),
  ...extra,
});

async function postSeries(body: Record<string, unknown>, headers?: Record<string, string>) {
  return s.t.call('POST', '/series', body, headers);
}

async function created(body: Record<string, unknown>): Promise<Json> {
  const response = await postSeries(body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function seriesEvents(seriesId: string) {
  const rows = await s.t.db
    .selectFrom('outbox_events')
    .select(['type', 'sequence', 'payload'])
    .where('workspace_id', '=', s.t.workspace.id)
    .where('type', 'like', 'series-%')
    .orderBy('sequence')
    .execute();
  return rows
    .map((row) => ({
      ...row,
      payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Json,
    }))
    .filter((row) => row.payload.data.series.uuid === seriesId);
}

async function historyActions(bookingId: string): Promise<string[]> {
  const response = await s.t.call('GET', `/bookings/${bookingId}/history`);
  expect(response.statusCode).toBe(200);
  return response.json().data.map((entry: Json) => entry.action);
}

describe('POST /series', () => {
  // Thursdays 2026-10-01, 10-08, 10-15 at 10:00 Berlin (summer time, UTC+2); 10-08 is taken.
  const first = at('2026-10-01', '10:00');

  it('all_or_nothing with one date taken: 409, nothing booked, each verdict and the nearest free times', async () => {
    const taken = await book(
      s.t,
      bookingBody(s.f, at('2026-10-08', '10:00'), { customer_phone: '+4915111111111' }),
    );
    const response = await postSeries({ ...bookingBody(s.f, first), recurrence: weekly(3) });
    const body = expectError(response, 409, 'series_conflict');
    expect(body.results.map((r: Json) => [r.date, r.start_time, r.result, r.reason, r.booking_uuid])).toEqual(
      [
        ['2026-10-01', '2026-10-01T08:00:00Z', 'not_booked', null, null],
        ['2026-10-08', '2026-10-08T08:00:00Z', 'conflict', 'taken', null],
        ['2026-10-15', '2026-10-15T08:00:00Z', 'not_booked', null, null],
      ],
    );
    // Anna works 09:00-17:00; 10:00-11:00 is taken, so the nearest starts are 09:00 and 11:00.
    const nearest = body.results[1].nearest_free_times.map((t: Json) => t.start_time_local);
    expect(nearest.slice(0, 2)).toEqual(['2026-10-08T09:00:00+02:00', '2026-10-08T11:00:00+02:00']);
    const list = await s.t.call(
      'GET',
      `/bookings?staffer_uuid=${s.f.anna.id}&reserved_on_from=2026-10-01T00:00:00Z&reserved_on_to=2026-10-16T00:00:00Z`,
    );
    expect(list.json().data.map((b: Json) => b.uuid)).toEqual([taken.uuid]);
  });

  it('book_free with the same date taken: 201, the free ones booked and linked, the taken one reported', async () => {
    const answer = await created({ ...bookingBody(s.f, first), recurrence: weekly(3, 'book_free') });
    expect(answer.results.map((r: Json) => [r.date, r.result, r.reason])).toEqual([
      ['2026-10-01', 'booked', null],
      ['2026-10-08', 'conflict', 'taken'],
      ['2026-10-15', 'booked', null],
    ]);
    expect(answer.results[1].nearest_free_times.length).toBeGreaterThan(0);
    const series = answer.data;
    expect(series.recurrence).toEqual({
      frequency: 'weekly',
      interval: 1,
      weekdays: [],
      until: null,
      count: 3,
      first_date: '2026-10-01',
      time: '10:00',
    });
    expect(series.mode).toBe('book_free');
    expect(series.occurrences.map((o: Json) => [o.date, o.start_time, o.status.type])).toEqual([
      ['2026-10-01', '2026-10-01T08:00:00Z', 'new'],
      ['2026-10-15', '2026-10-15T08:00:00Z', 'new'],
    ]);
    for (const occurrence of series.occurrences) {
      const booking = (await s.t.call('GET', `/bookings/${occurrence.booking_uuid}`)).json().data;
      expect(booking.series_uuid).toBe(series.uuid);
      expect(booking.customer.phone).toBe(PHONE);
      // Each occurrence is a normal booking: its own booking-created event.
      expect((await outboxOf(s.t, occurrence.booking_uuid)).map((e) => e.type)).toEqual(['booking-created']);
    }
    const events = await seriesEvents(series.uuid);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([['series-created', 1]]);
    expect(events[0]!.payload.data.series.occurrences).toHaveLength(2);
    const read = await s.t.call('GET', `/series/${series.uuid}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(series);
  });

  it('a booking made alone answers without series_uuid, as before', async () => {
    const single = await book(s.t, bookingBody(s.f, at('2026-10-02', '10:00')));
    expect('series_uuid' in single).toBe(false);
  });

  it('keeps 09:00 across the last Sunday of March (Berlin): the UTC instant moves by an hour', async () => {
    s.clock.set('2027-03-01T08:00:00Z');
    try {
      const answer = await created({
        ...bookingBody(s.f, '2027-03-18T08:00:00Z', { staffer_uuid: s.f.ben.id }),
        recurrence: { frequency: 'weekly', weekdays: ['thu'], until: '2027-04-01' },
      });
      expect(answer.results.map((r: Json) => [r.date, r.start_time, r.start_time_local, r.result])).toEqual([
        ['2027-03-18', '2027-03-18T08:00:00Z', '2027-03-18T09:00:00+01:00', 'booked'],
        ['2027-03-25', '2027-03-25T08:00:00Z', '2027-03-25T09:00:00+01:00', 'booked'],
        ['2027-04-01', '2027-04-01T07:00:00Z', '2027-04-01T09:00:00+02:00', 'booked'],
      ]);
    } finally {
      s.clock.set(NOW);
    }
  });

  it('books the most a series takes, 52 dates, in one request', async () => {
    // Every day from 2026-09-02 at 16:00 Berlin with Ben, free then so far; canceled at the end
    // so later tests find those times free again.
    const answer = await created({
      ...bookingBody(s.f, at('2026-09-02', '16:00'), {
        staffer_uuid: s.f.ben.id,
        customer_phone: '+4915133333333',
      }),
      recurrence: { frequency: 'daily', count: 52 },
    });
    expect(answer.results).toHaveLength(52);
    expect(answer.results.every((r: Json) => r.result === 'booked')).toBe(true);
    expect(answer.results.at(-1).date).toBe('2026-10-23');
    const cancel = await s.t.call('POST', `/series/${answer.data.uuid}/cancel`, { scope: 'all' });
    expect(cancel.statusCode).toBe(200);
  });

  it('refuses a bad rule in one 422 with the booking fields', async () => {
    expect422(
      await postSeries({
        ...bookingBody(s.f, first, { customer_phone: 'nope' }),
        recurrence: { frequency: 'daily', count: 3, until: '2026-10-10' },
      }),
      ['customer_phone', 'recurrence.count'],
    );
    expect422(
      await postSeries({
        ...bookingBody(s.f, first),
        recurrence: { frequency: 'daily', until: '2027-12-31' },
      }),
      ['recurrence.until'],
    );
    expect422(
      await postSeries({ ...bookingBody(s.f, first), recurrence: { frequency: 'hourly', count: 2 } }),
      ['recurrence.frequency'],
    );
  });

  it('with an Idempotency-Key a repeat answers the first series and books nothing more', async () => {
    const body = {
      ...bookingBody(s.f, at('2026-10-05', '15:00')),
      recurrence: { frequency: 'daily', count: 2 },
    };
    const key = { 'idempotency-key': 'series-repeat-1' };
    const firstAnswer = await postSeries(body, key);
    expect(firstAnswer.statusCode, firstAnswer.body).toBe(201);
    const again = await postSeries(body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(firstAnswer.body);
    const rows = await s.t.db
      .selectFrom('booking_series')
      .select('id')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('first_date', '=', '2026-10-05')
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('changing a series: this, this and the following, all', () => {
  it('each scope changes its occurrences, with history and events per occurrence and the series event', async () => {
    // Mondays 2026-10-05 .. 10-26 at 12:00 with Ben (10-26 is winter time: 12:00 = 11:00Z).
    const answer = await created({
      ...bookingBody(s.f, at('2026-10-05', '12:00'), { staffer_uuid: s.f.ben.id }),
      recurrence: weekly(4),
    });
    const series = answer.data;
    const ids: string[] = series.occurrences.map((o: Json) => o.booking_uuid);
    expect(series.occurrences.map((o: Json) => o.start_time)).toEqual([
      '2026-10-05T10:00:00Z',
      '2026-10-12T10:00:00Z',
      '2026-10-19T10:00:00Z',
      '2026-10-26T11:00:00Z',
    ]);

    // this: only the second is canceled.
    const one = await s.t.call('POST', `/series/${series.uuid}/cancel`, {
      scope: 'this',
      booking_uuid: ids[1],
      cancel_reason: 'postponed',
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data.occurrences.map((o: Json) => o.status.type)).toEqual([
      'new',
      'canceled',
      'new',
      'new',
    ]);
    expect(await historyActions(ids[1]!)).toEqual(['created', 'canceled']);
    expect(await historyActions(ids[0]!)).toEqual(['created']);
    expect((await outboxOf(s.t, ids[1]!)).map((e) => e.type)).toEqual([
      'booking-created',
      'booking-canceled',
    ]);

    // following from the third: the third and fourth move to 14:00 on their own dates.
    const moved = await s.t.call('PATCH', `/series/${series.uuid}`, {
      scope: 'following',
      booking_uuid: ids[2],
      time: '14:00',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.occurrences.map((o: Json) => o.start_time_local)).toEqual([
      '2026-10-05T12:00:00+02:00',
      '2026-10-12T12:00:00+02:00',
      '2026-10-19T14:00:00+02:00',
      '2026-10-26T14:00:00+01:00',
    ]);
    expect(moved.json().results.map((r: Json) => [r.booking_uuid, r.result])).toEqual([
      [ids[2], 'booked'],
      [ids[3], 'booked'],
    ]);
    for (const id of [ids[2]!, ids[3]!]) {
      expect(await historyActions(id)).toEqual(['created', 'rescheduled']);
      expect((await outboxOf(s.t, id)).map((e) => e.type)).toEqual([
        'booking-created',
        'booking-updated',
        'booking-rescheduled',
      ]);
    }
    expect(await historyActions(ids[0]!)).toEqual(['created']);

    // all: every live occurrence is canceled, the series with them.
    const all = await s.t.call('POST', `/series/${series.uuid}/cancel`, { scope: 'all' });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.is_canceled).toBe(true);
    expect(all.json().data.occurrences.map((o: Json) => o.status.type)).toEqual([
      'canceled',
      'canceled',
      'canceled',
      'canceled',
    ]);
    expect(all.json().results.map((r: Json) => r.booking_uuid)).toEqual([ids[0], ids[2], ids[3]]);
    expect(await historyActions(ids[1]!)).toEqual(['created', 'canceled']);
    expect(await historyActions(ids[3]!)).toEqual(['created', 'rescheduled', 'canceled']);
    expect((await seriesEvents(series.uuid)).map((e) => [e.type, e.sequence])).toEqual([
      ['series-created', 1],
      ['series-updated', 2],
      ['series-updated', 3],
      ['series-canceled', 4],
    ]);
  });

  it('a move that meets a taken time changes nothing and answers each verdict', async () => {
    const answer = await created({
      ...bookingBody(s.f, at('2026-09-21', '09:00'), { staffer_uuid: s.f.ben.id }),
      recurrence: { frequency: 'daily', count: 2 },
    });
    const ids: string[] = answer.data.occurrences.map((o: Json) => o.booking_uuid);
    await book(
      s.t,
      bookingBody(s.f, at('2026-09-22', '15:00'), {
        staffer_uuid: s.f.ben.id,
        customer_phone: '+4915122222222',
      }),
    );
    const response = await s.t.call('PATCH', `/series/${answer.data.uuid}`, { scope: 'all', time: '15:00' });
    const body = expectError(response, 409, 'series_conflict');
    expect(body.results.map((r: Json) => [r.booking_uuid, r.start_time_local, r.result])).toEqual([
      [ids[0], '2026-09-21T15:00:00+02:00', 'not_booked'],
      [ids[1], '2026-09-22T15:00:00+02:00', 'conflict'],
    ]);
    expect(await historyActions(ids[0]!)).toEqual(['created']);
  });

  it('changes the staffer of this one, and the services of all, each through the booking change', async () => {
    const answer = await created({
      ...bookingBody(s.f, at('2026-09-28', '16:00'), { staffer_uuid: s.f.ben.id }),
      recurrence: { frequency: 'daily', count: 2 },
    });
    const ids: string[] = answer.data.occurrences.map((o: Json) => o.booking_uuid);
    const restaffed = await s.t.call('PATCH', `/series/${answer.data.uuid}`, {
      scope: 'this',
      booking_uuid: ids[1],
      staffer_uuid: s.f.anna.id,
    });
    expect(restaffed.statusCode, restaffed.body).toBe(200);
    expect(restaffed.json().data.occurrences.map((o: Json) => o.staffer_uuid)).toEqual([
      s.f.ben.id,
      s.f.anna.id,
    ]);
    expect(await historyActions(ids[1]!)).toEqual(['created', 'staffer_changed']);
    expect(await historyActions(ids[0]!)).toEqual(['created']);
    const serviced = await s.t.call('PATCH', `/series/${answer.data.uuid}`, {
      scope: 'all',
      service_uuids: [s.f.color.id],
    });
    expect(serviced.statusCode, serviced.body).toBe(200);
    for (const id of ids) {
      const booking = (await s.t.call('GET', `/bookings/${id}`)).json().data;
      expect(booking.ordered_services.map((line: Json) => line.name)).toEqual(['Color']);
      expect((await historyActions(id)).at(-1)).toBe('services_changed');
    }
    expect((await seriesEvents(answer.data.uuid)).map((e) => e.type)).toEqual([
      'series-created',
      'series-updated',
      'series-updated',
    ]);
  });

  it('refuses a booking of another series, and an unknown series', async () => {
    const answer = await created({
      ...bookingBody(s.f, at('2026-09-23', '09:00'), { staffer_uuid: s.f.ben.id }),
      recurrence: { frequency: 'daily', count: 1 },
    });
    const stranger = await book(s.t, bookingBody(s.f, at('2026-09-23', '13:00')));
    expect422(
      await s.t.call('POST', `/series/${answer.data.uuid}/cancel`, {
        scope: 'this',
        booking_uuid: stranger.uuid,
      }),
      ['booking_uuid'],
    );
    expectError(await s.t.call('GET', '/series/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  });
});

describe('webhooks of a series', () => {
  it('a subscription to the series events gets them, and one to booking-created each occurrence', async () => {
    // What the other tests recorded goes out first, before these subscriptions exist.
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);
    const seriesHook = (
      await s.t.call('POST', '/webhooks', {
        url: 'http://127.0.0.1:9/series',
        events: ['series-created', 'series-canceled'],
      })
    ).json().data;
    const bookingHook = (
      await s.t.call('POST', '/webhooks', { url: 'http://127.0.0.1:9/bookings', events: ['booking-created'] })
    ).json().data;
    const answer = await created({
      ...bookingBody(s.f, at('2026-09-29', '10:00'), { staffer_uuid: s.f.ben.id }),
      recurrence: { frequency: 'daily', count: 2 },
    });
    const canceled = await s.t.call('POST', `/series/${answer.data.uuid}/cancel`, { scope: 'all' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);
    const deliveries = async (webhookId: string) =>
      (
        await s.t.db
          .selectFrom('webhook_deliveries')
          .select(['event_type', 'body'])
          .where('workspace_id', '=', s.t.workspace.id)
          .where('webhook_id', '=', webhookId)
          .orderBy('created_at')
          .execute()
      ).map((row) => ({ type: row.event_type, body: JSON.parse(row.body) as Json }));
    const series = await deliveries(seriesHook.uuid);
    expect(series.map((d) => d.type)).toEqual(['series-created', 'series-canceled']);
    expect(series.map((d) => d.body.data.series.uuid)).toEqual([answer.data.uuid, answer.data.uuid]);
    expect(series[1]!.body.data.series.is_canceled).toBe(true);
    const bookings = await deliveries(bookingHook.uuid);
    expect(bookings.map((d) => [d.type, d.body.data.booking.series_uuid])).toEqual([
      ['booking-created', answer.data.uuid],
      ['booking-created', answer.data.uuid],
    ]);
  });
});
