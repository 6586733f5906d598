import { describe, expect, it } from 'vitest';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { drainWebhooks } from '../helpers/webhook-events.js';
import { useWebhookKit } from '../helpers/webhook-kit.js';

// Per-subscription body format ("legacy" = the real service's flat body) and static
// headers, over real HTTP to a local receiver, with the real worker.
const kit = useWebhookKit();

/** A Berlin summer wall time `days` days after the kit's clock, as UTC (Berlin is +02:00 or +01:00). */
function slotStart(days: number, hour: number): string {
  const date = new Date(kit.clock.now() + days * 86_400_000).toISOString().slice(0, 10);
  const utc = new Date(`${date}T${String(hour).padStart(2, '0')}:00:00Z`).getTime();
  const offsetHours = Number(
    new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' })
      .formatToParts(utc)
      .find((p) => p.type === 'timeZoneName')!
      .value.replace('GMT', '') || 0,
  );
  return new Date(utc - offsetHours * 3_600_000).toISOString().replace('.000Z', 'Z');
}

describe('legacy webhook bodies and static headers', () => {
  it('sends the flat body with integer ids to the URL as given, with the static header', async () => {
    const f = await bookingFixture(kit.t);
    const legacyReceiver = await kit.receiver();
    const standardReceiver = await kit.receiver();
    const created = await kit.t.call('POST', '/webhooks', {
      url: `${legacyReceiver.url}?event=booking-created&token=a%20b`,
      events: ['booking-created'],
      format: 'legacy',
      headers: { 'Webhook-Token': 'tok-123' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const webhook = created.json().data;
    // Shown once: the answer to the request that set them holds the values, later reads the names.
    expect(webhook).toMatchObject({ format: 'legacy', headers: { 'Webhook-Token': 'tok-123' } });
    const read = (await kit.t.call('GET', `/webhooks/${webhook.uuid}`)).json().data;
    expect(read.header_names).toEqual(['Webhook-Token']);
    expect(read).not.toHaveProperty('headers');
    expect(JSON.stringify(read)).not.toContain('tok-123');
    await kit.createWebhook(standardReceiver.url, ['booking-created']);
    expect((await kit.t.call('PATCH', '/workspace', { locale: 'de-DE' })).statusCode).toBe(200);
    // The haircut needs a chair (docs/resources.md): both bodies name the one the booking holds.
    const chair = (
      await kit.t.call('POST', '/resources', { location_uuid: f.location.id, type: 'chair', name: 'Chair 1' })
    ).json().data.uuid;
    const needs = await kit.t.call('PATCH', `/services/${f.haircut.id}`, { resources: [{ type: 'chair' }] });
    expect(needs.statusCode, needs.body).toBe(200);

    const start = slotStart(3, 10);
    const body = {
      reserved_on: start,
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915170000011',
      customer_first_name: 'Erika',
      customer_last_name: 'Muster',
      customer_email: 'erika@example.com',
      booking_comment: 'Window seat',
    };
    const first = await kit.t.call('POST', '/bookings', body);
    expect(first.statusCode, first.body).toBe(201);
    const second = await kit.t.call('POST', '/bookings', { ...body, reserved_on: slotStart(4, 10) });
    expect(second.statusCode, second.body).toBe(201);
    await drainWebhooks(kit.worker());

    expect(standardReceiver.requests.map((r) => r.json().type)).toEqual([
      'booking-created',
      'booking-created',
    ]);
    expect(legacyReceiver.requests).toHaveLength(2);
    // Sent in parallel: put them in booking order.
    const [one, two] = [...legacyReceiver.requests].sort((a, b) =>
      String(a.json().booking_date_start).localeCompare(String(b.json().booking_date_start)),
    );
    expect(one!.path).toBe(`${new URL(legacyReceiver.url).pathname}?event=booking-created&token=a%20b`);
    expect(one!.headers['webhook-token']).toBe('tok-123');
    // Still signed: the signature headers are Kairos's own.
    expect(one!.headers['webhook-signature']).toMatch(/^v1,/);
    const legacy = one!.json();
    expect(legacy).not.toHaveProperty('type');
    expect(legacy).not.toHaveProperty('data');
    const uuid = first.json().data.uuid;
    expect(legacy).toMatchObject({
      uid: uuid,
      booking_date_start: `${start.slice(0, 10)} ${start.slice(11, 19)}+0000`,
      booking_duration: 60,
      booking_status: 'Neu',
      booking_price: 90,
      booking_price_int: 9000,
      booking_source: 'api',
      // 10:00 to 11:00 in Berlin, read in the workspace locale (de-DE).
      booking_date_end_formatted: `${start.slice(8, 10)}.${start.slice(5, 7)}.${start.slice(0, 4)}, 11:00`,
      booking_duration_formatted: '1 Std.',
      booking_price_formatted: new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(
        90,
      ),
      'booking_attributes.booking_comment': 'Window seat',
      customer_full_name: 'Erika Muster',
      customer_name: 'Erika Muster',
      customer_first_name: 'Erika',
      customer_last_name: 'Muster',
      customer_phone: '+4915170000011',
      customer_email: 'erika@example.com',
      customer_comment: 'Window seat',
      service_name: 'Haircut',
      services_count: 1,
      user_name: 'Anna Stylist',
      visits_total: 1,
      resource_uids: [chair],
      resources_description: 'Chair 1',
    });
    const standard = standardReceiver.requests.map(
      (r) => (r.json() as { data: { booking: { resources: unknown } } }).data.booking.resources,
    );
    expect(standard).toEqual([
      [{ uuid: chair, type: 'chair', name: 'Chair 1' }],
      [{ uuid: chair, type: 'chair', name: 'Chair 1' }],
    ]);
    // The customer's manage link, the same the API answered in the booking's links[] (the page
    // itself opening is tested in test/compat/booking-links.test.ts).
    const manage = first.json().data.links.find((link: { type: string }) => link.type === 'manage').link;
    expect(legacy.booking_page).toBe(manage);
    expect(legacy.booking_hash_id).toMatch(/^[A-Za-z0-9_-]{44}$/);
    expect(manage.endsWith(`/book/${kit.t.workspace.slug}/manage/${legacy.booking_hash_id}`)).toBe(true);
    expect(legacy.booking_date_end).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    for (const field of ['id', 'customer_id', 'location_id', 'service_id']) {
      expect(Number.isInteger(legacy[field]), field).toBe(true);
      expect(legacy[field] as number, field).toBeGreaterThan(0);
    }
    const next = two!.json();
    expect(next.id).not.toBe(legacy.id);
    expect([next.customer_id, next.location_id, next.service_id, next.visits_total]).toEqual([
      legacy.customer_id,
      legacy.location_id,
      legacy.service_id,
      2,
    ]);
  });

  it('refuses reserved and malformed header names, and values with line breaks', async () => {
    const receiver = await kit.receiver();
    for (const [name, value] of [
      ['Host', 'evil.example'],
      ['Content-Length', '1'],
      ['webhook-signature', 'v1,forged'],
      ['Webhook-Id', 'msg_x'],
      ['bad name', 'x'],
      ['X-Token', 'a\r\nInjected: yes'],
    ]) {
      const response = await kit.t.call('POST', '/webhooks', {
        url: receiver.url,
        headers: { [name!]: value },
      });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual([`headers.${name}`]);
    }
    const ok = await kit.t.call('POST', '/webhooks', { url: receiver.url, headers: { 'X-Token': 's3cret' } });
    expect(ok.statusCode).toBe(201);
    const cleared = await kit.t.call('PUT', `/webhooks/${ok.json().data.uuid}`, {
      headers: {},
      format: 'legacy',
    });
    expect(cleared.json().data).toMatchObject({ header_names: [], headers: {}, format: 'legacy' });
    expect((await kit.t.call('POST', '/webhooks', { url: receiver.url, format: 'flat' })).statusCode).toBe(
      422,
    );
  });
});
