import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

let t: TestApp;
let admin: PanelClient;
let berlin: { id: string };
let vienna: { id: string };
let haircut: { id: string };
let color: { id: string };
let massage: { id: string };

beforeAll(async () => {
  t = await buildTestApp();
  const ws = t.workspace.id;
  berlin = await createLocation(t.db, ws, { name: 'Berlin Mitte' });
  vienna = await createLocation(t.db, ws, { name: 'Wien', timezone: 'Europe/Vienna' });
  haircut = await createService(t.db, ws, [berlin.id, vienna.id], { name: 'Haircut' });
  color = await createService(t.db, ws, [berlin.id], { name: 'Color' });
  massage = await createService(t.db, ws, [vienna.id], { name: 'Massage' });
  admin = await PanelClient.signedIn(t.app, t.db, await makeUser(t.db, [{ workspaceId: ws, role: 'admin' }]));
});
afterAll(() => t.close());

const LIST = '/panel/setup/staffers';
const pair = (location: { id: string }, service: { id: string }) => `${location.id}|${service.id}`;
const stafferJson = async (id: string) => {
  const response = await t.call('GET', `/staffers/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};
const idFrom = (location: string | string[] | undefined) =>
  /\/panel\/setup\/staffers\/([0-9a-f-]{36})\?notice=created$/.exec(String(location))?.[1] ?? '';

describe('Setup → Staff and hours: staffers', () => {
  it('creates a staffer with services at each location, as GET /staffers/{uuid} then answers', async () => {
    const form = await admin.get(`${LIST}/new`);
    expect(form.statusCode).toBe(200);
    // The matrix offers each service only where it is offered: Color in Berlin, Massage in Wien.
    expect(form.body).toContain(`value="${pair(berlin, color)}"`);
    expect(form.body).toContain(`value="${pair(vienna, massage)}"`);
    expect(form.body).not.toContain(`value="${pair(vienna, color)}"`);

    const created = await admin.post(LIST, {
      first_name: ' Mia ',
      last_name: 'Berg',
      position: 'Senior stylist',
      description: 'Cuts & colours <b>',
      avatar: 'https://img.example/mia.png',
      services: [pair(berlin, haircut), pair(berlin, color), pair(vienna, massage)],
    });
    expect(created.statusCode, created.body).toBe(303);
    const id = idFrom(created.headers.location);
    expect(await stafferJson(id)).toEqual({
      uuid: id,
      first_name: 'Mia',
      last_name: 'Berg',
      position: 'Senior stylist',
      description: 'Cuts & colours <b>',
      avatar: 'https://img.example/mia.png',
      services: [
        { location_uuid: berlin.id, service_uuids: [haircut.id, color.id] },
        { location_uuid: vienna.id, service_uuids: [massage.id] },
      ],
    });
    const page = await admin.get(`/panel/setup/staffers/${id}?notice=created`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The staffer is added.');
    expect(page.body).toContain('Cuts &amp; colours &lt;b>');
    expect(page.body).toContain(`value="${pair(vienna, massage)}" checked`);
    expect(page.body).toContain(`value="${pair(vienna, haircut)}"/>`);
    expect((await admin.get(LIST)).body).toContain(`<a href="/panel/setup/staffers/${id}">Mia Berg</a>`);
  });

  it('edits the profile and replaces the services, as PATCH does', async () => {
    const staffer = await createStaffer(t.db, t.workspace.id, berlin.id, [haircut.id, color.id], {
      firstName: 'Noah',
    });
    const saved = await admin.submit(`${LIST}/${staffer.id}`, {
      first_name: 'Noah',
      last_name: 'Klein',
      position: '',
      description: '',
      avatar: '',
      services: [pair(vienna, haircut)],
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${LIST}/${staffer.id}?notice=saved`);
    expect(await stafferJson(staffer.id)).toMatchObject({
      first_name: 'Noah',
      last_name: 'Klein',
      avatar: null,
      services: [{ location_uuid: vienna.id, service_uuids: [haircut.id] }],
    });
    // No box ticked: they give nothing anywhere.
    expect((await admin.submit(`${LIST}/${staffer.id}`, { first_name: 'Noah' })).statusCode).toBe(303);
    expect((await stafferJson(staffer.id)).services).toEqual([]);
  });

  it('refuses what the API refuses with 422, errors next to fields, values kept', async () => {
    await admin.get(`${LIST}/new`);
    // The schema first, as the API: a bad URL is named before the services' rules run.
    const badUrl = await admin.post(LIST, { first_name: 'Ann', avatar: 'ftp://nope' });
    expect(badUrl.statusCode).toBe(422);
    expect(badUrl.body).toContain('id="f-avatar-error"');
    expect(badUrl.body).toMatch(/name="avatar" type="url" value="ftp:\/\/nope"/);
    const before = (await admin.get(LIST)).body.match(/<tr>/g)?.length;
    const bad = await admin.post(LIST, {
      first_name: '   ',
      // Color is not offered in Wien: the service rule says so, as for the API.
      services: [pair(berlin, haircut), pair(vienna, color)],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="f-first_name-error"');
    expect(bad.body).toMatch(/id="f-services-error">This service is not offered at this location\./);
    expect(bad.body).toContain(`value="${pair(berlin, haircut)}" checked`);
    const api = await t.call('POST', '/staffers', {
      first_name: 'X',
      services: [{ location_uuid: vienna.id, service_uuids: [color.id] }],
    });
    expect(api.statusCode).toBe(422);
    // The API keeps its own English message; the panel words the rule itself.
    expect(api.json().errors['services.0.service_uuids.0']).toEqual([
      'The selected service is invalid or not offered at this location.',
    ]);

    // A forged checkbox value is a 422 too, never a 500.
    const forged = await admin.post(LIST, { first_name: 'Z', services: ['not-a-pair'] });
    expect(forged.statusCode).toBe(422);
    const tooLong = await admin.post(LIST, { first_name: 'x'.repeat(300) });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.body).toContain('id="f-first_name-error"');
    expect((await admin.get(LIST)).body.match(/<tr>/g)?.length).toBe(before);
  });

  it('archives a staffer: gone from the API and the list', async () => {
    const staffer = await createStaffer(t.db, t.workspace.id, berlin.id, [haircut.id], { firstName: 'Olga' });
    await admin.get(`${LIST}/${staffer.id}`);
    const archived = await admin.post(`${LIST}/${staffer.id}/archive`);
    expect(archived.statusCode).toBe(303);
    expect(archived.headers.location).toBe(`${LIST}?notice=archived`);
    expect((await t.call('GET', `/staffers/${staffer.id}`)).statusCode).toBe(404);
    expect((await admin.get(LIST)).body).not.toContain(staffer.id);
    expect((await admin.get(`${LIST}/${staffer.id}`)).statusCode).toBe(404);
  });

  it('is for owners and admins: staff get 403; another workspace’s staffer is a 404; no CSRF, 403', async () => {
    const staffer = await createStaffer(t.db, t.workspace.id, berlin.id, [haircut.id], { firstName: 'Pia' });
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(LIST)).statusCode).toBe(403);
    expect((await staff.get(`${LIST}/${staffer.id}`)).statusCode).toBe(403);
    expect((await staff.get(`${LIST}/new`)).statusCode).toBe(403);
    await staff.get('/panel');
    expect((await staff.post(`${LIST}/${staffer.id}/archive`)).statusCode).toBe(403);

    const other = await createOtherWorkspace(t.db);
    const otherLocation = await createLocation(t.db, other.workspace.id);
    const theirs = await createStaffer(t.db, other.workspace.id, otherLocation.id, []);
    expect((await admin.get(`${LIST}/${theirs.id}`)).statusCode).toBe(404);
    expect((await admin.get(`${LIST}/not-a-uuid`)).statusCode).toBe(404);
    await admin.get(LIST);
    expect((await admin.post(`${LIST}/${theirs.id}`, { first_name: 'Hacked' })).statusCode).toBe(404);
    expect((await admin.post(`${LIST}/${theirs.id}/archive`)).statusCode).toBe(404);

    const forged = await admin.post(`${LIST}/${staffer.id}`, { first_name: 'Forged' }, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await admin.post(`${LIST}/${staffer.id}/archive`, {}, { csrf: null })).statusCode).toBe(403);
    expect((await stafferJson(staffer.id)).first_name).toBe('Pia');
  });
});

