import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation, createPaymentAccount } from '../../../test/helpers/factories.js';
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
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]),
  );
  mitte = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
  kreuzberg = await createLocation(t.db, t.workspace.id, { name: 'Kreuzberg' });
});
afterAll(() => t.close());

const PAGE = '/panel/setup/payment-accounts';
const accountsOf = async (locationId: string) =>
  (await t.call('GET', `/locations/${locationId}/accounts`)).json().data as {
    uuid: string;
    name: string;
    type: string;
  }[];

describe('Setup → Payment accounts', () => {
  it('adds, edits and archives a location’s account as the API does', async () => {
    const list = await admin.get(PAGE);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="${PAGE}/${mitte.id}/new"`);
    expect(list.body).toContain(`href="${PAGE}/${kreuzberg.id}/new"`);

    expect((await admin.get(`${PAGE}/${kreuzberg.id}/new`)).statusCode).toBe(200);
    const created = await admin.post(`${PAGE}/${kreuzberg.id}`, { name: ' Card terminal ', type: 'card' });
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe(`${PAGE}?notice=created`);
    const [terminal] = await accountsOf(kreuzberg.id);
    expect(terminal).toMatchObject({ name: 'Card terminal', type: 'card' });
    expect(await accountsOf(mitte.id)).toEqual([]);

    const edit = await admin.get(`${PAGE}/${kreuzberg.id}/${terminal!.uuid}`);
    expect(edit.body).toMatch(/<option value="card" selected(="")?>Card<\/option>/);
    const saved = await admin.post(`${PAGE}/${kreuzberg.id}/${terminal!.uuid}`, {
      name: 'Bank',
      type: 'bank_transfer',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(await accountsOf(kreuzberg.id)).toEqual([
      { uuid: terminal!.uuid, name: 'Bank', type: 'bank_transfer' },
    ]);

    const archived = await admin.post(`${PAGE}/${kreuzberg.id}/${terminal!.uuid}/archive`);
    expect(archived.statusCode).toBe(303);
    expect(await accountsOf(kreuzberg.id)).toEqual([]);
    const after = await admin.get(`${PAGE}?notice=archived`);
    expect(after.body).toContain('The payment account is archived.');
    expect(after.body).toMatch(/Bank <span class="badge muted">Archived<\/span>/);
    expect((await admin.get(`${PAGE}/${kreuzberg.id}/${terminal!.uuid}`)).statusCode).toBe(404);
  });

  it('refuses what the API refuses, next to the field, keeping what was typed', async () => {
    await admin.get(`${PAGE}/${mitte.id}/new`);
    const bad = await admin.post(`${PAGE}/${mitte.id}`, { name: '', type: 'crypto' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="f-name-error"');
    expect(bad.body).toContain('<p class="error" id="f-type-error">Choose one of the offered values.');
    const blank = await admin.post(`${PAGE}/${mitte.id}`, { name: '   ', type: 'cash' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('id="f-name-error">This field is required.');
    expect(await accountsOf(mitte.id)).toEqual([]);

    const desk = await createPaymentAccount(t.db, t.workspace.id, mitte.id, { name: 'Desk' });
    await admin.get(`${PAGE}/${mitte.id}/${desk.id}`);
    const badEdit = await admin.post(`${PAGE}/${mitte.id}/${desk.id}`, {
      name: 'x'.repeat(300),
      type: 'cash',
    });
    expect(badEdit.statusCode).toBe(422);
    expect(badEdit.body).toContain('id="f-name-error"');
    expect(badEdit.body).toContain(`value="${'x'.repeat(300)}"`);
    expect((await accountsOf(mitte.id))[0]?.name).toBe('Desk');
  });

  it('is for owners and admins, only for this workspace’s accounts, and needs the form’s token', async () => {
    const mine = await createPaymentAccount(t.db, t.workspace.id, mitte.id, { name: 'Mine' });
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(PAGE)).statusCode).toBe(403);
    await staff.get('/panel');
    expect((await staff.post(`${PAGE}/${mitte.id}`, { name: 'Staffed', type: 'cash' })).statusCode).toBe(403);

    const other = await createOtherWorkspace(t.db);
    const theirLocation = await createLocation(t.db, other.workspace.id, { name: 'Theirs' });
    const theirs = await createPaymentAccount(t.db, other.workspace.id, theirLocation.id, { name: 'Theirs' });
    await admin.get(PAGE);
    expect((await admin.get(`${PAGE}/${theirLocation.id}/new`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirLocation.id}`, { name: 'In', type: 'cash' })).statusCode).toBe(
      404,
    );
    expect((await admin.get(`${PAGE}/${theirLocation.id}/${theirs.id}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${theirLocation.id}/${theirs.id}/archive`)).statusCode).toBe(404);
    // Our location with their account (or our account under another of our locations): 404 too.
    expect((await admin.get(`${PAGE}/${mitte.id}/${theirs.id}`)).statusCode).toBe(404);
    expect((await admin.post(`${PAGE}/${kreuzberg.id}/${mine.id}/archive`)).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/public/v2/locations/${theirLocation.id}/accounts`,
          headers: other.headers,
        })
      ).json().data,
    ).toHaveLength(1);

    const forged = await admin.post(`${PAGE}/${mitte.id}/${mine.id}/archive`, {}, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await accountsOf(mitte.id)).map((account) => account.name)).toContain('Mine');
  });
});

describe('Setup → Payment accounts in other languages', () => {
  it('speaks German to a German-speaking admin: the list, the account types and the form', async () => {
    await createPaymentAccount(t.db, t.workspace.id, kreuzberg.id, {
      name: 'Überweisungskonto',
      type: 'bank_transfer',
    });
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const list = await german.get(PAGE);
    expect(list.body).toContain('<h1>Zahlungskonten</h1>');
    expect(list.body).toContain('aria-label="Zahlungskonten von Kreuzberg"');
    expect(list.body).toContain('>Überweisung</td>');
    expect(list.body).toContain('Konto hinzufügen<span class="skip-label"> bei Mitte</span>');
    const form = await german.get(`${PAGE}/${mitte.id}/new`);
    expect(form.body).toContain('<h1>Zahlungskonto bei Mitte hinzufügen</h1>');
    expect(form.body).toContain('<option value="cash" selected>Bargeld</option>');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = await arabic.get(PAGE);
    expect(list.body).toContain('<html lang="ar" dir="rtl">');
    expect(list.body).toContain('<h1>حسابات الدفع</h1>');
  });
});
