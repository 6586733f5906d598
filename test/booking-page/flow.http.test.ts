import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFields, linkTo, location, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * The booking flow over HTTP, as a browser without JavaScript walks it: every step a GET with
 * query params, contact details and the booking as form posts.
 */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
  // A German location: a phone typed without +49 is read as German.
  await s.t.db
    .updateTable('locations')
    .set({ country_iso: 'DE' })
    .where('id', '=', s.f.location.id)
    .execute();
});
afterAll(async () => {
  await s?.t.close();
});

async function walkToDetails(day: string, time: string, staffer = 'Anna') {
  const service = await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&lang=en`);
  expect(service.statusCode).toBe(200);
  const slots = await s.get(linkTo(service.body, staffer));
  expect(slots.statusCode).toBe(200);
  const dayPage = await s.get(linkTo(slots.body, day));
  const details = await s.get(linkTo(dayPage.body, `${time}, ${day}`));
  expect(details.statusCode).toBe(200);
  return details;
}

describe('the flow without JavaScript', () => {
  it('walks service -> staffer -> day -> slot -> details -> confirm -> booked, with source online-booking', async () => {
    // Berlin is UTC+2 in September: 09:00 there is 07:00Z.
    const details = await walkToDetails('Wednesday, September 2, 2026', '9:00 AM');
    expect(details.body).toContain('Your details');
    const fields = formFields(details.body, '/confirm');
    expect(fields.at).toBe('2026-09-02T07:00:00Z');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...fields,
      customer_phone: '0151 23456789', // national: the location's country (DE) is the default
      customer_first_name: 'Ada',
      customer_last_name: '<script>alert(1)</script>',
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('+4915123456789');
    expect(confirm.body).not.toContain('<script>alert(1)</script>');
    expect(confirm.body).toContain('&lt;script>alert(1)&lt;/script>');
    const booked = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(booked.statusCode).toBe(303);
    expect(location(booked)).toMatch(new RegExp(`^/book/${s.slug}/manage/[A-Za-z0-9_-]{44}\\?.*booked=1`));
    const page = await s.get(location(booked));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your booking is confirmed');
    expect(page.body).toContain('Wednesday, September 2, 2026 at 9:00 AM');

    const { data } = await (await s.t.call('GET', '/bookings?per_page=100')).json();
    const made = data.filter((b: { source: string }) => b.source === 'online-booking');
    expect(made).toHaveLength(1);
    expect(made[0].start_time).toBe('2026-09-02T07:00:00Z');
    expect(made[0].staffer.first_name).toBe('Anna');
    expect(made[0].customer.phone).toBe('+4915123456789');
    // The same outbox event as an API create, so the same webhooks go out.
    const events = await s.t.db
      .selectFrom('outbox_events')
      .select(['type', 'payload'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', made[0].uuid)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['booking-created']);
    const payload = events[0]!.payload as { data: { booking: { source: string } } };
    expect(payload.data.booking.source).toBe('online-booking');
  });

  it('stores the language the customer booked in, for their emails; the API stores none', async () => {
    const details = await walkToDetails('Monday, September 7, 2026', '2:00 PM');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      lang: 'pl',
      customer_phone: '+4915100000077',
    });
    expect(confirm.body).toContain('Potwierdź rezerwację');
    const booked = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(location(booked)).toMatch(/[?&]lang=pl(&|$)/);
    const rows = await s.t.db
      .selectFrom('bookings')
      .select(['source', 'language'])
      .where('workspace_id', '=', s.t.workspace.id)
      .execute();
    expect(rows.filter((row) => row.language === 'pl')).toEqual([
      { source: 'online-booking', language: 'pl' },
    ]);
    expect(rows.filter((row) => row.source !== 'online-booking').every((row) => row.language === null)).toBe(
      true,
    );
  });

  it('makes one booking of a double-submitted form (its idempotency key)', async () => {
    const details = await walkToDetails('Thursday, September 3, 2026', '10:00 AM');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      customer_phone: '+4915100000001',
    });
    const form = formFields(confirm.body, '/book');
    const [a, b] = await Promise.all([
      s.post(`/book/${s.slug}/book`, form),
      s.post(`/book/${s.slug}/book`, form),
    ]);
    // Both answers lead to the one booking: the second waits for the first instead of a conflict.
    expect([a.statusCode, b.statusCode]).toEqual([303, 303]);
    expect(location(b)).toBe(location(a));
    const again = await s.post(`/book/${s.slug}/book`, form);
    expect(location(again)).toBe(location(a));
    const { data } = await (
      await s.t.call(
        'GET',
        '/bookings?reserved_on_from=2026-09-03T00:00:00Z&reserved_on_to=2026-09-03T23:59:59Z',
      )
    ).json();
    expect(
      data.filter((x: { customer: { phone: string } }) => x.customer.phone === '+4915100000001'),
    ).toHaveLength(1);
  });

  it('answers a taken slot with the nearest free times and keeps what was typed', async () => {
    const details = await walkToDetails('Friday, September 4, 2026', '11:00 AM');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      customer_phone: '+4915100000002',
      customer_first_name: 'Grace',
    });
    // Meanwhile someone books Anna at that time through the API.
    const taken = await s.t.call('POST', '/bookings', {
      reserved_on: '2026-09-04T09:00:00Z',
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: s.f.anna.id,
      customer_phone: '+4915100000003',
    });
    expect(taken.statusCode).toBe(201);
    const conflict = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('this time was just taken');
    const retry = formFields(conflict.body, '/confirm');
    expect(retry.customer_first_name).toBe('Grace');
    expect(retry.customer_phone).toBe('+4915100000002');
    // The nearest free times of Anna: 10:00 and 12:00 Berlin (08:00Z, 10:00Z) are among them.
    expect(conflict.body).toContain('value="2026-09-04T08:00:00Z"');
    expect(conflict.body).toContain('value="2026-09-04T10:00:00Z"');
    // Among the offered times (the header's language form carries the choices so far, `at` too).
    expect(conflict.body.slice(conflict.body.indexOf('<main'))).not.toContain('value="2026-09-04T09:00:00Z"');
  });

  it('refuses a filled honeypot with a form error and books nothing', async () => {
    const details = await walkToDetails('Saturday, September 5, 2026', '9:00 AM');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      customer_phone: '+4915100000004',
    });
    const spam = await s.post(`/book/${s.slug}/book`, {
      ...formFields(confirm.body, '/book'),
      website: 'http://spam.example',
    });
    expect(spam.statusCode).toBe(422);
    expect(spam.headers['content-type']).toMatch(/^text\/html/);
    const { data } = await (
      await s.t.call(
        'GET',
        '/bookings?reserved_on_from=2026-09-05T00:00:00Z&reserved_on_to=2026-09-05T23:59:59Z',
      )
    ).json();
    expect(data).toHaveLength(0);
  });

  it('shows the form errors of the booking-form setting, in German', async () => {
    await s.t.call('PATCH', '/workspace', { booking_form: { customer_email: 'required' } });
    const details = await walkToDetails('Sunday, September 6, 2026', '9:00 AM');
    const bad = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      lang: 'de',
      customer_phone: '12',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Bitte geben Sie eine gültige Telefonnummer');
    expect(bad.body).toContain('Dieses Feld ist erforderlich.');
    expect(bad.body).toMatch(
      /id="customer_email"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="customer_email"/,
    );
    await s.t.call('PATCH', '/workspace', { booking_form: { customer_email: 'optional' } });
  });

  it('checks the details by the API create rules: its limits, its phone and email rules', async () => {
    const details = await walkToDetails('Monday, September 7, 2026', '9:00 AM');
    const fields = formFields(details.body, '/confirm');
    // The API's limit on a first name is 200 characters: 200 pass, 201 do not.
    const long = await s.post(`/book/${s.slug}/confirm`, {
      ...fields,
      customer_phone: '0049 151 23456789',
      customer_first_name: 'A'.repeat(201),
      customer_email: 'not-an-email',
    });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('<p class="error" id="customer_first_name-error">This is too long.</p>');
    expect(long.body).toContain(
      '<p class="error" id="customer_email-error">Please enter a valid email address.</p>',
    );
    expect(long.body).not.toContain('id="customer_phone-error"');
    const fits = await s.post(`/book/${s.slug}/confirm`, {
      ...fields,
      customer_phone: '0049 151 23456789',
      customer_first_name: 'A'.repeat(200),
    });
    expect(fits.statusCode).toBe(200);
    expect(formFields(fits.body, '/book').customer_phone).toBe('+4915123456789');
  });
});

describe('steps and errors', () => {
  it('answers an unknown slug and an unknown path with an HTML 404', async () => {
    for (const url of ['/book/no-such-studio', `/book/${s.slug}/nothing/here`, '/book/%00bad']) {
      const response = await s.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Page not found');
    }
  });

  it('picks the language from ?lang=, then Accept-Language, then the workspace locale', async () => {
    const url = `/book/${s.slug}?location=${s.f.location.id}`;
    expect((await s.get(url)).body).toContain('Choose a service');
    expect((await s.get(url, { 'accept-language': 'zh;q=1, de;q=0.8' })).body).toContain('Leistung wählen');
    expect((await s.get(url, { 'accept-language': 'pl-PL,pl;q=0.9' })).body).toContain('Wybierz usługę');
    expect((await s.get(`${url}&lang=en`, { 'accept-language': 'de' })).body).toContain('Choose a service');
  });

  it('lays Arabic out right to left, with arrows pointing the way it reads', async () => {
    const page = await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&staffer=${s.f.anna.id}&lang=ar`);
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    // "Back" points to the start of the line, which is the right in Arabic.
    expect(page.body).toMatch(/class="back"[^>]*>→ رجوع</);
    expect(page.body).toContain('الأيام التالية ←');
    const german = await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&staffer=${s.f.anna.id}&lang=de`);
    expect(german.body).toContain('<html lang="de" dir="ltr">');
    expect(german.body).toContain('Spätere Tage →');
  });

  it('offers every language in one small form that works without JavaScript', async () => {
    const page = (await s.get(`/book/${s.slug}?location=${s.f.location.id}&lang=uk`)).body;
    const form = /<form class="lang" method="get" action="([^"]*)">([\s\S]*?)<\/form>/.exec(page);
    expect(form?.[1]).toBe(`/book/${s.slug}`);
    expect(form?.[2]).toContain(`name="location" value="${s.f.location.id}"`);
    expect([...form![2]!.matchAll(/<option value="(\w+)"/g)].map((m) => m[1])).toEqual([
      'en',
      'de',
      'fr',
      'es',
      'it',
      'pt',
      'nl',
      'pl',
      'uk',
      'tr',
      'ar',
    ]);
    expect(form?.[2]).toContain('<option value="uk" lang="uk" selected>Українська</option>');
  });

  it('shows a service added through the API at once, grouped under its category', async () => {
    const url = `/book/${s.slug}?lang=en`;
    expect((await s.get(url)).body).not.toContain('Beard trim');
    const made = await s.t.call('POST', '/services', {
      name: 'Beard trim',
      duration_minutes: 20,
      price: 1500,
      category: 'Barber',
      location_uuids: [s.f.location.id],
    });
    expect(made.statusCode).toBe(201);
    const page = (await s.get(url)).body;
    expect(page).toMatch(
      /<h2>Barber<\/h2><ul class="choices"><li><a[^>]*><span><strong>Beard trim<\/strong><br\/><small>20 min<\/small><\/span><span>€15.00<\/span>/,
    );
  });

  it("frames only for the workspace's allow-listed origins", async () => {
    const before = await s.get(`/book/${s.slug}`);
    expect(before.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const bad = await s.t.call('PATCH', '/workspace', { embed_origins: ['https://shop.example/path'] });
    expect(bad.statusCode).toBe(422);
    const ok = await s.t.call('PATCH', '/workspace', { embed_origins: ['https://shop.example'] });
    expect(ok.statusCode).toBe(200);
    const after = await s.get(`/book/${s.slug}`);
    expect(after.headers['content-security-policy']).toContain('frame-ancestors https://shop.example');
    await s.t.call('PATCH', '/workspace', { embed_origins: [] });
  });
});
