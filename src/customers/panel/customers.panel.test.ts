import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  eur,
  type Json,
  openStudio,
  type Studio,
} from '../../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../../test/helpers/build-test-app.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

let s: Studio;
let desk: PanelClient;
let maria: Json;
let mariaSecond: Json;
let jonas: Json;

beforeAll(async () => {
  s = await openStudio();
  // Every role runs the front desk: a staff user sees customers.
  desk = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
  const day = s.nextDay();
  maria = await book(
    s.t,
    bookingBody(s.f, at(day, '10:00'), {
      customer_phone: '+49 151 2345 6789',
      customer_first_name: 'Maria',
      customer_last_name: 'Schulz',
      customer_email: 'maria@example.com',
    }),
  );
  mariaSecond = await book(
    s.t,
    bookingBody(s.f, at(s.nextDay(), '12:00'), {
      customer_phone: '+4915123456789',
      service_uuid: s.f.color.id,
    }),
  );
  jonas = await book(
    s.t,
    bookingBody(s.f, at(day, '14:00'), {
      customer_phone: '+43 660 1112223',
      customer_first_name: 'Jonas',
      customer_last_name: 'Weber',
    }),
  );
});
afterAll(() => s.t.close());

const rowsOf = (html: string) =>
  [...html.matchAll(/<a href="\/panel\/customers\/([0-9a-f-]{36})">/g)].map((m) => m[1]);

describe('Customers', () => {
  it('lists customers and finds them by name, or by a phone typed any way', async () => {
    const all = await desk.get('/panel/customers');
    expect(all.statusCode).toBe(200);
    const mariaId = maria.customer.uuid;
    const jonasId = jonas.customer.uuid;
    expect(rowsOf(all.body)).toEqual(expect.arrayContaining([mariaId, jonasId]));

    expect(rowsOf((await desk.get('/panel/customers?q=schul')).body)).toEqual([mariaId]);
    expect(rowsOf((await desk.get('/panel/customers?q=Maria%20Schulz')).body)).toEqual([mariaId]);
    expect(rowsOf((await desk.get('/panel/customers?q=weber%20jonas')).body)).toEqual([jonasId]);
    // National notation with a trunk zero, spaces and dashes; international with 00; a fragment.
    for (const typed of ['0151 2345-6789', '0049 (151) 23456789', '+49-151-234', '2345 6789']) {
      const found = await desk.get(`/panel/customers?q=${encodeURIComponent(typed)}`);
      expect(found.statusCode).toBe(200);
      expect(rowsOf(found.body), typed).toEqual([mariaId]);
    }
    const none = await desk.get('/panel/customers?q=%25');
    expect(rowsOf(none.body)).toEqual([]);
    expect(none.body).toContain('No customer matches.');
    // What was typed comes back escaped, never as markup.
    const odd = await desk.get(`/panel/customers?q=${encodeURIComponent('<script>x</script>')}`);
    expect(odd.statusCode).toBe(200);
    expect(odd.body).not.toContain('<script>x</script>');
    expect(odd.body).toContain('value="&lt;script>x&lt;/script>"');
    expect((await desk.get('/panel/customers?page=abc&q=')).statusCode).toBe(200);
  });

  it('shows a customer with their bookings newest first, in location time, and what they paid', async () => {
    const page = await desk.get(`/panel/customers/${maria.customer.uuid}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Maria Schulz</h1>');
    const links = [...page.body.matchAll(/<a href="\/panel\/bookings\/([0-9a-f-]{36})">([^<]+)<\/a>/g)];
    expect(links.map((m) => m[1])).toEqual([mariaSecond.uuid, maria.uuid]);
    // Berlin wall time (UTC+2 in September), as the API's start_time_local says.
    const local = maria.start_time_local as string;
    expect(links[1]?.[2]).toContain(`${local.slice(0, 10)} ${local.slice(11, 16)}–`);
    expect(page.body).toMatch(/id="paid-total">€0.00</);

    await change(s.t, 'PUT', `/bookings/${maria.uuid}/status/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: 8550,
    });
    await change(s.t, 'PUT', `/bookings/${mariaSecond.uuid}/status/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: 4000,
    });
    const paid = await desk.get(`/panel/customers/${maria.customer.uuid}`);
    expect(paid.body).toContain(`id="paid-total">${eur(12550)}<`);
    expect(paid.body).toContain(eur(8550));
    // Jonas paid nothing: totals are per customer.
    const other = await desk.get(`/panel/customers/${jonas.customer.uuid}`);
    expect(other.body).toContain(`id="paid-total">${eur(0)}<`);
  });

  it('answers 404 for another workspace’s customer or a bad uuid, and redirects without a session', async () => {
    const other = await createOtherWorkspace(s.t.db);
    const theirs = await s.t.app.inject({
      method: 'POST',
      url: '/api/public/v2/customers',
      headers: other.headers,
      payload: { phone: '+4915199990000', first_name: 'Eve' },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect((await desk.get(`/panel/customers/${theirs.json().data.uuid}`)).statusCode).toBe(404);
    expect((await desk.get('/panel/customers/nope')).statusCode).toBe(404);
    expect(rowsOf((await desk.get('/panel/customers?q=Eve')).body)).toEqual([]);
    const anonymous = await s.t.app.inject({ method: 'GET', url: '/panel/customers' });
    expect(anonymous.statusCode).toBe(303);
  });

  it('owners download a customer’s data and erase it after a confirm step; staff may do neither', async () => {
    const guest = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '09:00'), {
        customer_phone: '+4915177700077',
        customer_first_name: 'Greta',
        customer_last_name: 'Gast',
      }),
    );
    const page = `/panel/customers/${guest.customer.uuid}`;
    // Staff: no links, and the routes themselves refuse.
    expect((await desk.get(page)).body).not.toContain('/export.json');
    expect((await desk.get(`${page}/export.json`)).statusCode).toBe(403);
    expect((await desk.get(`${page}/erase`)).statusCode).toBe(403);
    await desk.get(page);
    expect((await desk.post(`${page}/erase`)).statusCode).toBe(403);

    const owner = await PanelClient.signedIn(
      s.t.app,
      s.t.db,
      await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'owner' }]),
    );
    const shown = await owner.get(page);
    expect(shown.body).toContain(`href="${page}/export.json"`);
    expect(shown.body).toContain(`href="${page}/erase"`);
    const exported = await owner.get(`${page}/export.json`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    expect(JSON.parse(exported.body).customer).toMatchObject({
      first_name: 'Greta',
      phone: '+4915177700077',
    });

    // The confirm step says what stays; without the CSRF token nothing happens.
    const confirm = await owner.get(`${page}/erase`);
    expect(confirm.body).toContain('cannot be undone');
    expect((await owner.post(`${page}/erase`, {}, { csrf: null })).statusCode).toBe(403);
    expect((await change(s.t, 'GET', `/customers/${guest.customer.uuid}`)).first_name).toBe('Greta');

    const erased = await owner.post(`${page}/erase`);
    expect(erased.statusCode).toBe(303);
    expect(erased.headers.location).toBe(`${page}?notice=erased`);
    const after = await owner.get(`${page}?notice=erased`);
    expect(after.body).toContain('Their personal data is erased.');
    expect(after.body).toContain('Erased customer');
    expect(after.body).not.toContain('Greta');
    expect(after.body).not.toContain(`href="${page}/erase"`);
    expect(await change(s.t, 'GET', `/customers/${guest.customer.uuid}`)).toMatchObject({
      phone: '',
      first_name: '',
      last_name: '',
    });
  });
});
