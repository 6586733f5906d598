import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

/**
 * Shared setup of the bookings functional tests (src/bookings/*.test.ts, src/customers/*.test.ts):
 * one studio per test file, the clock fixed before the booked days, and helpers that compute the
 * expected wall times by hand (Berlin is UTC+2 in September and October before the 25th), so the
 * tests never take a time from the code under test.
 */
export const NOW = '2026-09-01T08:00:00Z';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const PHONE = '+4915112345678';

export interface Studio {
  clock: FixedClock;
  t: TestApp;
  f: BookingFixture;
  /** A day of its own for each test ('2026-09-02', '2026-09-03', ...), so tests never collide. */
  nextDay(): string;
}

export async function openStudio(
  options: Pick<Parameters<typeof buildTestApp>[0] & object, 'config'> = {},
): Promise<Studio> {
  const clock = new FixedClock(NOW);
  const t = await buildTestApp({ clock, ...options });
  const f = await bookingFixture(t);
  // These tests were written for a workspace that requires a staffer; new workspaces assign
  // automatically, so the studio says which it is.
  await setWorkspace(t, { staffer_selection: 'required' });
  let day = 1;
  return {
    clock,
    t,
    f,
    nextDay() {
      day += 1;
      // Stay before 2026-10-25 (end of summer time) so +02:00 holds for every day handed out.
      if (day > 50) throw new Error('bookings-kit: out of summer days');
      return new Date(Date.UTC(2026, 8, day)).toISOString().slice(0, 10);
    },
  };
}

/** The UTC instant of a Berlin summer wall time: at('2026-09-10', '14:00') = '2026-09-10T12:00:00Z'. */
export function at(day: string, hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h - 2, m)).toISOString().replace('.000Z', 'Z');
}

/** The Berlin summer wall time of a UTC instant, with offset: '2026-09-10T14:00:00+02:00'. */
export function berlinLocal(utcIso: string): string {
  return `${new Date(Date.parse(utcIso) + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
}

export function plusMinutes(utcIso: string, minutes: number): string {
  return new Date(Date.parse(utcIso) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

/** Display money the way the API formats it, computed here independently (en-US, EUR). */
export function eur(minor: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(minor / 100);
}

export function duration(minutes: number) {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const iso = `PT${h ? `${h}H` : ''}${m || !h ? `${m}M` : ''}`;
  return { value: minutes, label: 'minutes', iso_8601: iso };
}

/** A valid creation body: Anna, Haircut, `start`, the default phone; override any field. */
export function bookingBody(f: BookingFixture, start: string, overrides: Record<string, unknown> = {}) {
  return {
    reserved_on: start,
    location_uuid: f.location.id,
    service_uuid: f.haircut.id,
    staffer_uuid: f.anna.id,
    customer_phone: PHONE,
    ...overrides,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the answer is checked field by field by the tests.
export type Json = any;

export async function book(t: TestApp, body: Record<string, unknown>): Promise<Json> {
  const response = await t.call('POST', '/bookings', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

/** Asserts a change answered 200 and returns the booking it answered. */
export async function change(t: TestApp, method: string, path: string, body?: unknown): Promise<Json> {
  const response = await t.call(method, path, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

export async function setWorkspace(t: TestApp, settings: Record<string, unknown>): Promise<void> {
  const response = await t.call('PATCH', '/workspace', settings);
  expect(response.statusCode, response.body).toBe(200);
}

export interface StatusJson {
  uuid: string;
  name: string;
  type: string;
  is_default: boolean;
}

export async function statuses(t: TestApp): Promise<StatusJson[]> {
  const response = await t.call('GET', '/bookings/statuses');
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

export async function statusOfType(t: TestApp, type: string): Promise<StatusJson> {
  const status = (await statuses(t)).find((s) => s.type === type);
  if (!status) throw new Error(`no ${type} status`);
  return status;
}

/** Asserts an error answer: status, code, and (when given) exactly these field keys in `errors`. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
  fields?: string[],
): Json {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  if (fields) expect(Object.keys(body.errors ?? {}).sort()).toEqual([...fields].sort());
  return body;
}

export function expect422(response: LightMyRequestResponse, fields: string[]): Json {
  const body = expectError(response, 422, 'validation_failed', fields);
  expect(body.message).toBe('The given data was invalid.');
  for (const field of fields) {
    expect(body.errors[field].length).toBeGreaterThan(0);
    for (const message of body.errors[field]) expect(typeof message).toBe('string');
  }
  return body;
}

/** Calls the API as another workspace (its own headers) on the same app. */
export function callAs(
  t: TestApp,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: method as 'GET',
    url: `${API}${path}`,
    headers: { ...headers, ...extra },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

/** Free places of the slot at `hhmm` on `day` as GET time-slots lists it, or 0 when not listed. */
export async function slotQuantity(
  t: TestApp,
  f: BookingFixture,
  serviceId: string,
  day: string,
  hhmm: string,
): Promise<number> {
  const response = await t.call(
    'GET',
    `/locations/${f.location.id}/time-slots?service_uuid=${serviceId}&range_start=${day}&range_end=${day}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  const date = (response.json().dates as Json[]).find((d) => d.date === day);
  const slot = (date?.slots as Json[] | undefined)?.find((s) => s.start === hhmm);
  return slot?.quantity ?? 0;
}

/** Rows a booking has in the outbox and its history, straight from the store. */
export async function outboxOf(t: TestApp, bookingId: string) {
  return t.db
    .selectFrom('outbox_events')
    .selectAll()
    .where('workspace_id', '=', t.workspace.id)
    .where('booking_id', '=', bookingId)
    .orderBy('sequence')
    .execute();
}

export async function historyCount(t: TestApp, bookingId: string): Promise<number> {
  const rows = await t.db
    .selectFrom('booking_history')
    .select('id')
    .where('workspace_id', '=', t.workspace.id)
    .where('booking_id', '=', bookingId)
    .execute();
  return rows.length;
}
