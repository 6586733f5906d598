import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

let t: TestApp;
let admin: PanelClient;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]),
  );
});
afterAll(() => t.close());

const PAGE = '/panel/setup/locations';

const form = (extra: Record<string, string> = {}) => ({
  name: 'Mitte',
  timezone: 'europe/berlin',
  phone: '+49 30 1234567',
  description: 'Second floor',
  'address.address_1': 'Torstraße 1',
  'address.address_2': '',
  'address.postal_code': '10119',
  'address.city': 'Berlin',
  'address.country_iso': 'de',
  'opening_hours.mon.0.from': '09:00',
  'opening_hours.mon.0.to': '12:00',
  'opening_hours.mon.1.from': '13:00',
  'opening_hours.mon.1.to': '18:00',
  // Only the second row of Saturday: still Saturday's first range.
  'opening_hours.sat.1.from': '10:00',
  'opening_hours.sat.1.to': '14:00',
  ...extra,
});

async function locationNamed(name: string) {
  const list = (await t.call('GET', '/locations?per_page=100')).json().data as {
    uuid: string;
    name: string;
  }[];
  return list.find((location) => location.name === name);
}

describe('Setup → Locations', () => {
  it('adds, edits and archives a location as the API does', async () => {
    expect((await admin.get(`${PAGE}/new`)).statusCode).toBe(200);
    const created = await admin.post(PAGE, form());
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe(`${PAGE}?notice=created`);

    const listed = await locationNamed('Mitte');
    expect(listed).toBeDefined();
    const api = (await t.call('GET', `/locations/${listed!.uuid}`)).json().data;
    expect(api).toMatchObject({
      name: 'Mitte',
      description: 'Second floor',
      phone: '+49 30 1234567',
      timezone: { name: 'Europe/Berlin' },
      address: { address_1: 'Torstraße 1', postal_code: '10119', city: 'Berlin', country_iso: 'DE' },
      opening_hours: {
        days: {
          mon: [
            { from: '09:00', to: '12:00' },
            { from: '13:00', to: '18:00' },
          ],
          sat: [{ from: '10:00', to: '14:00' }],
        },
      },
    });
    expect(Object.keys(api.opening_hours.days).sort()).toEqual(['mon', 'sat']);

    const listPage = await admin.get(`${PAGE}?notice=created`);
    expect(listPage.body).toContain('The location is added.');
    expect(listPage.body).toContain(`href="${PAGE}/${listed!.uuid}"`);

    const edit = await admin.get(`${PAGE}/${listed!.uuid}`);
    expect(edit.statusCode).toBe(200);
    expect(edit.body).toMatch(/name="timezone" type="text" value="Europe\/Berlin"[^>]*list="time-zones"/);
    expect(edit.body).toContain('<option value="Europe/Berlin">Berlin (Europe/Berlin)</option>');
    expect(edit.body).toMatch(/name="opening_hours.sat.0.from" id="[^"]+" value="10:00"/);

    // Saturday closed, Monday one range, a new zone and city.
    const saved = await admin.post(
      `${PAGE}/${listed!.uuid}`,
      form({
        name: 'Mitte Studio',
        timezone: 'Europe/Vienna',
        'address.city': 'Wien',
        'opening_hours.mon.1.from': '',
        'opening_hours.mon.1.to': '',
        'opening_hours.sat.1.from': '',
        'opening_hours.sat.1.to': '',
      }),
    );
    expect(saved.statusCode, saved.body).toBe(303);
    const after = (await t.call('GET', `/locations/${listed!.uuid}`)).json().data;
    expect(after).toMatchObject({
      name: 'Mitte Studio',
      timezone: { name: 'Europe/Vienna' },
      address: { city: 'Wien' },
    });
    expect(after.opening_hours.days).toEqual({ mon: [{ from: '09:00', to: '12:00' }] });

    const archived = await admin.post(`${PAGE}/${listed!.uuid}/archive`);
    expect(archived.statusCode).toBe(303);
    expect(archived.headers.location).toBe(`${PAGE}?notice=archived`);
    expect((await t.call('GET', `/locations/${listed!.uuid}`)).statusCode).toBe(404);
    const list = await admin.get(PAGE);
    expect(list.body).toMatch(
      /<h2>Archived<\/h2>[\s\S]*Mitte Studio <span class="badge muted">Archived<\/span>/,
    );
    expect(list.body).not.toContain(`href="${PAGE}/${listed!.uuid}"`);
    // Archived is final here: its page and its form are gone.
    expect((await admin.get(`${PAGE}/${listed!.uuid}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${listed!.uuid}`, form())).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${listed!.uuid}/archive`)).statusCode).toBe(404);
  });

  it('refuses what the API refuses, next to each field, and keeps what was typed', async () => {
    await admin.get(`${PAGE}/new`);
    const bad = await admin.post(
      PAGE,
      form({
        name: 'Nowhere',
        timezone: 'Mars/Olympus',
        'address.country_iso': 'DEU',
        'opening_hours.tue.0.from': '18:00',
        'opening_hours.tue.0.to': '09:00',
        'opening_hours.wed.1.from': '10:00',
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('<p class="error" id="f-address-country_iso-error">');
    // The schema passes first (as for the API), so the zone and hours rules follow in a second try.
    expect(bad.body).toMatch(/name="timezone" type="text" value="Mars\/Olympus"/);
    // Only the rule's message for the missing end, not the schema's pattern one.
    expect(bad.body).toContain(
      '<p class="error" id="f-opening_hours-wed-error">Give both the opening and the closing time.</p>',
    );

    const rules = await admin.post(
      PAGE,
      form({
        name: 'Nowhere',
        timezone: 'Mars/Olympus',
        'opening_hours.tue.0.from': '18:00',
        'opening_hours.tue.0.to': '09:00',
        'opening_hours.mon.1.from': '11:00',
      }),
    );
    expect(rules.statusCode).toBe(422);
    expect(rules.body).toContain(
      '<p class="error" id="f-timezone-error">Choose a time zone such as Europe/Berlin.</p>',
    );
    expect(rules.body).toMatch(
      /id="f-opening_hours-tue-error">The closing time must be after the opening time.<\/p>/,
    );
    expect(rules.body).toMatch(
      /id="f-opening_hours-mon-error">These hours overlap the ones from 09:00 to 12:00 of the same day./,
    );
    expect(rules.body).toMatch(/name="opening_hours.tue.0.from" id="[^"]+" value="18:00"/);
    expect(await locationNamed('Nowhere')).toBeUndefined();

    const empty = await admin.post(PAGE, form({ name: '', timezone: '' }));
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('id="f-name-error"');
  });

  it('is for owners and admins, only for this workspace’s locations, and needs the form’s token', async () => {
    const mine = await createLocation(t.db, t.workspace.id, { name: 'Kept' });
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(PAGE)).statusCode).toBe(403);
    expect((await staff.get(`${PAGE}/${mine.id}`)).statusCode).toBe(403);
    await staff.get('/panel');
    expect((await staff.post(`${PAGE}/${mine.id}/archive`)).statusCode).toBe(403);

    const other = await createOtherWorkspace(t.db);
    const theirs = await createLocation(t.db, other.workspace.id, { name: 'Theirs' });
    await admin.get(PAGE);
    expect((await admin.get(`${PAGE}/${theirs.id}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirs.id}`, form({ name: 'Taken' }))).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirs.id}/archive`)).statusCode).toBe(404);
    expect((await admin.get(`${PAGE}/not-a-uuid`)).statusCode).toBe(404);
    const theirsNow = await t.app.inject({
      method: 'GET',
      url: `/api/public/v2/locations/${theirs.id}`,
      headers: other.headers,
    });
    expect(theirsNow.json().data.name).toBe('Theirs');

    const forged = await admin.post(`${PAGE}/${mine.id}/archive`, {}, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await t.call('GET', `/locations/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('Setup → Locations in other languages', () => {
  it('speaks German to a German-speaking admin: list, form, weekdays and the half-filled range', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    await createLocation(t.db, t.workspace.id, { name: 'Kreuzberg', timezone: 'Europe/Berlin' });
    const list = await german.get(PAGE);
    expect(list.body).toContain('<h1>Standorte</h1>');
    expect(list.body).toContain('Standort hinzufügen');
    expect(list.body).toContain('<th scope="col">Öffnungszeiten</th>');
    const form = await german.get(`${PAGE}/new`);
    expect(form.body).toContain('Straße und Hausnummer');
    expect(form.body).toContain('<span class="hours-name">Montag</span>');
    expect(form.body).toContain('Montag, Zeitraum 1, öffnet');
    const half = await german.post(PAGE, {
      name: 'Halb',
      timezone: 'Europe/Berlin',
      'opening_hours.tue.0.from': '09:00',
    });
    expect(half.statusCode).toBe(422);
    expect(half.body).toContain('Geben Sie Öffnungs- und Schließzeit an.');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = await arabic.get(PAGE);
    expect(list.body).toContain('<html lang="ar" dir="rtl">');
    expect(list.body).toContain('<h1>الفروع</h1>');
  });
});
