import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  openStudio,
  type Studio,
  setWorkspace,
} from '../../test/bookings/bookings-kit.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { makeUser, memberSpeaking, PanelClient } from '../../test/helpers/panel-client.js';

/**
 * A business rule's refusal in the reader's language: the panel words what a rule found on a
 * field (`ruleIssue`) and a whole-request refusal (its error code, a slot's reason) from its
 * catalogs, where it used to show the service's English message; the API keeps the English.
 */
let s: Studio;
let strict: TestApp;
beforeAll(async () => {
  s = await openStudio();
  // The same store behind an app that applies the webhooks' SSRF guard, as production does.
  strict = await buildTestApp({ database: s.t.database, config: { webhooksAllowPrivate: false } });
});
afterAll(async () => {
  await strict.app.close();
  await s.t.close();
});

const errorOf = (body: string, id: string) => new RegExp(`id="${id}-error">([^<]*)<`).exec(body)?.[1] ?? null;
/** The first paragraph of a page's main content: where a refusal is said. */
const problemOf = (body: string) => /<h2>([^<]*)<\/h2>/.exec(body)?.[1] ?? null;

async function hoursForm(lang: string) {
  const client = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'admin', lang);
  const page = `/panel/setup/staffers/${s.f.ben.id}/hours/${s.f.location.id}`;
  await client.get(page);
  return client.post(page, {
    'weekly.mon.0.from': '09:00',
    'weekly.mon.0.to': '13:00',
    'weekly.mon.1.from': '12:00',
    'weekly.mon.1.to': '15:00',
    'weekly.tue.0.from': '09:00',
    'weekly.tue.0.to': '12:00',
    'breaks.tue.0.from': '12:30',
    'breaks.tue.0.to': '13:00',
  });
}

