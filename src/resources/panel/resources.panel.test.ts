import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

let t: TestApp;
let admin: PanelClient;
let mitte: { id: string };
let kreuzberg: { id: string };
beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
  admin = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]),
  );
  mitte = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
  kreuzberg = await createLocation(t.db, t.workspace.id, { name: 'Kreuzberg' });
});
afterAll(() => t.close());

const PAGE = '/panel/setup/resources';
const resourcesOf = async (locationId: string) =>
  (await t.call('GET', `/locations/${locationId}/resources`)).json().data as {
    uuid: string;
    name: string;
    type: string;
    capacity: number;
  }[];

async function add(locationId: string, name: string) {
  await admin.get(`${PAGE}/${locationId}/new`);
  const created = await admin.post(`${PAGE}/${locationId}`, { name, type: 'room', capacity: '1' });
  expect(created.statusCode, created.body).toBe(303);
  return (await resourcesOf(locationId)).find((r) => r.name === name)!;
}

describe('Setup → Resources', () => {
  it('adds, edits and archives a location’s resource as the API does', async () => {
    const list = await admin.get(PAGE);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="${PAGE}/${mitte.id}/new"`);
    expect(list.body).toContain(`href="${PAGE}/${kreuzberg.id}/new"`);
    // In the navigation, under Setup.
    expect(list.body).toContain(`href="${PAGE}"`);

    expect((await admin.get(`${PAGE}/${kreuzberg.id}/new`)).statusCode).toBe(200);
    const created = await admin.post(`${PAGE}/${kreuzberg.id}`, {
      name: ' Blue room ',
      type: ' Room ',
      capacity: '4',
    });
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe(`${PAGE}?notice=created`);
    const [blue] = await resourcesOf(kreuzberg.id);
    expect(blue).toMatchObject({ name: 'Blue room', type: 'room', capacity: 4 });
    expect(await resourcesOf(mitte.id)).toEqual([]);

    const edit = await admin.get(`${PAGE}/${kreuzberg.id}/${blue!.uuid}`);
    expect(edit.body).toContain('value="Blue room"');
    const saved = await admin.post(`${PAGE}/${kreuzberg.id}/${blue!.uuid}`, {
      name: 'Wash 1',
      type: 'wash-station',
      capacity: '1',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(await resourcesOf(kreuzberg.id)).toEqual([
      { uuid: blue!.uuid, location_uuid: kreuzberg.id, name: 'Wash 1', type: 'wash-station', capacity: 1 },
    ]);

    const archived = await admin.post(`${PAGE}/${kreuzberg.id}/${blue!.uuid}/archive`);
    expect(archived.statusCode).toBe(303);
    expect(await resourcesOf(kreuzberg.id)).toEqual([]);
    const after = await admin.get(`${PAGE}?notice=archived`);
    expect(after.body).toContain('The resource is archived.');
    expect(after.body).toMatch(/Wash 1 <span class="badge muted">Archived<\/span>/);
    expect((await admin.get(`${PAGE}/${kreuzberg.id}/${blue!.uuid}`)).statusCode).toBe(404);
  });

  it('refuses what the API refuses, next to the field, keeping what was typed', async () => {
    await admin.get(`${PAGE}/${mitte.id}/new`);
    const bad = await admin.post(`${PAGE}/${mitte.id}`, { name: '', type: 'big room', capacity: '0' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="f-name-error"');
    expect(bad.body).toContain('id="f-type-error"');
    expect(bad.body).toContain('id="f-capacity-error"');
    expect(bad.body).toContain('value="big room"');
    expect(await resourcesOf(mitte.id)).toEqual([]);
  });

  it('is for owners and admins, only for this workspace’s resources, and needs the form’s token', async () => {
    const mine = await add(mitte.id, 'Mine');
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(PAGE)).statusCode).toBe(403);
    await staff.get('/panel');
    expect(
      (await staff.post(`${PAGE}/${mitte.id}`, { name: 'S', type: 'room', capacity: '1' })).statusCode,
    ).toBe(403);

    const other = await createOtherWorkspace(t.db);
    const theirLocation = await createLocation(t.db, other.workspace.id, { name: 'Theirs' });
    const theirs = (
      await t.app.inject({
        method: 'POST',
        url: '/api/public/v2/resources',
        headers: other.headers,
        payload: { location_uuid: theirLocation.id, type: 'room', name: 'Theirs' },
      })
    ).json().data as { uuid: string };
    await admin.get(PAGE);
    expect((await admin.get(`${PAGE}/${theirLocation.id}/new`)).statusCode).toBe(404);
    expect((await admin.get(`${PAGE}/${theirLocation.id}/${theirs.uuid}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirLocation.id}/${theirs.uuid}/archive`)).statusCode).toBe(404);
    // Our location with their resource, or our resource under another of our locations: 404 too.
    expect((await admin.get(`${PAGE}/${mitte.id}/${theirs.uuid}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${kreuzberg.id}/${mine.uuid}/archive`)).statusCode).toBe(404);

    const forged = await admin.post(`${PAGE}/${mitte.id}/${mine.uuid}/archive`, {}, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await resourcesOf(mitte.id)).map((r) => r.name)).toContain('Mine');
  });
});

describe('a booking’s resources in the panel', () => {
  it('shows the units the booking holds and moves it to another', async () => {
    const ws = t.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Spa' });
    const massage = await createService(t.db, ws, [location.id], { name: 'Massage' });
    const anna = await createStaffer(t.db, ws, location.id, [massage.id], { firstName: 'Anna' });
    const one = await add(location.id, 'Room 1');
    const two = await add(location.id, 'Room 2');
    expect(
      (await t.call('PATCH', `/services/${massage.id}`, { resources: [{ type: 'room' }] })).statusCode,
    ).toBe(200);
    const created = await t.call('POST', '/bookings', {
      reserved_on: '2026-09-10T08:00:00Z',
      location_uuid: location.id,
      service_uuid: massage.id,
      staffer_uuid: anna.id,
      customer_phone: '+4915170000099',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.uuid;
    const page = await admin.get(`/panel/bookings/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<dt>Resources<\/dt>\s*<dd>Room 1<\/dd>/);
    expect(page.body).toContain(`value="${two.uuid}"`);

    const moved = await admin.post(`/panel/bookings/${id}/resources`, { resource_uuids: [two.uuid] });
    expect(moved.statusCode, moved.body).toBe(303);
    expect((await t.call('GET', `/bookings/${id}`)).json().data.resources).toEqual([
      { uuid: two.uuid, type: 'room', name: 'Room 2' },
    ]);
    const after = await admin.get(`/panel/bookings/${id}?notice=resources`);
    expect(after.body).toContain('The resources are changed.');
    expect(after.body).toContain('Resources changed from Room 1 to Room 2');
    // The calendar's block names the room beside the service.
    const day = await admin.get(
      `/panel/calendar?location=${location.id}&date=2026-09-10&view=day&staffer=all`,
    );
    expect(day.statusCode).toBe(200);
    expect(day.body).toContain('Massage · Room 2 · ');
    expect(one.uuid).not.toBe(two.uuid);
  });
});

