import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
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

const PAGE = '/panel/setup/statuses';

interface Status {
  uuid: string;
  name: string;
  type: string;
  color: string;
  is_default: boolean;
}
const statuses = async () => (await t.call('GET', '/bookings/statuses')).json().data as Status[];
const named = async (name: string) => (await statuses()).find((status) => status.name === name);

describe('Setup → Booking statuses', () => {
  it('adds, edits, makes default and archives a status as the API does', async () => {
    const list = await admin.get(PAGE);
    expect(list.statusCode).toBe(200);
    expect(list.body).toMatch(/New<\/a> <span class="badge enabled">Default<\/span>/);
    expect(list.body).toContain('<rect width="16" height="16" rx="3" fill="#2196f3"');

    await admin.get(`${PAGE}/new`);
    const created = await admin.post(PAGE, { name: ' Arrived ', color: '#FF9800' });
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe(`${PAGE}?notice=created`);
    const arrived = await named('Arrived');
    expect(arrived).toMatchObject({ type: 'custom', color: '#ff9800', is_default: false });

    // Without a colour: the API's default colour.
    expect((await admin.post(PAGE, { name: 'Plain', color: '' })).statusCode).toBe(303);
    expect((await named('Plain'))?.color).toMatch(/^#[0-9a-f]{6}$/);

    const edit = await admin.get(`${PAGE}/${arrived!.uuid}`);
    expect(edit.body).toMatch(/name="color" type="text" value="#ff9800"/);
    const saved = await admin.post(`${PAGE}/${arrived!.uuid}`, {
      name: 'Checked in',
      color: '#00AA00',
      is_default: 'true',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(await named('Checked in')).toMatchObject({ color: '#00aa00', is_default: true });
    expect((await named('New'))?.is_default).toBe(false);

    // The default cannot be archived: no button, and a forced POST says why (the API's 409).
    const defaultPage = await admin.get(`${PAGE}/${arrived!.uuid}`);
    expect(defaultPage.body).not.toContain('/archive"');
    expect(defaultPage.body).toContain('This is the default status of new bookings');
    const refused = await admin.post(`${PAGE}/${arrived!.uuid}/archive`);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('The default status cannot be archived');

    const newStatus = await named('New');
    await admin.get(`${PAGE}/${newStatus!.uuid}`);
    expect(
      (await admin.post(`${PAGE}/${newStatus!.uuid}`, { name: 'New', color: '#2196f3', is_default: 'true' }))
        .statusCode,
    ).toBe(303);
    const builtIn = await admin.post(`${PAGE}/${newStatus!.uuid}/archive`);
    expect(builtIn.statusCode).toBe(409);
    expect(builtIn.body).toContain('The built-in statuses cannot be archived.');

    await admin.get(`${PAGE}/${arrived!.uuid}`);
    const archived = await admin.post(`${PAGE}/${arrived!.uuid}/archive`);
    expect(archived.statusCode).toBe(303);
    expect(await named('Checked in')).toBeUndefined();
    const after = await admin.get(`${PAGE}?notice=archived`);
    expect(after.body).toContain('The status is archived.');
    expect(after.body).toMatch(/Checked in <span class="badge muted">Archived<\/span>/);
    expect((await admin.get(`${PAGE}/${arrived!.uuid}`)).statusCode).toBe(404);

    // An archived status's name is free again, as for the API.
    await admin.get(`${PAGE}/new`);
    expect((await admin.post(PAGE, { name: 'Checked in', color: '' })).statusCode).toBe(303);
  });

  it('refuses a live name twice and a bad colour, next to the field, keeping what was typed', async () => {
    await admin.get(`${PAGE}/new`);
    const before = await statuses();
    const duplicate = await admin.post(PAGE, { name: 'confirmed', color: '#123456' });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.body).toContain(
      '<p class="error" id="f-name-error">A status named “confirmed” already exists.</p>',
    );
    expect(duplicate.body).toMatch(/name="color" type="text" value="#123456"/);
    const api = await t.call('POST', '/bookings/statuses', { name: 'confirmed' });
    expect(api.statusCode).toBe(422);

    const badColor = await admin.post(PAGE, { name: 'Waiting', color: 'orange', is_default: 'true' });
    expect(badColor.statusCode).toBe(422);
    expect(badColor.body).toContain(
      '<p class="error" id="f-color-error">Enter a colour as #rrggbb, such as #4caf50.</p>',
    );
    expect(badColor.body).toMatch(/name="is_default" value="true" checked/);
    expect((await admin.post(PAGE, { name: '   ' })).statusCode).toBe(422);

    const confirmed = await named('Confirmed');
    await admin.get(`${PAGE}/${confirmed!.uuid}`);
    const rename = await admin.post(`${PAGE}/${confirmed!.uuid}`, { name: 'New', color: '#4caf50' });
    expect(rename.statusCode).toBe(422);
    expect(rename.body).toContain('id="f-name-error">A status named “New” already exists.');
    expect(rename.body).toMatch(/name="name" type="text" value="New"/);
    expect(await statuses()).toEqual(before);
  });

  it('is for owners and admins, only for this workspace’s statuses, and needs the form’s token', async () => {
    const confirmed = await named('Confirmed');
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(PAGE)).statusCode).toBe(403);
    expect((await staff.get(`${PAGE}/${confirmed!.uuid}`)).statusCode).toBe(403);
    await staff.get('/panel');
    expect((await staff.post(`${PAGE}/${confirmed!.uuid}`, { name: 'Staffed' })).statusCode).toBe(403);

    const other = await createOtherWorkspace(t.db);
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/api/public/v2/bookings/statuses', headers: other.headers })
    ).json().data[1] as Status;
    await admin.get(PAGE);
    expect((await admin.get(`${PAGE}/${theirs.uuid}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirs.uuid}`, { name: 'Taken', color: '#000000' })).statusCode).toBe(
      404,
    );
    expect((await admin.post(`${PAGE}/${theirs.uuid}/archive`)).statusCode).toBe(404);

    const forged = await admin.post(
      `${PAGE}/${confirmed!.uuid}`,
      { name: 'Forged', color: '#000000' },
      { csrf: null },
    );
    expect(forged.statusCode).toBe(403);
    expect(await named('Forged')).toBeUndefined();
  });
});

describe('Setup → Booking statuses in other languages', () => {
  it('speaks German to a German-speaking admin: the list, the built-in kinds and the form', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const list = await german.get(PAGE);
    expect(list.body).toContain('<h1>Buchungsstatus</h1>');
    expect(list.body).toContain('Vorgegeben: neue Buchungen');
    expect(list.body).toContain('<th scope="col">Farbe</th>');
    const form = await german.get(`${PAGE}/new`);
    expect(form.body).toContain('Standard: Neue Buchungen erhalten diesen Status');
    expect(form.body).toContain('Eine Hex-Farbe #rrggbb, etwa #4caf50.');
    const added = await german.post(PAGE, { name: 'Wartet auf Anzahlung', color: '#336699' });
    expect(added.statusCode).toBe(303);
    expect((await german.get(added.headers.location as string)).body).toContain(
      'Der Status ist hinzugefügt.',
    );
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = await arabic.get(PAGE);
    expect(list.body).toContain('<html lang="ar" dir="rtl">');
    expect(list.body).toContain('<h1>حالات الحجز</h1>');
  });
});
