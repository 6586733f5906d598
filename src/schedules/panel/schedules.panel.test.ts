import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

// A Wednesday: the preview shows Mon 2026-09-07 .. Sun 2026-09-13.
const clock = new FixedClock('2026-09-09T08:00:00Z');
let t: TestApp;
let admin: PanelClient;
let location: { id: string };
let haircut: { id: string };

beforeAll(async () => {
  t = await buildTestApp({ clock });
  location = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
  haircut = await createService(t.db, t.workspace.id, [location.id]);
  admin = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
});
afterAll(() => t.close());

/** A staffer made through the API, without any hours yet. */
async function newStaffer(firstName: string): Promise<string> {
  const response = await t.call('POST', '/staffers', {
    first_name: firstName,
    services: [{ location_uuid: location.id, service_uuids: [haircut.id] }],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid;
}
const hoursPage = (stafferId: string) => `/panel/setup/staffers/${stafferId}/hours/${location.id}`;
const scheduleJson = async (stafferId: string) => {
  const response = await t.call('GET', `/staffers/${stafferId}/schedules/${location.id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

describe('Setup → Staff and hours: a staffer’s hours at a location', () => {
  it('saves weekly hours, breaks and date overrides as PUT .../schedules does, and previews the week', async () => {
    const id = await newStaffer('Lena');
    const empty = await admin.get(hoursPage(id));
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('name="weekly.mon.1.to"');
    // One empty date to fill, not a stack of them.
    expect(empty.body).toContain('name="overrides.0.date"');
    expect(empty.body).not.toContain('name="overrides.1.date"');

    const saved = await admin.post(hoursPage(id), {
      'weekly.mon.0.from': '09:00',
      'weekly.mon.0.to': '13:00',
      'weekly.mon.1.from': '14:00',
      'weekly.mon.1.to': '18:00',
      'weekly.tue.0.from': '10:00',
      'weekly.tue.0.to': '18:00',
      'breaks.tue.0.from': '12:00',
      'breaks.tue.0.to': '12:30',
      // The second row alone: the first empty row is left out.
      'weekly.wed.0.from': '',
      'weekly.wed.0.to': '',
      'weekly.wed.1.from': '08:00',
      'weekly.wed.1.to': '12:00',
      'weekly.thu.0.from': '09:00',
      'weekly.thu.0.to': '17:00',
      'overrides.0.date': '2026-09-10',
      'overrides.0.mode': 'off',
      'overrides.1.date': '2026-09-11',
      'overrides.1.mode': 'hours',
      'overrides.1.intervals.0.from': '12:00',
      'overrides.1.intervals.0.to': '16:00',
      'overrides.1.breaks.0.from': '14:00',
      'overrides.1.breaks.0.to': '14:15',
      'overrides.2.date': '',
      'overrides.2.mode': 'off',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${hoursPage(id)}?notice=saved`);
    expect(await scheduleJson(id)).toEqual({
      location_uuid: location.id,
      weekly: {
        mon: [
          { from: '09:00', to: '13:00' },
          { from: '14:00', to: '18:00' },
        ],
        tue: [{ from: '10:00', to: '18:00' }],
        wed: [{ from: '08:00', to: '12:00' }],
        thu: [{ from: '09:00', to: '17:00' }],
      },
      breaks: { tue: [{ from: '12:00', to: '12:30' }] },
      overrides: [
        { date: '2026-09-10', intervals: [] },
        {
          date: '2026-09-11',
          intervals: [{ from: '12:00', to: '16:00' }],
          breaks: [{ from: '14:00', to: '14:15' }],
        },
      ],
    });

    const page = await admin.get(`${hoursPage(id)}?notice=saved`);
    expect(page.body).toContain('The hours are saved.');
    // The week in words, with the overrides of this week in place of Thursday and Friday.
    expect(page.body).toContain('<li>Mon 07 09:00–13:00, 14:00–18:00</li>');
    expect(page.body).toContain('<li>Tue 08 10:00–18:00 (break 12:00–12:30)</li>');
    expect(page.body).toContain('<li>Thu 10 off (changed for this date)</li>');
    expect(page.body).toContain('<li>Fri 11 12:00–16:00 (break 14:00–14:15) (changed for this date)</li>');
    expect(page.body).toContain('<li>Sun 13 off</li>');
    expect(page.body).toContain('class="wk-cell break"');
    expect(page.body).toContain('class="wk-head today">Wed 09');
    // The form shows what is stored, the overrides by date, plus one empty row for a new one.
    expect(page.body).toMatch(/name="weekly.wed.0.from" value="08:00"/);
    expect(page.body).toMatch(/name="overrides.1.intervals.0.from" value="12:00"/);
    expect(page.body).toContain('name="overrides.2.date"');
    expect(page.body).not.toContain('name="overrides.3.date"');

    // The staffer's page previews the same week.
    const stafferPage = await admin.get(`/panel/setup/staffers/${id}`);
    expect(stafferPage.body).toContain('<li>Thu 10 off (changed for this date)</li>');
    expect(stafferPage.body).toContain(`href="${hoursPage(id)}"`);

    // The slot engine reads the new hours: Thursday 10 is off, Monday 7 is past, Monday 14 works.
    const slots = await t.call(
      'GET',
      `/locations/${location.id}/time-slots?service_uuid=${haircut.id}&range_start=2026-09-10&range_end=2026-09-14`,
    );
    expect(slots.statusCode, slots.body).toBe(200);
    const dates = slots.json().dates as { date: string; slots: unknown[] }[];
    const count = (date: string) => dates.find((d) => d.date === date)?.slots.length ?? 0;
    expect(count('2026-09-10')).toBe(0);
    expect(count('2026-09-14')).toBeGreaterThan(0);
  });

  it('records schedule-updated with the saved hours, for the waitlist and webhooks', async () => {
    const id = await newStaffer('Mira');
    await admin.get(hoursPage(id));
    const saved = await admin.post(hoursPage(id), {
      'weekly.mon.0.from': '10:00',
      'weekly.mon.0.to': '18:00',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    const rows = await t.db
      .selectFrom('outbox_events')
      .select(['type', 'sequence', 'payload'])
      .where('workspace_id', '=', t.workspace.id)
      .where('type', '=', 'schedule-updated')
      .execute();
    const mine = rows.filter(
      (row) =>
        (row.payload as { data: { schedule: { staffer_uuid: string } } }).data.schedule.staffer_uuid === id,
    );
    expect(mine).toEqual([
      {
        type: 'schedule-updated',
        sequence: 1,
        payload: {
          type: 'schedule-updated',
          timestamp: '2026-09-09T08:00:00.000Z',
          workspace: t.workspace.slug,
          sequence: 1,
          data: {
            schedule: {
              staffer_uuid: id,
              location_uuid: location.id,
              weekly: { mon: [{ from: '10:00', to: '18:00' }] },
              breaks: {},
              overrides: [],
            },
          },
        },
      },
    ]);
  });

  it('"Add another date" shows the form as typed with one more empty date, and saves nothing', async () => {
    const id = await newStaffer('Nora');
    const typed = {
      'weekly.mon.0.from': '09:00',
      'weekly.mon.0.to': '17:00',
      'overrides.0.date': '2026-12-24',
      'overrides.0.mode': 'off',
    };
    const more = await admin.post(hoursPage(id), { ...typed, add_override: '1' });
    expect(more.statusCode).toBe(200);
    expect(more.body).toMatch(/name="weekly.mon.0.from" value="09:00"/);
    expect(more.body).toMatch(/name="overrides.0.date" value="2026-12-24"/);
    expect(more.body).toContain('name="overrides.1.date" value/>');
    expect(more.body).not.toContain('name="overrides.2.date"');
    expect(more.body).toContain('name="add_override"');
    expect((await scheduleJson(id)).overrides).toEqual([]);
    // Saving that form stores the date typed and leaves the empty one out.
    expect((await admin.post(hoursPage(id), { ...typed, 'overrides.1.date': '' })).statusCode).toBe(303);
    expect((await scheduleJson(id)).overrides).toEqual([{ date: '2026-12-24', intervals: [] }]);
  });

  it('removes an override with its checkbox, and keeps the others', async () => {
    const id = await newStaffer('Omar');
    const put = await t.call('PUT', `/staffers/${id}/schedules/${location.id}`, {
      weekly: { mon: [{ from: '09:00', to: '17:00' }] },
      overrides: [
        { date: '2026-12-24', intervals: [] },
        { date: '2026-12-31', intervals: [{ from: '09:00', to: '12:00' }] },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const page = await admin.get(hoursPage(id));
    expect(page.body).toContain('name="overrides.0.remove"');
    const form: Record<string, string> = {
      'weekly.mon.0.from': '09:00',
      'weekly.mon.0.to': '17:00',
      'overrides.0.date': '2026-12-24',
      'overrides.0.mode': 'off',
      'overrides.0.remove': '1',
      'overrides.1.date': '2026-12-31',
      'overrides.1.mode': 'hours',
      'overrides.1.intervals.0.from': '09:00',
      'overrides.1.intervals.0.to': '12:00',
    };
    expect((await admin.post(hoursPage(id), form)).statusCode).toBe(303);
    expect((await scheduleJson(id)).overrides).toEqual([
      { date: '2026-12-31', intervals: [{ from: '09:00', to: '12:00' }] },
    ]);
  });

  it('answers 422 with each rule error next to its row, keeps what was typed, and stores nothing', async () => {
    const id = await newStaffer('Pavel');
    await admin.get(hoursPage(id));
    const bad = await admin.post(hoursPage(id), {
      'weekly.mon.0.from': '09:00',
      'weekly.mon.0.to': '13:00',
      'weekly.mon.1.from': '12:00',
      'weekly.mon.1.to': '15:00',
      // Row 0 empty: the error of body range 0 belongs to form row 1.
      'weekly.wed.0.from': '',
      'weekly.wed.0.to': '',
      'weekly.wed.1.from': '10:00',
      'weekly.wed.1.to': '10:00',
      'breaks.fri.0.from': '12:00',
      'breaks.fri.0.to': '13:00',
      'overrides.0.date': '2026-02-30',
      'overrides.0.mode': 'off',
      'overrides.1.date': '2026-09-20',
      'overrides.1.mode': 'hours',
      'overrides.2.date': '',
      'overrides.3.date': '2026-09-21',
      'overrides.3.mode': 'hours',
      'overrides.3.intervals.0.from': '09:00',
      'overrides.3.intervals.0.to': '12:00',
      'overrides.3.breaks.1.from': '13:00',
      'overrides.3.breaks.1.to': '14:00',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/id="f-weekly-mon-1-error">These working hours overlap others of the same day./);
    expect(bad.body).toMatch(/id="f-weekly-wed-1-error">The end must differ from the start./);
    expect(bad.body).toMatch(
      /id="f-breaks-fri-0-error">The break must lie within the working hours of its day./,
    );
    expect(bad.body).toMatch(/id="f-overrides-0-date-error">Enter a date such as 2026-12-24./);
    expect(bad.body).toMatch(/id="f-overrides-1-intervals-error">Enter the working hours/);
    expect(bad.body).toMatch(
      /id="f-overrides-3-breaks-1-error">The break must lie within the working hours of its day./,
    );
    expect(bad.body).toMatch(/name="weekly.mon.1.from" value="12:00" aria-invalid="true"/);
    expect(bad.body).toMatch(/name="overrides.0.date" value="2026-02-30"/);
    expect(bad.body).not.toContain('name="overrides.4.date"');
    // The API keeps its own English message for the same mistake; the panel words it itself.
    const api = await t.call('PUT', `/staffers/${id}/schedules/${location.id}`, {
      weekly: {
        mon: [
          { from: '09:00', to: '13:00' },
          { from: '12:00', to: '15:00' },
        ],
      },
    });
    expect(api.statusCode).toBe(422);
    expect(api.json().errors['weekly.mon.1']).toEqual(['The interval overlaps weekly.mon.0.']);
    expect(bad.body).not.toContain('The interval overlaps weekly.mon.0.');
    expect(await scheduleJson(id)).toEqual({
      location_uuid: location.id,
      weekly: {},
      breaks: {},
      overrides: [],
    });

    // Nonsense (no time at all, an unknown field) is a 422 or ignored, never a 500.
    const junk = await admin.post(hoursPage(id), {
      'weekly.mon.0.from': 'lunch',
      'weekly.mon.0.to': '25:00',
      'weekly.funday.0.from': '09:00',
      'overrides.x.date': 'soon',
    });
    expect(junk.statusCode).toBe(422);
    expect(junk.body).toContain('id="f-weekly-mon-0-error"');
  });

  it('is for owners and admins; another workspace’s staffer or location is a 404; no CSRF, 403', async () => {
    const id = await newStaffer('Quinn');
    const staff = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
    );
    expect((await staff.get(hoursPage(id))).statusCode).toBe(403);
    await staff.get('/panel');
    expect((await staff.post(hoursPage(id), { 'weekly.mon.0.from': '09:00' })).statusCode).toBe(403);

    const other = await createOtherWorkspace(t.db);
    const theirLocation = await createLocation(t.db, other.workspace.id);
    const theirStaffer = await createStaffer(t.db, other.workspace.id, theirLocation.id, []);
    expect(
      (await admin.get(`/panel/setup/staffers/${theirStaffer.id}/hours/${location.id}`)).statusCode,
    ).toBe(404);
    expect((await admin.get(`/panel/setup/staffers/${id}/hours/${theirLocation.id}`)).statusCode).toBe(404);
    await admin.get(hoursPage(id));
    expect(
      (
        await admin.post(`/panel/setup/staffers/${id}/hours/${theirLocation.id}`, {
          'weekly.mon.0.from': '09:00',
          'weekly.mon.0.to': '17:00',
        })
      ).statusCode,
    ).toBe(404);

    const forged = await admin.post(
      hoursPage(id),
      { 'weekly.mon.0.from': '09:00', 'weekly.mon.0.to': '17:00' },
      { csrf: null },
    );
    expect(forged.statusCode).toBe(403);
    expect((await scheduleJson(id)).weekly).toEqual({});
  });
});

describe('a staffer’s hours page in other languages', () => {
  it('speaks German to a German-speaking admin: heading, weekdays, date overrides, buttons', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const id = await newStaffer('Lena');
    const page = await german.get(`${hoursPage(id)}?notice=saved`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Arbeitszeiten von Lena in Mitte</h1>');
    expect(page.body).toContain('Die Arbeitszeiten sind gespeichert.');
    expect(page.body).toContain('<th scope="row">Montag</th>');
    expect(page.body).toContain('Montag Arbeitszeit 1 von');
    expect(page.body).toContain('<legend>Abweichende Tage</legend>');
    expect(page.body).toContain('Weiteres Datum');
    expect(page.body).toContain('Arbeitszeiten speichern');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const id = await newStaffer('Sami');
    const page = await arabic.get(hoursPage(id));
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    expect(page.body).toContain('<h1>ساعات عمل Sami في Mitte</h1>');
  });
});
