import type { AddressInfo } from 'node:net';
import { type RawBuilder, sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/platform/db/client.js';
import { bookingFixture } from './booking-fixture.js';
import { API, createOtherWorkspace, type TestApp } from './build-test-app.js';
import { createService } from './factories.js';

/**
 * Tools for the "no double booking" tests (the database decides): a studio in its own workspace, a way to
 * fire many requests at once, and SQL checks of the seats the database holds afterwards.
 */

export interface Answer {
  status: number;
  body: { code?: string; data?: Record<string, unknown> & { uuid: string } } & Record<string, unknown>;
}

export type Send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<Answer>;

/**
 * On PGlite requests go through `inject` (the store is one session, so they take turns there
 * anyway). On PostgreSQL the app listens on a real socket and requests go over fetch, so they
 * truly overlap on the connection pool.
 */
export async function senderFor(t: TestApp): Promise<Send> {
  if (t.database.kind === 'pglite') {
    return async (method, path, headers, body) => {
      const response = await t.app.inject({
        method: method as 'GET',
        url: `${API}${path}`,
        headers,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: response.statusCode, body: response.json() };
    };
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return httpSender(`http://127.0.0.1:${port}`);
}

/** Requests over a real socket to a server at `base` (scheme, host, port). */
export function httpSender(base: string): Send {
  return async (method, path, headers, body) => {
    const response = await fetch(`${base}${API}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
}

/** Which answers came back how often, e.g. {201: 1, 409: 49}. */
export function statusCounts(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** Every answer is `ok` or a 409 slot_unavailable (never a 5xx); returns the successes. */
export function expectOnlySlotConflicts(answers: Answer[], ok: number): Answer[] {
  const odd = answers.filter(
    (answer) => answer.status !== ok && !(answer.status === 409 && answer.body.code === 'slot_unavailable'),
  );
  expect(
    odd.map((answer) => [answer.status, answer.body]),
    'answers other than success or 409',
  ).toEqual([]);
  return answers.filter((answer) => answer.status === ok);
}

/** A distinct valid German mobile number per index. */
export const phoneNumber = (index: number) => `+49151${String(20_000_000 + index)}`;

/**
 * The booking-fixture studio in a workspace of its own (so each scenario's counts are its own),
 * plus a group class of capacity `groupCapacity` taught by Anna.
 */
export async function freshStudio(t: TestApp, groupCapacity = 5) {
  const other = await createOtherWorkspace(t.db);
  const fixture = await bookingFixture({ ...t, workspace: other.workspace });
  const ws = other.workspace.id;
  const pilates = await createService(t.db, ws, [fixture.location.id], {
    name: 'Pilates group',
    durationMinutes: 60,
    capacity: groupCapacity,
  });
  await t.db
    .insertInto('staffer_services')
    .values({
      workspace_id: ws,
      staffer_id: fixture.anna.id,
      location_id: fixture.location.id,
      service_id: pilates.id,
    })
    .execute();
  return { ...fixture, pilates, workspaceId: ws, headers: other.headers };
}

export type Studio = Awaited<ReturnType<typeof freshStudio>>;

export interface SeatReport {
  /** Pairs of seat-holding occupancies of one staffer whose spans overlap. */
  overlaps: number;
  /** Occupancies holding more seats than their capacity. */
  overCapacity: number;
  /** Occupancies whose seats differ from the live bookings that point at them. */
  seatMismatches: number;
  /** Live bookings whose staffer or start differs from the occupancy they point at. */
  strayBookings: number;
  /** Bookings that are not canceled. */
  liveBookings: number;
}

/** What the database holds for one workspace; `expectSound` asserts the invariants on it. */
export async function seatReport(db: Db, workspaceId: string): Promise<SeatReport> {
  const one = async (query: RawBuilder<{ n: number }>) => (await query.execute(db)).rows[0]?.n ?? -1;
  return {
    overlaps: await one(sql<{ n: number }>`
      SELECT count(*)::int AS n FROM occupancies a JOIN occupancies b
        ON b.workspace_id = a.workspace_id AND b.staffer_id = a.staffer_id AND a.id < b.id
       AND a.span && b.span
      WHERE a.workspace_id = ${workspaceId} AND a.seats_taken > 0 AND b.seats_taken > 0`),
    overCapacity: await one(sql<{ n: number }>`
      SELECT count(*)::int AS n FROM occupancies
      WHERE workspace_id = ${workspaceId} AND seats_taken > capacity`),
    seatMismatches: await one(sql<{ n: number }>`
      SELECT count(*)::int AS n FROM occupancies o
      WHERE o.workspace_id = ${workspaceId}
        AND o.seats_taken <> (
          SELECT coalesce(sum(b.quantity), 0) FROM bookings b
          JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
          WHERE b.workspace_id = o.workspace_id AND b.occupancy_id = o.id AND s.type <> 'canceled')`),
    strayBookings: await one(sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bookings b
      JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
      LEFT JOIN occupancies o ON o.workspace_id = b.workspace_id AND o.id = b.occupancy_id
      WHERE b.workspace_id = ${workspaceId} AND s.type <> 'canceled'
        AND (o.id IS NULL OR o.staffer_id IS DISTINCT FROM b.staffer_id OR o.service_start <> b.start_time)`),
    liveBookings: await one(sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bookings b
      JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
      WHERE b.workspace_id = ${workspaceId} AND s.type <> 'canceled'`),
  };
}

/** No overlap, no seat beyond capacity, seats = live bookings, and `liveBookings` of them. */
export async function expectSound(db: Db, workspaceId: string, liveBookings: number): Promise<void> {
  expect(await seatReport(db, workspaceId)).toEqual({
    overlaps: 0,
    overCapacity: 0,
    seatMismatches: 0,
    strayBookings: 0,
    liveBookings,
  });
}
