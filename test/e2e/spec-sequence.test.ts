import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, ownStore, ServerProcess } from '../helpers/server-process.js';
import { choosePlan, type Location, type Service, type SlotAnswer, type Staffer } from './demo-plan.js';

/**
 * The public API's whole call sequence as an integrator runs it, over a real socket,
 * against the demo workspace a first start creates: reference reads, slots, create, reschedule,
 * status, public note, staffer, services, complete; another create, then cancel. Each answer's
 * status code and fields are checked. The built server runs as a child process with the real
 * clock, on a temp DATA_DIR (embedded store), or on a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set.
 */
const API = '/api/public/v2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOCAL_OFFSET = /[+-]\d{2}:\d{2}$/;
const PHONE = '+4915112345678';
const SAMPLE_FORM_VALUES: Record<string, string | boolean> = {
  customer_first_name: 'Erika',
  customer_last_name: 'Mustermann',
  customer_email: 'erika@example.com',
  booking_comment: 'First visit.',
  booking_callback: true,
};

let server: ServerProcess | undefined;
let removeStore: (() => Promise<void>) | undefined;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  await ensureServerBuilt();
  const own = await ownStore('e2e');
  removeStore = own.remove;
  server = new ServerProcess(own.store);
  const started = await server.started;
  if (!started.demo) throw new Error(`the first start printed no demo workspace:\n${server.log}`);
  base = started.base;
  headers = { authorization: `Bearer ${started.demo.apiKey}`, workspace: started.demo.slug };
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await removeStore?.();
});

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below.
async function call(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${API}${urlPath}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Calls and checks the status code; the failure message carries the answer. */
async function expectCall(status: number, method: string, urlPath: string, body?: unknown) {
  const answer = await call(method, urlPath, body);
  expect(answer.status, `${method} ${urlPath}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

describe('SPEC call sequence against the demo workspace, over a real socket', () => {
  it('reference reads, slots, create, change, complete; create, cancel', async () => {
    // --- Reference data
    const ping = await expectCall(200, 'GET', '/ping');
    expect(ping).toEqual({ ping: 'pong', version: expect.stringMatching(/^v\d+\.\d+\.\d+$/) });

    const workspace = (await expectCall(200, 'GET', '/workspace')).data;
    expect(workspace).toMatchObject({
      slug: headers.workspace,
      currency: expect.stringMatching(/^[A-Z]{3}$/),
    });
    const form = workspace.booking_form as Record<string, string>;
    expect(Object.keys(form).sort()).toEqual(Object.keys(SAMPLE_FORM_VALUES).sort());

    const locationList = await expectCall(200, 'GET', '/locations');
    expect(locationList.meta).toMatchObject({ current_page: 1, total: locationList.data.length });
    const locations = locationList.data as Location[];
    expect(locations.length).toBeGreaterThanOrEqual(2);
    for (const location of locations) {
      expect(location).toMatchObject({
        uuid: expect.stringMatching(UUID),
        name: expect.any(String),
        address: expect.objectContaining({ formatted: expect.any(String) }),
        timezone: expect.objectContaining({ name: expect.any(String) }),
      });
    }

    const servicesAt = new Map<string, Service[]>();
    const staffersAt = new Map<string, Staffer[]>();
    const accountsAt = new Map<string, { uuid: string; name: string; type: string }[]>();
    for (const location of locations) {
      const services = await expectCall(200, 'GET', `/locations/${location.uuid}/services?per_page=100`);
      expect(services.data.length).toBeGreaterThan(0);
      for (const service of services.data) {
        expect(service).toMatchObject({
          uuid: expect.stringMatching(UUID),
          price: expect.any(Number),
          currency: workspace.currency,
          duration: { value: expect.any(Number), label: 'minutes' },
          capacity: expect.any(Number),
        });
      }
      servicesAt.set(location.uuid, services.data);
      const staffers = await expectCall(200, 'GET', `/locations/${location.uuid}/staffers?per_page=100`);
      expect(staffers.data.length).toBeGreaterThan(0);
      for (const staffer of staffers.data) {
        expect(staffer).toMatchObject({ uuid: expect.stringMatching(UUID), first_name: expect.any(String) });
      }
      staffersAt.set(location.uuid, staffers.data);
      const accounts = await expectCall(200, 'GET', `/locations/${location.uuid}/accounts`);
      expect(accounts.data.length).toBeGreaterThan(0);
      for (const account of accounts.data)
        expect(account).toMatchObject({ uuid: expect.stringMatching(UUID), name: expect.any(String) });
      accountsAt.set(location.uuid, accounts.data);
    }

    const statuses = (await expectCall(200, 'GET', '/bookings/statuses')).data as {
      uuid: string;
      type: string;
      is_default: boolean;
      is_final: boolean;
    }[];
    const statusOf = (type: string) => statuses.find((status) => status.type === type)!;
    for (const type of ['new', 'confirmed', 'completed', 'canceled'])
      expect(statusOf(type), type).toBeDefined();
    expect(statuses.filter((status) => status.is_default)).toEqual([statusOf('new')]);

    // --- Slots: a week from tomorrow (tomorrow, so min notice never bites between listing and booking)
    const weekOf = (location: Location) => {
      const tomorrow = DateTime.now().setZone(location.timezone.name).plus({ days: 1 });
      return { start: tomorrow.toISODate()!, end: tomorrow.plus({ days: 6 }).toISODate()! };
    };
    const slotsOf = async (location: Location, service: Service, staffer?: Staffer, day?: string) => {
      const week = weekOf(location);
      const query = new URLSearchParams({
        service_uuid: service.uuid,
        range_start: day ?? week.start,
        range_end: day ?? week.end,
        ...(staffer ? { staffer_uuid: staffer.uuid } : {}),
      });
      return (await expectCall(200, 'GET', `/locations/${location.uuid}/time-slots?${query}`)) as SlotAnswer;
    };
    const plan = await choosePlan(locations, servicesAt, staffersAt, (l, s, st) => slotsOf(l, s, st));
    expect(
      plan,
      'the demo has an individual service two staffers provide, free at common times',
    ).toBeDefined();
    const { location, service, week, first, second, staffer, other, otherService } = plan!;
    const zone = location.timezone.name;

    expect(week).toMatchObject({ timezone: zone, currency: workspace.currency });
    expect(week.today).toBe(DateTime.now().setZone(zone).toISODate());
    expect(week.dates.map((day) => day.date)).toEqual(
      Array.from({ length: 7 }, (_, i) =>
        DateTime.fromISO(weekOf(location).start).plus({ days: i }).toISODate(),
      ),
    );
    for (const day of week.dates) {
      for (const slot of day.slots) {
        const local = DateTime.fromISO(`${day.date}T${slot.start}`, { zone });
        expect(slot.start_time).toBe(local.toUTC().toISO({ suppressMilliseconds: true }));
        expect(slot.start_formatted).toBe(local.hour * 3600 + local.minute * 60);
        expect(slot.quantity).toBeGreaterThanOrEqual(1);
        expect(slot).toMatchObject({ price: service.price, price_formatted: expect.any(String) });
      }
    }

    // --- Create: first the form's required fields are required, then with them 201
    const required = Object.keys(form).filter((field) => form[field] === 'required');
    const createBody = {
      reserved_on: first.slot.start_time,
      location_uuid: location.uuid,
      service_uuid: service.uuid,
      staffer_uuid: staffer.uuid,
      customer_phone: PHONE,
    };
    if (required.length > 0) {
      const missing = await expectCall(422, 'POST', '/bookings', createBody);
      expect(missing).toMatchObject({ code: 'validation_failed' });
      expect(Object.keys(missing.errors).sort()).toEqual([...required].sort());
    }
    const formValues = Object.fromEntries(
      Object.keys(form)
        .filter((field) => form[field] !== 'hidden')
        .map((field) => [field, SAMPLE_FORM_VALUES[field]]),
    );
    const created = (
      await expectCall(201, 'POST', '/bookings', { ...createBody, ...formValues, source: 'e2e' })
    ).data;
    const durationMs = (s: Service) => s.duration.value * 60_000;
    const utcPlus = (iso: string, ms: number) =>
      new Date(Date.parse(iso) + ms).toISOString().replace('.000Z', 'Z');
    expect(created).toMatchObject({
      uuid: expect.stringMatching(UUID),
      location_uuid: location.uuid,
      start_time: first.slot.start_time,
      end_time: utcPlus(first.slot.start_time, durationMs(service)),
      timezone: zone,
      status: { uuid: statusOf('new').uuid, type: 'new' },
      is_canceled: false,
      is_completed: false,
      staffer: { uuid: staffer.uuid },
      customer: { uuid: expect.stringMatching(UUID), phone: PHONE },
      ordered_services: [{ service_uuid: service.uuid, price: service.price }],
      order: {
        uuid: expect.stringMatching(UUID),
        currency: workspace.currency,
        total: service.price,
        amount_paid: 0,
      },
      source: 'e2e',
    });
    expect(created.start_time_local).toMatch(
      new RegExp(`^${first.date}T${first.slot.start}:00[+-]\\d{2}:\\d{2}$`),
    );
    if (form.customer_first_name !== 'hidden') expect(created.customer.first_name).toBe('Erika');
    const id = created.uuid as string;
    expect((await expectCall(200, 'GET', `/bookings/${id}`)).data).toEqual(created);

    // --- Reschedule to another listed slot: same uuid, new time
    const moved = (
      await expectCall(200, 'PUT', `/bookings/${id}/reschedule`, { reserved_on: second.slot.start_time })
    ).data;
    expect(moved).toMatchObject({
      uuid: id,
      start_time: second.slot.start_time,
      staffer: { uuid: staffer.uuid },
    });
    expect(moved.start_time_local).toMatch(new RegExp(`^${second.date}T${second.slot.start}:00`));
    expect(moved.start_time_local).toMatch(LOCAL_OFFSET);

    // --- Status by uuid
    const confirmed = (
      await expectCall(200, 'PUT', `/bookings/${id}/status`, { status_uuid: statusOf('confirmed').uuid })
    ).data;
    expect(confirmed).toMatchObject({
      uuid: id,
      status: { uuid: statusOf('confirmed').uuid, type: 'confirmed' },
    });

    // --- Public note
    const note = (
      await expectCall(201, 'POST', `/bookings/${id}/public_notes`, { value: 'Bring the reference photo.' })
    ).data;
    expect(note).toMatchObject({ uuid: expect.stringMatching(UUID), value: 'Bring the reference photo.' });
    expect((await expectCall(200, 'GET', `/bookings/${id}/public_notes`)).data).toEqual([note]);
    const withNote = (await expectCall(200, 'GET', `/bookings/${id}`)).data;
    expect(withNote.public_notes.split('\n')).toContain('Bring the reference photo.');

    // --- Staffer: the other provider, free at the new time
    const restaffed = (await expectCall(200, 'PUT', `/bookings/${id}/staffer`, { staffer_uuid: other.uuid }))
      .data;
    expect(restaffed).toMatchObject({
      uuid: id,
      start_time: second.slot.start_time,
      staffer: { uuid: other.uuid },
    });

    // --- Services: a service that staffer provides, free for them then
    const reserviced = (
      await expectCall(200, 'PUT', `/bookings/${id}/services`, { service_uuids: [otherService.uuid] })
    ).data;
    expect(reserviced).toMatchObject({
      uuid: id,
      start_time: second.slot.start_time,
      end_time: utcPlus(second.slot.start_time, durationMs(otherService)),
      duration: { value: otherService.duration.value },
      ordered_services: [{ service_uuid: otherService.uuid, price: otherService.price }],
      order: { total: otherService.price },
    });
    expect(reserviced.ordered_services).toHaveLength(1);

    // --- Complete with a payment on an account of the location
    const account = accountsAt.get(location.uuid)![0]!;
    const paid = reserviced.order.total as number;
    const completed = (
      await expectCall(200, 'PUT', `/bookings/${id}/status/complete`, {
        account_uuid: account.uuid,
        paid_amount: paid,
      })
    ).data;
    expect(completed).toMatchObject({
      uuid: id,
      is_completed: true,
      is_canceled: false,
      status: { type: 'completed' },
      order: { amount_paid: paid, payments: [{ account_uuid: account.uuid, amount: paid }] },
    });
    const final = await expectCall(409, 'PUT', `/bookings/${id}/status`, {
      status_uuid: statusOf('new').uuid,
    });
    expect(final).toMatchObject({ code: 'booking_final' });

    // --- Another booking, at the first slot (free again since the reschedule), then cancel it
    const again = (
      await expectCall(201, 'POST', '/bookings', {
        ...createBody,
        ...formValues,
        customer_phone: '+4915112345679',
      })
    ).data;
    expect(again).toMatchObject({
      start_time: first.slot.start_time,
      staffer: { uuid: staffer.uuid },
      source: 'api',
    });
    expect(again.uuid).not.toBe(id);
    const canceled = (
      await expectCall(200, 'PUT', `/bookings/${again.uuid}/status/cancel`, { cancel_reason: 'postponed' })
    ).data;
    expect(canceled).toMatchObject({
      uuid: again.uuid,
      is_canceled: true,
      is_completed: false,
      cancel_reason: 'postponed',
      status: { type: 'canceled' },
    });
    // The time is free again at once.
    const afterCancel = await slotsOf(location, service, staffer, first.date);
    expect(afterCancel.dates[0]!.slots.map((slot) => slot.start_time)).toContain(first.slot.start_time);
  });
});