describe('Setup → Staff and hours in other languages', () => {
  it('speaks German to a German-speaking admin: list with plurals, form, staffer page and notice', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const jana = await createStaffer(t.db, t.workspace.id, berlin.id, [haircut.id, color.id], {
      firstName: 'Jana',
      lastName: 'Kraus',
    });
    const list = await german.get(LIST);
    expect(list.body).toContain('<h1>Team und Arbeitszeiten</h1>');
    expect(list.body).toContain('Teammitglied hinzufügen');
    expect(list.body).toContain('<th scope="col">Bietet an</th>');
    expect(list.body).toContain('2 Leistungen an 1 Standort');
    const form = await german.get(`${LIST}/new`);
    expect(form.body).toContain('Angebotene Leistungen je Standort');
    expect(form.body).toContain('Vorname');
    const page = await german.get(`${LIST}/${jana.id}?notice=hours`);
    expect(page.body).toContain('Die Arbeitszeiten sind gespeichert.');
    expect(page.body).toContain('<h2>Profil und Leistungen</h2>');
    expect(page.body).toContain('Arbeitszeiten in Wien bearbeiten');
    // The week preview: its label, legend and weekday names in German.
    expect(page.body).toMatch(/<figcaption>Jana Kraus in Berlin Mitte, diese Woche \(/);
    expect(page.body).toContain('Keine Arbeitszeit · * Zeiten für dieses Datum geändert');
    expect(page.body).toMatch(/<li>Mo\.? \d\d /);
    expect(page.body).toContain('Jana Kraus archivieren');
    expect(page.body).toContain('<h2>Eigener Kalender</h2>');
    expect(page.body).toContain('Kein Kalender verbunden.');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = await arabic.get(LIST);
    expect(list.body).toContain('<html lang="ar" dir="rtl">');
    expect(list.body).toContain('<h1>الموظفون وساعات العمل</h1>');
    expect(list.body).toContain('إضافة موظف');
  });
});
