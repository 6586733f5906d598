import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  bookingBody,
  callAs,
  expectError,
  historyCount,
  openStudio,
  outboxOf,
  type Studio,
} from '../../test/bookings/bookings-kit.js';
import { bookingFixture } from '../../test/helpers/booking-fixture.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';

let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

const withKey = (method: string, path: string, body: unknown, key: string) =>
  s.t.call(method, path, body, { 'idempotency-key': key });

async function bookingCount(workspaceId = s.t.workspace.id): Promise<number> {
  const rows = await s.t.db
    .selectFrom('bookings')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .execute();
  return rows.length;
}

function expectReplayOf(replay: LightMyRequestResponse, first: LightMyRequestResponse) {
  expect(replay.statusCode).toBe(first.statusCode);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.headers['content-type']).toMatch(/^application\/json/);
  expect(replay.json()).toEqual(first.json());
  expect(replay.body).toBe(first.body);
}

describe('Idempotency-Key on POST /bookings', () => {
  it('answers a repeat with the stored answer and creates nothing more', async () => {
    const body = bookingBody(s.f, at(s.nextDay(), '10:00'), { customer_phone: '+4915100000101' });
    const first = await withKey('POST', '/bookings', body, 'create-once');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const count = await bookingCount();
    const uuid = first.json().data.uuid;
    const events = (await outboxOf(s.t, uuid)).length;
    for (let i = 0; i < 2; i += 1) {
      expectReplayOf(await withKey('POST', '/bookings', body, 'create-once'), first);
    }
    expect(await bookingCount()).toBe(count);
    expect((await outboxOf(s.t, uuid)).length).toBe(events);
    expect(await historyCount(s.t, uuid)).toBe(1);
    // Without the key the same body is a new request: the slot is taken now.
    expectError(await s.t.call('POST', '/bookings', body), 409, 'slot_unavailable');
  });

  it('refuses the same key with another body or path with 422, and runs nothing', async () => {
    const day = s.nextDay();
    const first = await withKey('POST', '/bookings', bookingBody(s.f, at(day, '10:00')), 'create-two');
    expect(first.statusCode).toBe(201);
    const count = await bookingCount();
    const other = await withKey('POST', '/bookings', bookingBody(s.f, at(day, '12:00')), 'create-two');
    const body = expectError(other, 422, 'idempotency_key_reused');
    expect(Object.keys(body.errors)).toEqual(['Idempotency-Key']);
    const elsewhere = await withKey(
      'POST',
      `/bookings/${first.json().data.uuid}/public_notes`,
      { value: 'x' },
      'create-two',
    );
    expectError(elsewhere, 422, 'idempotency_key_reused');
    expect(await bookingCount()).toBe(count);
    expect((await s.t.call('GET', `/bookings/${first.json().data.uuid}/public_notes`)).json().data).toEqual(
      [],
    );
  });

  // A refusal rolls its transaction back, and the key is written in that transaction: a request
  // that committed nothing leaves no key, so its retry runs afresh.
  it('keeps no key for a refused request: the retry runs again, and succeeds once the slot is free', async () => {
    const day = s.nextDay();
    const taker = await withKey('POST', '/bookings', bookingBody(s.f, at(day, '10:00')), 'taker');
    const body = bookingBody(s.f, at(day, '10:00'), { customer_phone: '+4915100000102' });
    const refused = await withKey('POST', '/bookings', body, 'refused-once');
    expectError(refused, 409, 'slot_unavailable');
    const again = await withKey('POST', '/bookings', body, 'refused-once');
    expectError(again, 409, 'slot_unavailable');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    const cancel = await s.t.call('PUT', `/bookings/${taker.json().data.uuid}/status/cancel`, {});
    expect(cancel.statusCode).toBe(200);
    const booked = await withKey('POST', '/bookings', body, 'refused-once');
    expect(booked.statusCode, booked.body).toBe(201);
    expectReplayOf(await withKey('POST', '/bookings', body, 'refused-once'), booked);
    const long = await withKey('POST', '/bookings', body, 'k'.repeat(256));
    expectError(long, 422, 'validation_failed', ['Idempotency-Key']);
  });

  it('answers concurrent repeats of one key with one write and the same answer', async () => {
    const body = bookingBody(s.f, at(s.nextDay(), '11:00'), { customer_phone: '+4915100000103' });
    const before = await bookingCount();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => withKey('POST', '/bookings', body, 'together')),
    );
    const first = answers.find((answer) => answer.headers['idempotent-replayed'] === undefined)!;
    expect(first.statusCode, first.body).toBe(201);
    for (const answer of answers) {
      if (answer !== first) expectReplayOf(answer, first);
    }
    expect(await bookingCount()).toBe(before + 1);
  });

  it('keeps keys per workspace', async () => {
    const { t } = s;
    const other = await createOtherWorkspace(t.db);
    const theirStudio = await bookingFixture({ ...t, workspace: other.workspace });
    const day = s.nextDay();
    const theirs = await callAs(
      t,
      other.headers,
      'POST',
      '/bookings',
      bookingBody(theirStudio, at(day, '10:00')),
      {
        'idempotency-key': 'shared-key',
      },
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const ours = await withKey('POST', '/bookings', bookingBody(s.f, at(day, '10:00')), 'shared-key');
    expect(ours.statusCode, ours.body).toBe(201);
    expect(ours.headers['idempotent-replayed']).toBeUndefined();
    expect(ours.json().data.uuid).not.toBe(theirs.json().data.uuid);
    expect(ours.json().data.location_uuid).toBe(s.f.location.id);
    expect(await bookingCount(other.workspace.id)).toBe(1);
  });
});

describe('Idempotency-Key on PUT', () => {
  it('replays a reschedule without moving or recording anything again', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const created = await t.call('POST', '/bookings', bookingBody(f, at(day, '10:00')));
    const uuid = created.json().data.uuid;
    const path = `/bookings/${uuid}/reschedule`;
    const first = await withKey('PUT', path, { reserved_on: at(day, '13:00') }, 'move-1');
    expect(first.statusCode, first.body).toBe(200);
    const history = await historyCount(t, uuid);
    const events = (await outboxOf(t, uuid)).length;
    expectReplayOf(await withKey('PUT', path, { reserved_on: at(day, '13:00') }, 'move-1'), first);
    expect(await historyCount(t, uuid)).toBe(history);
    expect((await outboxOf(t, uuid)).length).toBe(events);
    const moved = await withKey('PUT', path, { reserved_on: at(day, '14:00') }, 'move-1');
    expectError(moved, 422, 'idempotency_key_reused');
    expect((await t.call('GET', `/bookings/${uuid}`)).json().data.start_time).toBe(at(day, '13:00'));
  });

  it('replays a complete: one payment only', async () => {
    const { t, f } = s;
    const created = await t.call('POST', '/bookings', bookingBody(f, at(s.nextDay(), '10:00')));
    const uuid = created.json().data.uuid;
    const body = { account_uuid: f.cash.id, paid_amount: 9000 };
    const first = await withKey('PUT', `/bookings/${uuid}/status/complete`, body, 'pay-1');
    expect(first.statusCode).toBe(200);
    expectReplayOf(await withKey('PUT', `/bookings/${uuid}/status/complete`, body, 'pay-1'), first);
    const payments = await t.db
      .selectFrom('payments')
      .select('amount')
      .where('booking_id', '=', uuid)
      .execute();
    expect(payments).toEqual([{ amount: 9000 }]);
  });
});
