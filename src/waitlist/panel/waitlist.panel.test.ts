import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, openStudio, type Studio } from '../../../test/bookings/bookings-kit.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';
import { openWritePath } from '../../write-path.js';
import { WaitlistRound } from '../waitlist-round.js';

// The panel's waitlist: the line per service and staffer, an offer made by hand (held like a
// freed time), the refusal of a time that is not free, and removing someone. Staff see it.
let s: Studio;
let desk: PanelClient;
const entries: Record<string, string> = {};

beforeAll(async () => {
  s = await openStudio();
  desk = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
  const join = async (phone: string, name: string, extra: Record<string, unknown>) => {
    const response = await s.t.call('POST', '/waitlist', {
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      customer_phone: phone,
      customer_first_name: name,
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    entries[name] = response.json().data.uuid;
    s.clock.advance(60_000);
  };
  await join('+4915100002001', 'Olga', { windows: [{ date: '2026-09-09', from: '09:00', to: '12:00' }] });
  await join('+4915100002002', 'Piet', { any_time: true, staffer_uuid: s.f.ben.id });
  await join('+4915100002003', 'Quinn', { any_time: true, service_uuid: s.f.color.id });
});
afterAll(() => s.t.close());

const rowOrder = (body: string) => [...body.matchAll(/data-entry="([^"]+)"/g)].map((m) => m[1]);

describe('the waitlist page', () => {
  it('lists the line in order, and filters by service and staffer', async () => {
    const all = await desk.get('/panel/waitlist');
    expect(all.statusCode).toBe(200);
    expect(rowOrder(all.body)).toEqual([entries.Olga, entries.Piet, entries.Quinn]);
    expect(all.body).toContain('3 people waiting');
    expect(all.body).toContain('href="/panel/waitlist"');
    const haircut = await desk.get(`/panel/waitlist?service=${s.f.haircut.id}`);
    expect(rowOrder(haircut.body)).toEqual([entries.Olga, entries.Piet]);
    const ben = await desk.get(`/panel/waitlist?staffer=${s.f.ben.id}`);
    expect(rowOrder(ben.body)).toEqual([entries.Piet]);
  });

  it('offers a free time by hand in the location wall time, and refuses one that is not free', async () => {
    const offered = await desk.submit(
      '/panel/waitlist',
      { date: '2026-09-09', time: '10:00' },
      `/panel/waitlist/${entries.Olga}/offer`,
    );
    expect(offered.statusCode, offered.body).toBe(303);
    expect(offered.headers.location).toBe('/panel/waitlist?notice=offered');
    const [offer] = (await s.t.call('GET', `/waitlist/offers?entry_uuid=${entries.Olga}`)).json().data;
    // 10:00 in Berlin summer time is 08:00 UTC; held 30 minutes from the panel's now.
    expect(offer).toMatchObject({ made_by: 'staff', state: 'open', start_time: at('2026-09-09', '10:00') });
    const page = await desk.get('/panel/waitlist?notice=offered');
    expect(page.body).toContain('The offer was sent.');
    expect(page.body).toContain('Offered');

    // 20:00 is after hours: refused, said on the page, nothing offered.
    const closed = await desk.submit(
      '/panel/waitlist',
      { date: '2026-09-09', time: '20:00' },
      `/panel/waitlist/${entries.Piet}/offer`,
    );
    expect(closed.statusCode).toBe(409);
    expect(closed.body).toContain('The requested time is not available.');
    expect((await s.t.call('GET', `/waitlist/offers?entry_uuid=${entries.Piet}`)).json().data).toEqual([]);
  });

  it('removes a person from the line; a repeated form changes nothing more', async () => {
    await desk.get('/panel/waitlist');
    const form = { idempotency_key: 'waitlist-remove-quinn-0123456789abcdef' };
    const removed = await desk.post(`/panel/waitlist/${entries.Quinn}/remove`, form);
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/panel/waitlist?notice=removed');
    const again = await desk.post(`/panel/waitlist/${entries.Quinn}/remove`, form);
    expect(again.headers.location).toBe('/panel/waitlist?notice=removed');
    expect((await s.t.call('GET', `/waitlist/${entries.Quinn}`)).json().data.state).toBe('left');
    expect(rowOrder((await desk.get('/panel/waitlist')).body)).toEqual([entries.Olga, entries.Piet]);
  });

  it('speaks German and Arabic (right to left)', async () => {
    const de = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', 'de');
    const page = (await de.get('/panel/waitlist')).body;
    expect(page).toContain('<h1>Warteliste</h1>');
    expect(page).toContain('2 Personen warten');
    const ar = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', 'ar');
    const arabic = (await ar.get('/panel/waitlist')).body;
    expect(arabic).toContain('dir="rtl"');
    expect(arabic).toContain('<h1>قائمة الانتظار</h1>');
  });

  it("Home's needs-attention list names people waiting and offers that expired unclaimed", async () => {
    const attention = async () => {
      const home = (await desk.get('/panel')).body;
      return home.slice(home.indexOf('<h2 id="attention">'));
    };
    // Olga has an open offer; Piet waits.
    expect(await attention()).toContain(
      '1 person waits on the waitlist for a time: <a href="/panel/waitlist">see them</a>',
    );
    s.clock.advance(31 * 60_000);
    const logger = { info: () => {}, warn: () => {}, error: () => {} };
    const round = new WaitlistRound({
      db: s.t.db,
      uow: openWritePath(s.t.db).uow,
      clock: s.clock,
      logger: logger as never,
    });
    // The round spans every workspace of the store; Home's counts below are this workspace's.
    await round.runOnce();
    const after = await attention();
    expect(after).toContain('1 waitlist offer expired with nobody claiming in the last seven days');
    expect(after).toContain('2 people wait on the waitlist for a time');
  });
});
