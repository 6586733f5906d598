import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { emitBookingEvents } from '../../test/helpers/webhook-events.js';
import { dispatchOutbox } from '../webhooks/outbox-dispatch.service.js';

/**
 * Issue 15 point 3 with emails planned from the outbox (docs/decisions/0011-emails-from-the-outbox.md):
 * a change writes its outbox events and nothing else for email; dispatching those events queues
 * the change's emails, once, in the order the changes were made.
 */
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(async () => {
  await s.t.close();
});

let phones = 0;
const body = (start: string, overrides: Record<string, unknown> = {}) =>
  bookingBody(s.f, start, { customer_phone: `+49151${30_000_000 + ++phones}`, ...overrides });

const messagesOf = (bookingId: string) =>
  s.t.db
    .selectFrom('mail_messages')
    .select(['kind', 'revision', 'state', 'recipient'])
    .where('workspace_id', '=', s.t.workspace.id)
    .where('booking_id', '=', bookingId)
    .orderBy('revision')
    .orderBy('kind')
    .execute();

const eventsOf = (bookingId: string) =>
  s.t.db
    .selectFrom('outbox_events')
    .select(['type', 'sequence', 'change', 'dispatched_at'])
    .where('workspace_id', '=', s.t.workspace.id)
    .where('booking_id', '=', bookingId)
    .orderBy('sequence')
    .execute();

const dispatch = () => dispatchOutbox(s.t.db, s.clock.now(), 1_000);

describe('emails planned from the outbox', () => {
  it('a create writes no email itself; its event names the change, and dispatching queues its emails once', async () => {
    await dispatch(); // what the set-up left undispatched
    s.nextDay(); // the first day's 24-hour reminder would be due now: not planned
    const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'once@example.com' }));
    expect(await messagesOf(booking.uuid)).toEqual([]);
    expect((await eventsOf(booking.uuid)).map((e) => [e.type, e.sequence, e.change])).toEqual([
      ['booking-created', 1, 'created'],
    ]);

    // Dispatchers racing (the webhook and mail workers of several processes): each event is
    // dispatched by one of them, so its emails are queued once.
    const dispatched = await Promise.all([dispatch(), dispatch(), dispatch(), dispatch()]);
    expect(dispatched.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await dispatch()).toBe(0);
    expect(await messagesOf(booking.uuid)).toEqual([
      { kind: 'confirmed', revision: 1, state: 'pending', recipient: 'once@example.com' },
      { kind: 'reminder', revision: 1, state: 'pending', recipient: 'once@example.com' },
    ]);
    expect((await eventsOf(booking.uuid))[0]!.dispatched_at).not.toBeNull();
  });

  it('changes dispatched together keep their order: a later one drops the reminders an earlier one planned', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, body(at(day, '10:00'), { customer_email: 'batch@example.com' }));
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '12:00') });
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '14:00') });
    // Only the last event of a change names it: a reschedule writes two.
    expect((await eventsOf(booking.uuid)).map((e) => [e.type, e.change])).toEqual([
      ['booking-created', 'created'],
      ['booking-updated', null],
      ['booking-rescheduled', 'rescheduled'],
      ['booking-updated', null],
      ['booking-rescheduled', 'rescheduled'],
    ]);
    expect(await dispatch()).toBe(5);
    expect((await messagesOf(booking.uuid)).map((m) => [m.kind, m.revision, m.state])).toEqual([
      ['confirmed', 1, 'pending'],
      ['reminder', 1, 'dropped'],
      ['reminder', 3, 'dropped'],
      ['rescheduled', 3, 'pending'],
      ['reminder', 5, 'pending'],
      ['rescheduled', 5, 'pending'],
    ]);

    // A cancel dispatched on its own drops the reminder planned before it, and plans none.
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/status/cancel`, {});
    expect(await dispatch()).toBe(1);
    expect((await messagesOf(booking.uuid)).filter((m) => m.revision >= 5)).toEqual([
      { kind: 'reminder', revision: 5, state: 'dropped', recipient: 'batch@example.com' },
      { kind: 'rescheduled', revision: 5, state: 'pending', recipient: 'batch@example.com' },
      { kind: 'canceled', revision: 6, state: 'pending', recipient: 'batch@example.com' },
    ]);
  });

  it('an event that names no change (written before 0014) queues nothing, and one it cannot read does not stop the webhooks', async () => {
    const old = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'old@example.com' }));
    await dispatch();
    await emitBookingEvents(s.t.db, s.t.workspace, old.uuid, ['booking-updated'], new Date(s.clock.now()));
    // A change named on a payload without a booking: planned as nothing, dispatched all the same.
    await s.t.db
      .insertInto('outbox_events')
      .values({
        workspace_id: s.t.workspace.id,
        booking_id: old.uuid,
        type: 'booking-canceled',
        sequence: 99,
        payload: JSON.stringify({ type: 'booking-canceled', timestamp: 'never', data: {} }),
        change: 'canceled',
      })
      .execute();
    const before = await messagesOf(old.uuid);
    expect(await dispatch()).toBe(2);
    expect(await messagesOf(old.uuid)).toEqual(before);
    expect((await eventsOf(old.uuid)).every((e) => e.dispatched_at !== null)).toBe(true);
  });
});
