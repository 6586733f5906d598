import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, type Json, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { createStaffer } from '../../test/helpers/factories.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { offerOpenedTimes } from './opened-times.service.js';

// "New hours" (docs/waitlist.md "When a time frees") through the real app on the real store
// (PGlite, or PostgreSQL with TEST_DATABASE_URL): a staffer's hours replaced over the API record
// `schedule-updated`, and its dispatch offers the people waiting the times that opened. The
// studio's clock stands at 2026-09-01T08:00Z, a Tuesday; each test has a staffer of its own, who
// gives the haircut (60 minutes, a 15-minute grid) and works every day but Monday and Sunday.
let s: Studio;
const faults: unknown[] = [];
const logger = { error: (object: object) => faults.push(object) };

beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

const dispatch = () => dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000, undefined, logger);
const NINE_TO_FIVE = [{ from: '09:00', to: '17:00' }];
const WITHOUT_MONDAY_AND_SUNDAY = {
  tue: NINE_TO_FIVE,
  wed: NINE_TO_FIVE,
  thu: NINE_TO_FIVE,
  fri: NINE_TO_FIVE,
  sat: NINE_TO_FIVE,
};

async function newStaffer(firstName: string): Promise<string> {
  const staffer = await createStaffer(s.t.db, s.t.workspace.id, s.f.location.id, [s.f.haircut.id], {
    firstName,
    weekly: WITHOUT_MONDAY_AND_SUNDAY,
  });
  return staffer.id;
}

async function setHours(stafferId: string, weekly: Record<string, { from: string; to: string }[]>) {
  const put = await s.t.call('PUT', `/staffers/${stafferId}/schedules/${s.f.location.id}`, {
    weekly,
    breaks: {},
    overrides: [],
  });
  expect(put.statusCode, put.body).toBe(200);
}