describe('business rules on a field, in the reader’s language', () => {
  it('a schedule’s overlapping hours and a break outside them, in German and Arabic', async () => {
    const german = await hoursForm('de');
    expect(german.statusCode).toBe(422);
    expect(errorOf(german.body, 'f-weekly-mon-1')).toBe(
      'Diese Arbeitszeit überschneidet sich mit einer anderen desselben Tages.',
    );
    expect(errorOf(german.body, 'f-breaks-tue-0')).toBe(
      'Die Pause muss innerhalb der Arbeitszeit ihres Tages liegen.',
    );
    const arabic = await hoursForm('ar');
    expect(arabic.statusCode).toBe(422);
    expect(errorOf(arabic.body, 'f-weekly-mon-1')).toBe(
      'تتداخل ساعات العمل هذه مع ساعات أخرى في اليوم نفسه.',
    );
    expect(errorOf(arabic.body, 'f-breaks-tue-0')).toBe('يجب أن تقع الاستراحة ضمن ساعات العمل في يومها.');
    expect(arabic.body).not.toContain('overlaps');
  });

  it('a rental without a resource: a service that needs no staffer, in German', async () => {
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'admin', 'de');
    await german.get('/panel/setup/services/new');
    const refused = await german.post('/panel/setup/services', {
      name: 'Tennisplatz',
      duration_minutes: '60',
      location_uuids: s.f.location.id,
      staffer_needed: 'no',
    });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused.body, 'f-staffer_needed')).toBe(
      'Eine Leistung kommt nur ohne Mitarbeiter aus, wenn sie mindestens eine Ressource braucht.',
    );
  });

  it('a location’s opening hours and its time zone', async () => {
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'admin', 'de');
    await german.get('/panel/setup/locations/new');
    const refused = await german.post('/panel/setup/locations', {
      name: 'Nirgendwo',
      timezone: 'Mars/Olympus',
      'opening_hours.mon.0.from': '09:00',
      'opening_hours.mon.0.to': '12:00',
      'opening_hours.mon.1.from': '11:00',
      'opening_hours.mon.1.to': '18:00',
      'opening_hours.tue.0.from': '18:00',
      'opening_hours.tue.0.to': '09:00',
    });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused.body, 'f-timezone')).toBe('Wählen Sie eine Zeitzone wie Europe/Berlin.');
    expect(errorOf(refused.body, 'f-opening_hours-mon')).toBe(
      'Diese Zeiten überschneiden sich mit denen von 09:00 bis 12:00 desselben Tages.',
    );
    expect(errorOf(refused.body, 'f-opening_hours-tue')).toBe(
      'Die Schließzeit muss nach der Öffnungszeit liegen.',
    );
  });

  it('a status’s colour, and its name taken, with the name as a value', async () => {
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'admin', 'de');
    await german.get('/panel/setup/statuses/new');
    const colour = await german.post('/panel/setup/statuses', { name: 'Bezahlt', color: 'green' });
    expect(colour.statusCode).toBe(422);
    expect(errorOf(colour.body, 'f-color')).toBe('Geben Sie eine Farbe als #rrggbb ein, etwa #4caf50.');
    const taken = await german.post('/panel/setup/statuses', { name: 'Confirmed', color: '#4caf50' });
    expect(taken.statusCode).toBe(422);
    expect(errorOf(taken.body, 'f-name')).toBe('Einen Status namens „Confirmed“ gibt es schon.');
  });

  it('a webhook’s url on a private address, while the API keeps its English message', async () => {
    const german = await memberSpeaking(strict.app, s.t.db, s.t.workspace.id, 'admin', 'de');
    const hooks = '/panel/settings/developers/webhooks';
    await german.get(`${hooks}/new`);
    const refused = await german.post(hooks, { url: 'http://169.254.169.254/latest/meta-data', events: '*' });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused.body, 'f-url')).toBe(
      'Die Adresse darf nicht auf ein privates, Loopback- oder Link-Local-Netz zeigen.',
    );
    const api = await strict.call('POST', '/webhooks', { url: 'http://169.254.169.254/x', events: ['*'] });
    expect(api.statusCode).toBe(422);
    expect(api.json().errors.url).toEqual([
      'The url must not point to a private, loopback or link-local address.',
    ]);
  });

  it('the last owner, who cannot step down', async () => {
    const other = await createOtherWorkspace(s.t.db);
    const owner = await makeUser(s.t.db, [{ workspaceId: other.workspace.id, role: 'owner' }]);
    const client = await PanelClient.signedIn(s.t.app, s.t.db, owner, other.workspace.id);
    expect(
      (await client.submit('/panel/account/password', { language: 'de' }, '/panel/account/language'))
        .statusCode,
    ).toBe(303);
    await client.get('/panel/team');
    const refused = await client.post(`/panel/team/members/${owner.id}/role`, { role: 'staff' });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused.body, `role-${owner.id}`)).toBe(
      'Ein Arbeitsbereich behält mindestens einen Inhaber: Machen Sie zuerst jemand anderen zum Inhaber.',
    );
  });
});

describe('whole-request refusals, in the reader’s language', () => {
  it('a time refused as too soon on the booking’s “Move to…”', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    // Bookings now need two days' notice: moving to the next morning breaks that rule.
    await setWorkspace(s.t, { min_notice_minutes: 2 * 1440 });
    try {
      const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', 'de');
      await german.get(`/panel/bookings/${booking.uuid}`);
      const refused = await german.post(`/panel/bookings/${booking.uuid}/move`, {
        date: day,
        reserved_on: '11:00',
      });
      expect(refused.statusCode).toBe(409);
      expect(problemOf(refused.body)).toBe(
        'Die gewünschte Zeit ist zu kurzfristig: Buchungen brauchen mehr Vorlauf. Wählen Sie eine der freien Zeiten unten.',
      );
      expect(refused.body).not.toContain('too soon');
    } finally {
      await setWorkspace(s.t, { min_notice_minutes: 0 });
    }
  });

  it('a change to a canceled booking (booking_final), in German and Arabic', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const canceled = await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, {});
    expect(canceled.statusCode, canceled.body).toBe(200);
    for (const [lang, said] of [
      ['de', 'Die Buchung ist abgeschlossen oder storniert und kann nicht mehr geändert werden.'],
      ['ar', 'الحجز مكتمل أو ملغى ولا يمكن تغييره.'],
    ] as const) {
      const member = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'staff', lang);
      await member.get(`/panel/bookings/${booking.uuid}`);
      const refused = await member.post(`/panel/bookings/${booking.uuid}/move`, {
        date: day,
        reserved_on: '12:00',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.body).toContain(said);
      expect(refused.body).not.toContain('cannot be changed');
    }
  });
});
