import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

let t: TestApp;
let admin: PanelClient;
let mitte: { id: string };
let kreuzberg: { id: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
  mitte = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
  kreuzberg = await createLocation(t.db, t.workspace.id, { name: 'Kreuzberg' });
});
afterAll(() => t.close());

const PAGE = '/panel/setup/services';

const form = (extra: Record<string, string | string[]> = {}) => ({
  category: 'Hair',
  name: 'Long cut',
  description: 'Wash, cut and dry',
  duration_minutes: '45',
  price: '45.50',
  capacity: '1',
  buffer_before_minutes: '5',
  buffer_after_minutes: '10',
  location_uuids: [mitte.id],
  ...extra,
});

async function serviceNamed(name: string, locationId = mitte.id) {
  const list = (await t.call('GET', `/locations/${locationId}/services?per_page=100`)).json().data as {
    uuid: string;
    name: string;
  }[];
  return list.find((service) => service.name === name);
}

describe('Setup → Services', () => {
  it('adds, edits and archives a service as the API does, the price in the currency’s units', async () => {
    const blank = await admin.get(`${PAGE}/new`);
    expect(blank.statusCode).toBe(200);
    expect(blank.body).toContain('Price (EUR)');
    expect(blank.body).toMatch(/type="checkbox" name="location_uuids" value="[^"]+"\s*\/?>Mitte/);

    const created = await admin.post(PAGE, form());
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe(`${PAGE}?notice=created`);
    const listed = await serviceNamed('Long cut');
    const api = (await t.call('GET', `/services/${listed!.uuid}`)).json().data;
    expect(api).toMatchObject({
      name: 'Long cut',
      description: 'Wash, cut and dry',
      category: { name: 'Hair' },
      currency: 'EUR',
      price: 4550,
      capacity: 1,
      buffer_before: 5,
      buffer_after: 10,
      location_uuids: [mitte.id],
    });
    expect(api.duration).toMatchObject({ value: 45 });

    const list = await admin.get(`${PAGE}?notice=created`);
    expect(list.body).toContain('The service is added.');
    expect(list.body).toContain('€45.50');
    expect(list.body).toContain('5 min before, 10 min after');

    // The category is offered to pick next time; the edit form shows the price as typed money.
    const edit = await admin.get(`${PAGE}/${listed!.uuid}`);
    expect(edit.body).toContain('<option value="Hair"');
    expect(edit.body).toMatch(/name="price" type="text" value="45.50"/);
    expect(edit.body).toMatch(/value="[^"]+" checked\s*\/?>Mitte/);

    const saved = await admin.post(
      `${PAGE}/${listed!.uuid}`,
      form({
        category: '',
        name: 'Yoga',
        price: '12',
        capacity: '8',
        duration_minutes: '90',
        buffer_before_minutes: '',
        buffer_after_minutes: '0',
        location_uuids: [kreuzberg.id, mitte.id],
      }),
    );
    expect(saved.statusCode, saved.body).toBe(303);
    const after = (await t.call('GET', `/services/${listed!.uuid}`)).json().data;
    expect(after).toMatchObject({
      name: 'Yoga',
      category: null,
      price: 1200,
      capacity: 8,
      buffer_before: 0,
      buffer_after: 0,
    });
    expect([...after.location_uuids].sort()).toEqual([kreuzberg.id, mitte.id].sort());
    expect((await admin.get(PAGE)).body).toContain('8 (group)');

    const archived = await admin.post(`${PAGE}/${listed!.uuid}/archive`);
    expect(archived.statusCode).toBe(303);
    expect((await t.call('GET', `/services/${listed!.uuid}`)).statusCode).toBe(404);
    expect(await serviceNamed('Yoga')).toBeUndefined();
    const afterArchive = await admin.get(`${PAGE}?notice=archived`);
    expect(afterArchive.body).toContain('The service is archived.');
    expect(afterArchive.body).toMatch(/Yoga <span class="badge muted">Archived<\/span>/);
    expect((await admin.get(`${PAGE}/${listed!.uuid}`)).statusCode).toBe(404);
  });

  it('offers only live locations', async () => {
    const gone = await createLocation(t.db, t.workspace.id, { name: 'Closed branch' });
    await t.call('DELETE', `/locations/${gone.id}`);
    const page = await admin.get(`${PAGE}/new`);
    expect(page.body).not.toContain('Closed branch');
    expect(page.body).toContain('Kreuzberg');
  });

  it('refuses what the API refuses, next to each field, and keeps what was typed', async () => {
    const other = await createOtherWorkspace(t.db);
    const theirLocation = await createLocation(t.db, other.workspace.id, { name: 'Theirs' });
    await admin.get(`${PAGE}/new`);
    const bad = await admin.post(
      PAGE,
      form({
        name: 'Broken',
        price: '12.345',
        duration_minutes: '0',
        capacity: 'lots',
        buffer_after_minutes: '721',
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(
      '<p class="error" id="f-price-error">The price must be an amount in EUR, such as 90.00.</p>',
    );
    expect(bad.body).toContain('id="f-duration_minutes-error"');
    expect(bad.body).toContain('id="f-capacity-error">Enter a whole number.');
    expect(bad.body).toContain('id="f-buffer_after_minutes-error"');
    expect(bad.body).toMatch(/name="price" type="text" value="12.345"/);
    expect(bad.body).toMatch(/name="capacity" type="number" value="lots"/);
    expect(bad.body).toMatch(/value="[^"]+" checked\s*\/?>Mitte/);

    const foreign = await admin.post(PAGE, form({ name: 'Broken', location_uuids: [theirLocation.id] }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain('id="f-location_uuids-error">Choose one of the offered values.');
    const noDuration = await admin.post(PAGE, form({ name: 'Broken', duration_minutes: '' }));
    expect(noDuration.statusCode).toBe(422);
    expect(noDuration.body).toContain('The duration_minutes field is required.');
    expect(await serviceNamed('Broken')).toBeUndefined();

    // The same rules on an edit: nothing changes.
    const kept = await createService(t.db, t.workspace.id, [mitte.id], { name: 'Kept', price: 3000 });
    await admin.get(`${PAGE}/${kept.id}`);
    const badEdit = await admin.post(`${PAGE}/${kept.id}`, form({ name: 'Kept', price: 'free' }));
    expect(badEdit.statusCode).toBe(422);
    expect(badEdit.body).toContain('id="f-price-error"');
    expect((await t.call('GET', `/services/${kept.id}`)).json().data).toMatchObject({
      price: 3000,
      duration: { value: 60 },
    });
  });

  it('is for owners and admins, only for this workspace’s services, and needs the form’s token', async () => {
    const mine = await createService(t.db, t.workspace.id, [mitte.id], { name: 'Mine' });
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
    const theirs = await createService(t.db, other.workspace.id, [], { name: 'Theirs' });
    await admin.get(PAGE);
    expect((await admin.get(`${PAGE}/${theirs.id}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirs.id}`, form({ name: 'Taken' }))).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirs.id}/archive`)).statusCode).toBe(404);

    const forged = await admin.post(`${PAGE}/${mine.id}/archive`, {}, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await t.call('GET', `/services/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('Setup → Services in other languages', () => {
  it('speaks German to a German-speaking admin: list, durations, buffers, form and its errors', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const yoga = await createService(t.db, t.workspace.id, [mitte.id], {
      name: 'Yoga am Morgen',
      durationMinutes: 90,
      capacity: 8,
      bufferAfterMinutes: 15,
    });
    const list = await german.get(PAGE);
    expect(list.body).toContain('<h1>Leistungen</h1>');
    expect(list.body).toContain('Leistung hinzufügen');
    expect(list.body).toContain('<th scope="col">Dauer</th>');
    expect(list.body).toContain('1 Std. 30 Min.');
    expect(list.body).toContain('15 Min. danach');
    expect(list.body).toContain('8 (Gruppe)');
    const edit = await german.get(`${PAGE}/${yoga.id}`);
    expect(edit.body).toContain('Plätze pro Termin');
    expect(edit.body).toContain('Benötigte Ressourcen');
    expect(edit.body).toContain(`<a href="${PAGE}/${yoga.id}/payment">Regeln festlegen</a>`);
    expect(edit.body).toContain('Yoga am Morgen archivieren');
    const bad = await german.post(PAGE, form({ name: 'Teuer', price: 'viel', duration_minutes: '' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Der Preis muss ein Betrag in EUR sein, etwa 90.00.');
    expect(bad.body).toContain('Geben Sie die Dauer an.');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = await arabic.get(PAGE);
    expect(list.body).toContain('<html lang="ar" dir="rtl">');
    expect(list.body).toContain('<h1>الخدمات</h1>');
    expect(list.body).toContain('إضافة خدمة');
  });

  it('marks a service bookable in series on the booking page, off unless ticked', async () => {
    const created = await admin.post(PAGE, form({ name: 'Weekly lesson' }));
    expect(created.statusCode, created.body).toBe(303);
    const service = await serviceNamed('Weekly lesson');
    expect('series_bookable' in (await t.call('GET', `/services/${service!.uuid}`)).json().data).toBe(false);
    const edit = await admin.get(`${PAGE}/${service!.uuid}`);
    expect(edit.body).toContain('Bookable in series on the booking page');
    expect(edit.body).toMatch(/name="series_bookable" value="yes"\s*\/?>/);
    const saved = await admin.post(
      `${PAGE}/${service!.uuid}`,
      form({ name: 'Weekly lesson', series_bookable: 'yes' }),
    );
    expect(saved.statusCode, saved.body).toBe(303);
    expect((await t.call('GET', `/services/${service!.uuid}`)).json().data.series_bookable).toBe(true);
    const shown = await admin.get(`${PAGE}/${service!.uuid}`);
    expect(shown.body).toMatch(/name="series_bookable" value="yes" checked/);
  });
});
