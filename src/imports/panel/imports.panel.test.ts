import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, type Studio } from '../../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../../test/helpers/build-test-app.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

/** Settings → Import and export: owners and admins only; preview, then one run per upload. */
let s: Studio;
let owner: PanelClient;
beforeAll(async () => {
  s = await openStudio();
  owner = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'owner' }]),
  );
});
afterAll(() => s.t.close());

const customersNamed = async (name: string) =>
  (await s.t.call('GET', '/customers?per_page=100'))
    .json()
    .data.filter((c: { first_name: string }) => c.first_name === name).length;

describe('Import and export in the panel', () => {
  it('previews an upload, runs it once however often it is submitted, and shows what it did', async () => {
    const page = await owner.get('/panel/settings/data');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/assets/islands/csv-file.js');
    const csv = 'phone;first_name\n+4915144440001;Paula\n+4915144440002;Quinn\nbad;Row\n';
    const uploaded = await owner.post('/panel/settings/data/imports', {
      kind: 'customers',
      csv,
      file_name: 'c.csv',
    });
    expect(uploaded.statusCode).toBe(303);
    const preview = uploaded.headers.location as string;
    expect(preview).toMatch(/^\/panel\/settings\/data\/imports\/[0-9a-f-]{36}$/);
    const shown = await owner.get(preview);
    expect(shown.body).toContain('2 to create, 0 to update, 0 already there, 1 with errors.');
    expect(shown.body).toContain('Import 2 rows');
    expect(await customersNamed('Paula')).toBe(0);

    const run = await owner.post(`${preview}/run`);
    expect(run.statusCode).toBe(303);
    expect(run.headers.location).toBe(preview);
    const again = await owner.post(`${preview}/run`);
    expect(again.statusCode).toBe(303);
    const done = await owner.get(preview);
    expect(done.body).toContain('2 created, 0 updated, 0 already there, 1 with errors.');
    expect(done.body).not.toContain('Import 2 rows');
    expect(await customersNamed('Paula')).toBe(1);
  });

  it('answers an empty file or no kind with the form again, and refuses a post without its token', async () => {
    const empty = await owner.post('/panel/settings/data/imports', { kind: 'customers', csv: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Choose a file or paste its text.');
    expect(
      (await owner.post('/panel/settings/data/imports', { kind: 'rooms', csv: 'a\n1' })).statusCode,
    ).toBe(422);
    const forged = await owner.post(
      '/panel/settings/data/imports',
      { kind: 'customers', csv: 'phone\n+4915144440009\n' },
      { csrf: null },
    );
    expect(forged.statusCode).toBe(403);
  });

  it('exports customers and bookings as CSV files spreadsheets open as UTF-8', async () => {
    const customers = await owner.get('/panel/settings/data/customers.csv');
    expect(customers.statusCode).toBe(200);
    expect(customers.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(customers.headers['content-disposition']).toContain('attachment; filename="customers-');
    expect(customers.body.startsWith('\ufeffphone,first_name,last_name,email,uuid')).toBe(true);
    expect(customers.body).toContain('+4915144440001,Paula');
    const bookings = await owner.get('/panel/settings/data/bookings.csv?from=2026-09-01&to=2026-09-30');
    expect(bookings.statusCode).toBe(200);
    expect(bookings.body.startsWith('\ufeffstart,location,services,staffer,customer_phone')).toBe(true);
  });

  it('is closed to staff and to other workspaces', async () => {
    const staff = await PanelClient.signedIn(
      s.t.app,
      s.t.db,
      await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get('/panel/settings/data')).statusCode).toBe(403);
    expect((await staff.get('/panel/settings/data/customers.csv')).statusCode).toBe(403);
    expect((await owner.get('/panel')).body).toContain('href="/panel/settings/data"');
    expect((await staff.get('/panel')).body).not.toContain('href="/panel/settings/data"');

    const other = await createOtherWorkspace(s.t.db);
    const stranger = await PanelClient.signedIn(
      s.t.app,
      s.t.db,
      await makeUser(s.t.db, [{ workspaceId: other.workspace.id, role: 'owner' }]),
    );
    const mine = await owner.post('/panel/settings/data/imports', {
      kind: 'customers',
      csv: 'phone\n+4915144440010\n',
    });
    const path = mine.headers.location as string;
    expect((await stranger.get(path)).statusCode).toBe(404);
    await stranger.get('/panel/settings/data');
    expect((await stranger.post(`${path}/run`)).statusCode).toBe(404);
  });
});

describe('Import and export in other languages', () => {
  it('speaks German to a German-speaking owner: exports, the import form, a preview and its rows', async () => {
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'owner', 'de');
    const page = (await german.get('/panel/settings/data')).body;
    expect(page).toContain('Kund:innen (CSV)');
    expect(page).toContain('<option value="bookings">Künftige Buchungen</option>');
    expect(page).toContain('Import als Vorschau ansehen');
    const uploaded = await german.post('/panel/settings/data/imports', {
      kind: 'customers',
      csv: 'phone;first_name\n+4915144449001;Ute\n+4915144449002;Veit\n',
      file_name: 'kunden.csv',
    });
    const preview = (await german.get(uploaded.headers.location as string)).body;
    expect(preview).toContain('<h1>Importvorschau: Kund:innen aus kunden.csv</h1>');
    expect(preview).toContain('2 anzulegen, 0 zu aktualisieren, 0 schon vorhanden, 0 mit Fehlern.');
    expect(preview).toContain('<button type="submit">2 Zeilen importieren</button>');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'owner', 'ar');
    const page = (await arabic.get('/panel/settings/data')).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h2>الاستيراد</h2>');
  });
});