describe('a service’s resources in Setup → Services', () => {
  it('are typed as a line, saved as the API saves them, shown back, and a bad entry is named', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Salon' });
    const body = (resources: string) => ({
      name: `Colour ${resources}`,
      duration_minutes: '60',
      price: '50',
      capacity: '1',
      buffer_before_minutes: '0',
      buffer_after_minutes: '0',
      location_uuids: [location.id],
      resources,
    });
    await admin.get('/panel/setup/services/new');
    const created = await admin.post('/panel/setup/services', body('wash-station, 2 chair'));
    expect(created.statusCode, created.body).toBe(303);
    const listed = (await t.call('GET', `/locations/${location.id}/services`)).json().data as {
      uuid: string;
      resources: unknown;
    }[];
    expect(listed[0]!.resources).toEqual([
      { type: 'wash-station', units: 1, resource_uuid: null },
      { type: 'chair', units: 2, resource_uuid: null },
    ]);
    const edit = await admin.get(`/panel/setup/services/${listed[0]!.uuid}`);
    expect(edit.body).toContain('value="wash-station, 2 chair"');
    const bad = await admin.post('/panel/setup/services', body('room, big hall'));
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="f-resources-error"');
    expect(bad.body).toContain('value="room, big hall"');
  });
});

describe('Setup → Resources in other languages', () => {
  it('speaks German to a German-speaking admin: list, the hidden location of the add button, form', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const list = await german.get(PAGE);
    expect(list.body).toContain('<h1>Ressourcen</h1>');
    expect(list.body).toContain('<th scope="col">Kapazität</th>');
    expect(list.body).toContain('Ressource<span class="skip-label"> in Mitte</span> hinzufügen');
    const form = await german.get(`${PAGE}/${mitte.id}/new`);
    expect(form.body).toContain('<h1>Ressource in Mitte hinzufügen</h1>');
    expect(form.body).toContain('Etwa Raum 1 oder Waschplatz 2.');
    expect(form.body).toContain('Ressource anlegen');
    const notice = await german.get(`${PAGE}?notice=saved`);
    expect(notice.body).toContain('Die Ressource ist gespeichert.');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = await arabic.get(PAGE);
    expect(list.body).toContain('<html lang="ar" dir="rtl">');
    expect(list.body).toContain('<h1>الموارد</h1>');
  });
});

