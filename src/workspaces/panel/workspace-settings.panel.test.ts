import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PAGE = '/panel/settings/workspace';
const workspaceJson = async () => (await t.call('GET', '/workspace')).json().data;

describe('Settings → Workspace', () => {
  it('sets country and contacts as PATCH /workspace does, and GET /workspace answers them', async () => {
    const admin = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]),
    );
    const page = await admin.get(PAGE);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/panel/settings/workspace" aria-current="page">Workspace</a>');

    const saved = await admin.post(PAGE, {
      country_iso: 'at',
      'contacts.phone': '+43 1 234 5678',
      'contacts.email': ' hallo@salon.example ',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${PAGE}?notice=saved`);
    // Normalised by the same service as the API: upper-case country, E.164 phone, trimmed email.
    expect(await workspaceJson()).toMatchObject({
      country_iso: 'AT',
      contacts: { phone: '+4312345678', email: 'hallo@salon.example' },
    });
    const shown = await admin.get(`${PAGE}?notice=saved`);
    expect(shown.body).toContain('The settings are saved.');
    expect(shown.body).toMatch(/name="country_iso" type="text" value="AT"/);

    // Empty fields clear, as null or "" do through the API.
    expect(
      (await admin.post(PAGE, { country_iso: '', 'contacts.phone': '', 'contacts.email': '' })).statusCode,
    ).toBe(303);
    expect(await workspaceJson()).toMatchObject({
      country_iso: null,
      contacts: { phone: null, email: null },
    });
  });

  it('refuses what the API refuses, each error next to its field, and keeps what was typed', async () => {
    const owner = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
    );
    await owner.get(PAGE);
    const before = await workspaceJson();
    const bad = await owner.post(PAGE, {
      country_iso: 'XQ',
      'contacts.phone': '12',
      'contacts.email': 'nope',
    });
    expect(bad.statusCode).toBe(422);
    const api = await t.call('PATCH', '/workspace', {
      country_iso: 'XQ',
      contacts: { phone: '12', email: 'nope' },
    });
    expect(api.statusCode).toBe(422);
    // The panel shows the API's own messages, field by field.
    for (const [field, messages] of Object.entries(api.json().errors as Record<string, string[]>)) {
      expect(bad.body).toContain(
        `<p class="error" id="f-${field.replace('.', '-')}-error">${messages.join(' ')}</p>`,
      );
    }
    expect(bad.body).toMatch(/name="contacts.email" type="email" value="nope"[^>]*aria-invalid="true"/);
    const tooLong = await owner.post(PAGE, {
      country_iso: 'DEU',
      'contacts.phone': '',
      'contacts.email': '',
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.body).toContain('id="f-country_iso-error"');
    expect(await workspaceJson()).toEqual(before);
  });

  it('is for owners and admins only, and takes no write without the form’s CSRF token', async () => {
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(PAGE)).statusCode).toBe(403);
    expect((await staff.get('/panel')).body).not.toContain('href="/panel/settings/workspace"');
    const owner = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
    );
    await owner.get(PAGE);
    const forged = await owner.post(PAGE, { country_iso: 'FR' }, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await workspaceJson()).country_iso).not.toBe('FR');
  });
  it('sets the booking settings of PATCH /workspace, grouped in sections, as GET /workspace answers them', async () => {
    // The form sets the workspace's locale to de-CH, which a member with no language of their own
    // would then be answered in: this owner picked English, so the page stays in English.
    const owner = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'en');
    const page = await owner.get(PAGE);
    for (const heading of ['Business', 'Currency and language', 'Booking form', 'Booking rules']) {
      expect(page.body).toMatch(new RegExp(`<h2 id="[^"]+">${heading}</h2>`));
    }
    expect(page.body).toContain('<option value="JPY"');
    const form = {
      name: ' Salon Süd ',
      currency: 'CHF',
      locale: 'de-ch',
      'booking_form.customer_first_name': 'required',
      'booking_form.customer_last_name': 'optional',
      'booking_form.customer_email': 'required',
      'booking_form.booking_comment': 'hidden',
      'booking_form.booking_callback': 'optional',
      staffer_selection: 'automatic',
      slot_step_minutes: '20',
      min_notice_minutes: '120',
      horizon_days: '90',
      manage_cutoff_minutes: '1440',
      country_iso: 'CH',
      'contacts.phone': '',
      'contacts.email': '',
    };
    const saved = await owner.post(PAGE, form);
    expect(saved.statusCode, saved.body).toBe(303);
    expect(await workspaceJson()).toMatchObject({
      name: 'Salon Süd',
      currency: 'CHF',
      locale: 'de-CH',
      booking_form: {
        customer_first_name: 'required',
        customer_last_name: 'optional',
        customer_email: 'required',
        booking_comment: 'hidden',
        booking_callback: 'optional',
      },
      staffer_selection: 'automatic',
      slot_step_minutes: 20,
      min_notice_minutes: 120,
      horizon_days: 90,
      manage_cutoff_minutes: 1440,
      country_iso: 'CH',
    });
    const shown = await owner.get(PAGE);
    expect(shown.body).toMatch(/name="slot_step_minutes" type="number" value="20"/);
    expect(shown.body).toMatch(/<option value="hidden" selected(="")?>Hidden<\/option>/);
    expect(shown.body).toMatch(/<option value="automatic" selected(="")?>Kairos assigns a free staffer/);

    // What the API refuses, the form refuses: each message next to its field, the typed values kept.
    const before = await workspaceJson();
    const bad = await owner.post(PAGE, {
      ...form,
      currency: 'eur',
      locale: 'en_US',
      'booking_form.customer_email': 'maybe',
      slot_step_minutes: '7',
      horizon_days: '',
      min_notice_minutes: 'soon',
    });
    expect(bad.statusCode).toBe(422);
    const api = await t.call('PATCH', '/workspace', {
      currency: 'eur',
      locale: 'en_US',
      booking_form: { customer_email: 'maybe' },
      slot_step_minutes: 7,
    });
    expect(api.statusCode).toBe(422);
    for (const [field, messages] of Object.entries(api.json().errors as Record<string, string[]>)) {
      expect(bad.body).toContain(
        `<p class="error" id="f-${field.replace('.', '-')}-error">${messages.join(' ')}</p>`,
      );
    }
    expect(bad.body).toContain('id="f-horizon_days-error">The horizon_days field is required.');
    expect(bad.body).toContain('id="f-min_notice_minutes-error"');
    expect(bad.body).toMatch(/name="slot_step_minutes" type="number" value="7"/);
    expect(bad.body).toMatch(/name="locale" type="text" value="en_US"/);
    expect(await workspaceJson()).toEqual(before);
  });
});

describe('Settings → Workspace in other languages', () => {
  it('speaks German to a German-speaking owner: sections, labels, choices and the saved notice', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'de');
    const page = await german.get(PAGE);
    expect(page.body).toContain('<h1>Arbeitsbereich</h1>');
    expect(page.body).toContain('<h2 id="ws-rules">Buchungsregeln</h2>');
    expect(page.body).toContain('Mindestvorlauf (Minuten)');
    expect(page.body).toContain('Kairos teilt eine freie Mitarbeiter:in zu');
    expect(page.body).toContain('Einstellungen speichern');
    const saved = await german.get(`${PAGE}?notice=saved`);
    expect(saved.body).toContain('Die Einstellungen sind gespeichert.');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'ar');
    const page = await arabic.get(PAGE);
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    expect(page.body).toContain('<h2 id="ws-form">نموذج الحجز</h2>');
  });
});
