import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, type Studio } from '../../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

// The panel's "Add to the waiting list" form (the API's join, through the same service) and the
// automatic filling of group-class seats, switched on the same page by members who may change
// settings.
let s: Studio;
let desk: PanelClient;

beforeAll(async () => {
  s = await openStudio();
  desk = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => s.t.close());

const line = async () => (await s.t.call('GET', '/waitlist')).json().data as Record<string, unknown>[];

describe('adding a person from the panel', () => {
  it('adds with wanted times; a double submit adds once', async () => {
    const page = await desk.get('/panel/waitlist');
    expect(page.body).toContain('Add to the waiting list');
    expect(page.body).toMatch(/name="idempotency_key" value="[^"]+"/);
    const form = {
      idempotency_key: 'waitlist-add-rosa-0123456789abcdef',
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: s.f.anna.id,
      customer_phone: '+4915100003001',
      customer_first_name: 'Rosa',
      customer_last_name: 'Lind',
      customer_email: 'rosa@example.test',
      'windows.0.date': '2026-09-12',
      'windows.0.from': '09:00',
      'windows.0.to': '12:00',
      'windows.1.date': '',
      'windows.1.from': '',
      'windows.1.to': '',
      'windows.2.date': '2026-09-13',
      'windows.2.from': '14:00',
      'windows.2.to': '16:00',
    };
    const added = await desk.post('/panel/waitlist/add', form);
    expect(added.statusCode, added.body).toBe(303);
    expect(added.headers.location).toBe('/panel/waitlist?notice=added');
    const again = await desk.post('/panel/waitlist/add', form);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/panel/waitlist?notice=added');
    const entries = await line();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: s.f.anna.id,
      customer: {
        phone: '+4915100003001',
        first_name: 'Rosa',
        last_name: 'Lind',
        email: 'rosa@example.test',
      },
      windows: [
        { date: '2026-09-12', from: '09:00', to: '12:00' },
        { date: '2026-09-13', from: '14:00', to: '16:00' },
      ],
      any_time: false,
      state: 'waiting',
      source: 'panel',
    });
    const shown = await desk.get('/panel/waitlist?notice=added');
    expect(shown.body).toContain('Added to the waiting list.');
    expect(shown.body).toContain('Rosa Lind');
  });

  it('adds for any time, with any staffer', async () => {
    await desk.get('/panel/waitlist');
    const added = await desk.post('/panel/waitlist/add', {
      idempotency_key: 'waitlist-add-sven-0123456789abcdef',
      location_uuid: s.f.location.id,
      service_uuid: s.f.yoga.id,
      staffer_uuid: '',
      customer_phone: '+4915100003002',
      any_time: 'on',
    });
    expect(added.statusCode, added.body).toBe(303);
    const sven = (await line()).find((e) => (e.customer as { phone: string }).phone === '+4915100003002');
    expect(sven).toMatchObject({
      service_uuid: s.f.yoga.id,
      staffer_uuid: null,
      any_time: true,
      windows: [],
    });
  });

  it('shows the errors beside the fields, keeps what was typed, and adds nobody', async () => {
    await desk.get('/panel/waitlist');
    const refused = await desk.post('/panel/waitlist/add', {
      idempotency_key: 'waitlist-add-bad-0123456789abcdef01',
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      customer_phone: 'not a phone',
      customer_first_name: 'Tove',
      'windows.0.date': '2026-09-12',
      'windows.0.from': '12:00',
      'windows.0.to': '10:00',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(
      /id="f-customer_phone-error">Enter a phone number with its country code, such as \+49 30 1234567\.<\/p>/,
    );
    expect(refused.body).toMatch(/id="f-windows-0-to-error">The end must be after the start\.<\/p>/);
    expect(refused.body).toContain('value="Tove"');
    expect(refused.body).toContain('value="12:00"');
    expect(await line()).toHaveLength(2);

    const none = await desk.post('/panel/waitlist/add', {
      idempotency_key: 'waitlist-add-none-0123456789abcdef0',
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      customer_phone: '+4915100003003',
    });
    expect(none.statusCode).toBe(422);
    expect(none.body).toMatch(
      /id="f-windows-error">Give at least one wanted time, or tick “Any time suits them”\.<\/p>/,
    );
  });

  it("refuses another workspace's service as a 422", async () => {
    const other = await createOtherWorkspace(s.t.db);
    const place = await createLocation(s.t.db, other.workspace.id);
    const theirs = await createService(s.t.db, other.workspace.id, [place.id], { name: 'Elsewhere' });
    await desk.get('/panel/waitlist');
    const refused = await desk.post('/panel/waitlist/add', {
      idempotency_key: 'waitlist-add-other-0123456789abcdef',
      location_uuid: s.f.location.id,
      service_uuid: theirs.id,
      customer_phone: '+4915100003004',
      any_time: 'on',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(
      /id="f-service_uuid-error">This service is not offered at this location\.<\/p>/,
    );
    const theirPlace = await desk.post('/panel/waitlist/add', {
      idempotency_key: 'waitlist-add-place-0123456789abcdef',
      location_uuid: place.id,
      service_uuid: s.f.haircut.id,
      customer_phone: '+4915100003004',
      any_time: 'on',
    });
    expect(theirPlace.statusCode).toBe(422);
    expect(await line()).toHaveLength(2);
  });

  it('speaks German', async () => {
    const de = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', 'de');
    const page = (await de.get('/panel/waitlist')).body;
    expect(page).toContain('<h2 id="waitlist-add">Zur Warteliste hinzufügen</h2>');
    expect(page).toContain('Gewünschte Zeiten (bis zu fünf)');
    expect(page).toContain('Jede Zeit passt');
  });
});

describe('the automatic filling of group-class seats', () => {
  it('is switched by members who may change settings; staff neither see nor post it', async () => {
    expect((await desk.get('/panel/waitlist')).body).not.toContain('name="auto_fill_group_seats"');
    const forbidden = await desk.post('/panel/waitlist/settings', {
      idempotency_key: 'waitlist-settings-staff-0123456789ab',
      auto_fill_group_seats: 'on',
    });
    expect(forbidden.statusCode).toBe(403);

    const owner = await PanelClient.signedIn(
      s.t.app,
      s.t.db,
      await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'owner' }]),
    );
    const page = await owner.get('/panel/waitlist');
    expect(page.body).toMatch(/<input type="checkbox" name="auto_fill_group_seats" aria-describedby/);
    const saved = await owner.post('/panel/waitlist/settings', {
      idempotency_key: 'waitlist-settings-on-0123456789abcd',
      auto_fill_group_seats: 'on',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/panel/waitlist?notice=saved');
    expect((await s.t.call('GET', '/waitlist/settings')).json().data).toEqual({
      offer_mode: 'one',
      hold_minutes: 30,
      auto_fill_group_seats: true,
    });
    const on = await owner.get('/panel/waitlist?notice=saved');
    expect(on.body).toContain('The waitlist settings were saved.');
    expect(on.body).toMatch(/<input type="checkbox" name="auto_fill_group_seats" checked/);
    await owner.post('/panel/waitlist/settings', { idempotency_key: 'waitlist-settings-off-0123456789abc' });
    expect((await s.t.call('GET', '/waitlist/settings')).json().data.auto_fill_group_seats).toBe(false);
  });
});