describe('a resource a service needs by name', () => {
  it('says which services to change, in the reader’s language, and stays', async () => {
    const other = await createOtherWorkspace(t.db);
    const ws = other.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Prenzlauer Berg' });
    const service = await createService(t.db, ws, [location.id], { name: 'Sauna' });
    const owner = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]),
    );
    await owner.get(`${PAGE}/${location.id}/new`);
    expect(
      (await owner.post(`${PAGE}/${location.id}`, { name: 'Cabin', type: 'cabin', capacity: '2' }))
        .statusCode,
    ).toBe(303);
    const cabin = (
      await t.db.selectFrom('resources').select('id').where('workspace_id', '=', ws).executeTakeFirstOrThrow()
    ).id;
    await t.db
      .updateTable('services')
      .set({ resource_requirements: JSON.stringify([{ type: 'cabin', units: 1, resource_id: cabin }]) })
      .where('id', '=', service.id)
      .execute();

    await owner.get(`${PAGE}/${location.id}/${cabin}`);
    const archive = await owner.post(`${PAGE}/${location.id}/${cabin}/archive`);
    expect(archive.statusCode).toBe(409);
    expect(archive.body).toContain(
      'id="f-archive-error">Sauna need this resource by name: change those services first, then archive it.',
    );
    const retype = await owner.post(`${PAGE}/${location.id}/${cabin}`, {
      name: 'Cabin',
      type: 'room',
      capacity: '2',
    });
    expect(retype.statusCode).toBe(422);
    expect(retype.body).toContain(
      'id="f-type-error">The type cannot change while Sauna need this resource by name.',
    );
    expect(
      await t.db
        .selectFrom('resources')
        .select(['archived_at', 'type'])
        .where('id', '=', cabin)
        .executeTakeFirstOrThrow(),
    ).toEqual({ archived_at: null, type: 'cabin' });

    const german = await memberSpeaking(t.app, t.db, ws, 'owner', 'de');
    await german.get(`${PAGE}/${location.id}/${cabin}`);
    const refused = await german.post(`${PAGE}/${location.id}/${cabin}/archive`);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Sauna benötigen diese Ressource namentlich');
  });
});