async function join(body: Record<string, unknown>): Promise<Json> {
  const response = await s.t.call('POST', '/waitlist', {
    location_uuid: s.f.location.id,
    service_uuid: s.f.haircut.id,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function offersOf(entryId: string): Promise<Json[]> {
  const response = await s.t.call('GET', `/waitlist/offers?entry_uuid=${entryId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function stateOf(entryId: string): Promise<string> {
  const response = await s.t.call('GET', `/waitlist/${entryId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.state;
}

/** The undispatched events of one type, as their bodies. */
async function pending(type: string): Promise<Json[]> {
  const rows = await s.t.db
    .selectFrom('outbox_events')
    .select('payload')
    .where('workspace_id', '=', s.t.workspace.id)
    .where('type', '=', type)
    .where('dispatched_at', 'is', null)
    .execute();
  return rows.map((row) => row.payload as Json);
}

describe('a change of working hours offers the times it opened', () => {
  it('offers Monday 10:00 to a person waiting for Monday 10:00–12:00 once Monday hours are added', async () => {
    await dispatch(); // nothing of the studio's setup left in the outbox
    const carla = await newStaffer('Carla');
    const first = await join({
      customer_phone: '+4915100000101',
      staffer_uuid: carla,
      windows: [{ date: '2026-09-07', from: '10:00', to: '12:00' }],
    });
    s.clock.advance(1000);
    // Joined later, same window: in the "one at a time" mode the first in line gets 10:00, and
    // this one the next time that suits, 10:15.
    const second = await join({
      customer_phone: '+4915100000102',
      staffer_uuid: carla,
      windows: [{ date: '2026-09-07', from: '10:00', to: '12:00' }],
    });
    // Nothing was free on Monday: nobody has an offer yet.
    await dispatch();
    expect(await offersOf(first.uuid)).toEqual([]);

    await setHours(carla, { ...WITHOUT_MONDAY_AND_SUNDAY, mon: [{ from: '10:00', to: '18:00' }] });
    const [event] = await pending('schedule-updated');
    expect(event).toMatchObject({
      type: 'schedule-updated',
      sequence: 1,
      data: {
        schedule: {
          staffer_uuid: carla,
          location_uuid: s.f.location.id,
          weekly: { mon: [{ from: '10:00', to: '18:00' }] },
        },
      },
    });
    await dispatch();
    expect(faults).toEqual([]);

    expect(await offersOf(first.uuid)).toEqual([
      {
        uuid: expect.any(String),
        entry_uuid: first.uuid,
        location_uuid: s.f.location.id,
        service_uuid: s.f.haircut.id,
        staffer_uuid: carla,
        start_time: at('2026-09-07', '10:00'),
        held_until: '2026-09-01T08:30:01Z',
        state: 'open',
        made_by: 'freed',
        booking_uuid: null,
        created_at: '2026-09-01T08:00:01Z',
      },
    ]);
    expect((await offersOf(second.uuid)).map((o) => o.start_time)).toEqual([at('2026-09-07', '10:15')]);
    expect(await stateOf(first.uuid)).toBe('offered');
    // Each offer has its event, which its email and text follow, as a freed time's has.
    expect((await pending('waitlist-offer-created')).map((e) => e.data.waitlist_offer.entry_uuid)).toEqual([
      first.uuid,
      second.uuid,
    ]);
  });

  it('offers nothing when the change opens no time that suits', async () => {
    const dora = await newStaffer('Dora');
    const evening = await join({
      customer_phone: '+4915100000103',
      staffer_uuid: dora,
      windows: [{ date: '2026-09-14', from: '18:00', to: '20:00' }],
    });
    await setHours(dora, { ...WITHOUT_MONDAY_AND_SUNDAY, mon: NINE_TO_FIVE });
    expect(await pending('schedule-updated')).toHaveLength(1);
    await dispatch();
    expect(faults).toEqual([]);
    expect(await offersOf(evening.uuid)).toEqual([]);
    expect(await stateOf(evening.uuid)).toBe('waiting');
    expect(await pending('waitlist-offer-created')).toEqual([]);
  });

  it('gives a person who already has an open offer no second one', async () => {
    const emil = await newStaffer('Emil');
    const offeredAlready = await join({
      customer_phone: '+4915100000104',
      staffer_uuid: emil,
      any_time: true,
    });
    s.clock.advance(1000);
    const later = await join({
      customer_phone: '+4915100000105',
      staffer_uuid: emil,
      windows: [{ date: '2026-09-21', from: '10:00', to: '12:00' }],
    });
    const byHand = await s.t.call('POST', `/waitlist/${offeredAlready.uuid}/offers`, {
      reserved_on: at('2026-09-02', '09:00'),
    });
    expect(byHand.statusCode, byHand.body).toBe(201);
    await dispatch();

    await setHours(emil, { ...WITHOUT_MONDAY_AND_SUNDAY, mon: NINE_TO_FIVE });
    await dispatch();
    expect(faults).toEqual([]);
    expect((await offersOf(offeredAlready.uuid)).map((o) => [o.start_time, o.made_by])).toEqual([
      [at('2026-09-02', '09:00'), 'staff'],
    ]);
    // The change was looked at: the one still waiting got Monday's time.
    expect((await offersOf(later.uuid)).map((o) => o.start_time)).toEqual([at('2026-09-21', '10:00')]);
  });

  it('matches a window on the night clocks go back in wall time', async () => {
    const finn = await newStaffer('Finn');
    // Sunday 2026-10-25: 02:00–03:00 happens twice (summer time, then winter time).
    const night = await join({
      customer_phone: '+4915100000106',
      staffer_uuid: finn,
      windows: [{ date: '2026-10-25', from: '02:30', to: '03:00' }],
    });
    s.clock.advance(1000);
    const next = await join({
      customer_phone: '+4915100000107',
      staffer_uuid: finn,
      windows: [{ date: '2026-10-25', from: '02:30', to: '03:00' }],
    });
    s.clock.advance(1000);
    // 03:00 wall time, one hour after the first 02:00: not in the window.
    const afterwards = await join({
      customer_phone: '+4915100000108',
      staffer_uuid: finn,
      windows: [{ date: '2026-10-25', from: '03:00', to: '03:15' }],
    });
    await setHours(finn, { ...WITHOUT_MONDAY_AND_SUNDAY, sun: [{ from: '02:00', to: '06:00' }] });
    await dispatch();
    expect(faults).toEqual([]);
    // 02:30 summer time (+02:00), then 02:30 winter time (+01:00); 02:45 of each hour too, but
    // the first in line takes the earliest.
    expect((await offersOf(night.uuid)).map((o) => o.start_time)).toEqual(['2026-10-25T00:30:00Z']);
    expect((await offersOf(next.uuid)).map((o) => o.start_time)).toEqual(['2026-10-25T00:45:00Z']);
    expect((await offersOf(afterwards.uuid)).map((o) => o.start_time)).toEqual(['2026-10-25T02:00:00Z']);
  });
});

describe('changes of hours looked at concurrently', () => {
  it('offers each waiting person one time, and one time to one person, however many run at once', async () => {
    const gus = await newStaffer('Gus');
    const entries: Json[] = [];
    for (let i = 0; i < 4; i++) {
      entries.push(
        await join({
          customer_phone: `+49151000002${i}0`,
          staffer_uuid: gus,
          windows: [{ date: '2026-09-28', from: '09:00', to: '12:00' }],
        }),
      );
      s.clock.advance(1000);
    }
    await setHours(gus, { ...WITHOUT_MONDAY_AND_SUNDAY, mon: NINE_TO_FIVE });
    // Six looks at once (as if six changes of Gus's hours were dispatched together), each in a
    // transaction of its own, besides the dispatch of the recorded change.
    const { uow } = openWritePath(s.t.db);
    const workspace = (await findWorkspaceById(s.t.db, s.t.workspace.id))!;
    const place = { locationId: s.f.location.id, stafferId: gus };
    await Promise.all([
      dispatch(),
      ...Array.from({ length: 6 }, () =>
        uow.run(workspace.id, (tx) => offerOpenedTimes(tx, workspace, s.clock.now(), place)),
      ),
    ]);
    expect(faults).toEqual([]);
    const starts = [];
    for (const entry of entries) {
      const offers = await offersOf(entry.uuid);
      expect(offers, entry.customer.phone).toHaveLength(1);
      starts.push(offers[0]!.start_time);
    }
    // In line order, the earliest times of Monday morning, each held for one person.
    expect(starts).toEqual(['09:00', '09:15', '09:30', '09:45'].map((time) => at('2026-09-28', time)));
  });
});
