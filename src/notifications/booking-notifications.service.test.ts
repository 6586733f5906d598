import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { emitBookingEvents } from '../../test/helpers/webhook-events.js';
import {
  lockUndispatchedEvents,
  lockWorkspaceForDispatch,
  markEventsDispatched,
} from '../outbox/outbox.repository.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { outboxHandlers } from '../workers.js';
import { queueChangeNotifications } from './booking-notifications.service.js';

/**
 * Emails never lost or doubled, planned from the outbox (docs/decisions/0011-emails-from-the-outbox.md):
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

const dispatch = () => dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);

describe('emails planned from the outbox', () => {
  it('a create writes no email itself; its event names the change, and dispatching queues its emails once', async () => {
    await dispatch(); // what the set-up left undispatched
    s.nextDay(); // the first day's 24-hour reminder would be due now: not planned
    const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'once@example.com' }));
    expect(await messagesOf(booking.uuid)).toEqual([]);
    expect((await eventsOf(booking.uuid)).map((e) => [e.type, e.sequence, e.change])).toEqual([
      ['booking-created', 1, 'created'],
    ]);

    // Dispatched by several at once (the webhook and mail workers of a process), or again: its
    // emails are queued once.
    const dispatched = await Promise.all([dispatch(), dispatch(), dispatch(), dispatch()]);
    expect(dispatched.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await dispatch()).toBe(0);
    expect(await messagesOf(booking.uuid)).toEqual([
      { kind: 'confirmed', revision: 1, state: 'pending', recipient: 'once@example.com' },
      { kind: 'reminder', revision: 1, state: 'pending', recipient: 'once@example.com' },
    ]);
    expect((await eventsOf(booking.uuid))[0]!.dispatched_at).not.toBeNull();
  });

  it('a customer email keeps the language the booking was made in; without one, none is kept', async () => {
    await dispatch();
    const day = s.nextDay();
    const polish = await book(s.t, body(at(day, '11:00'), { customer_email: 'pl@example.com' }));
    const api = await book(s.t, body(at(day, '12:00'), { customer_email: 'api@example.com' }));
    // What the booking page stores with its bookings (the API cannot set it).
    await s.t.db.updateTable('bookings').set({ language: 'pl' }).where('id', '=', polish.uuid).execute();
    await dispatch();
    const snapshots = await s.t.db
      .selectFrom('mail_messages')
      .select(['booking_id', 'snapshot'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', 'in', [polish.uuid, api.uuid])
      .where('kind', '=', 'confirmed')
      .execute();
    const languageOf = (id: string) =>
      (snapshots.find((row) => row.booking_id === id)?.snapshot as { language?: string } | undefined)
        ?.language;
    expect(languageOf(polish.uuid)).toBe('pl');
    expect(languageOf(api.uuid)).toBeUndefined();
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

  it('an event that names no change (written before 0014) queues nothing; one whose booking it cannot read is dispatched without emails', async () => {
    const old = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'old@example.com' }));
    await dispatch();
    await emitBookingEvents(s.t.db, s.t.workspace, old.uuid, ['booking-updated'], new Date(s.clock.now()));
    // The event of a real change, with one field of its booking taken away at a time.
    const [created] = await s.t.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', old.uuid)
      .where('change', '=', 'created')
      .execute();
    const payload = created!.payload as { data: { booking: Record<string, unknown> } };
    const without = ['start_time', 'customer', 'ordered_services', 'location_uuid', 'uuid'];
    await s.t.db
      .insertInto('outbox_events')
      .values(
        without.map((field, index) => {
          const { [field]: _dropped, ...booking } = payload.data.booking;
          return {
            workspace_id: s.t.workspace.id,
            booking_id: old.uuid,
            type: 'booking-rescheduled',
            sequence: 50 + index,
            payload: JSON.stringify({ ...payload, data: { booking } }),
            change: 'rescheduled',
          };
        }),
      )
      .execute();
    const before = await messagesOf(old.uuid);
    expect(await dispatch()).toBe(1 + without.length);
    expect(await messagesOf(old.uuid)).toEqual(before);
    expect((await eventsOf(old.uuid)).every((e) => e.dispatched_at !== null)).toBe(true);
  });

  it('emails that cannot be queued hold up neither the webhooks nor other workspaces', async () => {
    const other = await book(s.t, body(at(s.nextDay(), '11:00'), { customer_email: 'stuck@example.com' }));
    // The store refuses this recipient's emails, as it would refuse any write that always fails.
    await sql`CREATE FUNCTION refuse_stuck() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.recipient = 'stuck@example.com' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`.execute(
      s.t.db,
    );
    await sql`CREATE TRIGGER refuse_stuck BEFORE INSERT ON mail_messages FOR EACH ROW EXECUTE FUNCTION refuse_stuck()`.execute(
      s.t.db,
    );
    try {
      // Without a logger (tests), the failure is the caller's.
      await expect(dispatch()).rejects.toThrow('refused');
      const logged: unknown[] = [];
      const logger = { error: (object: object) => void logged.push(object) };
      expect(await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000, undefined, logger)).toBe(1);
      expect(logged).toEqual([expect.objectContaining({ workspace: s.t.workspace.id })]);
      expect((await eventsOf(other.uuid))[0]!.dispatched_at).not.toBeNull();
      expect(await messagesOf(other.uuid)).toEqual([]);
    } finally {
      await sql`DROP TRIGGER refuse_stuck ON mail_messages`.execute(s.t.db);
      await sql`DROP FUNCTION refuse_stuck()`.execute(s.t.db);
    }
  });
});

// Two dispatchers at once need two connections: PostgreSQL only (PGlite runs one transaction at a time).
describe.skipIf(!process.env.TEST_DATABASE_URL)('dispatchers racing over one workspace', () => {
  it('a cancel is dispatched only after the reschedule before it, so it drops the reminder that one queued', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, body(at(day, '10:00'), { customer_email: 'race@example.com' }));
    await dispatch();
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '12:00') });

    // Dispatcher A has taken the workspace and the reschedule's events, and is not done yet.
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let took!: () => void;
    const taken = new Promise<void>((resolve) => {
      took = resolve;
    });
    const workspaceId = s.t.workspace.id;
    const a = s.t.db.transaction().execute(async (transaction) => {
      const tx = transaction as Tx;
      expect(await lockWorkspaceForDispatch(tx, workspaceId)).toBe(true);
      const events = await lockUndispatchedEvents(tx, workspaceId, 100);
      took();
      await finishing;
      await queueChangeNotifications(
        tx,
        workspaceId,
        events.filter((event) => event.change !== null),
      );
      await markEventsDispatched(
        tx,
        workspaceId,
        events.map((event) => event.id),
        s.clock.now(),
      );
      return events.length;
    });
    await taken;
    // Meanwhile the booking is canceled, and dispatcher B comes round: it leaves the workspace
    // to A rather than dispatch the cancel before the reschedule has queued its reminder.
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/status/cancel`, {});
    expect(await dispatch()).toBe(0);
    finish();
    expect(await a).toBe(2);
    expect(await dispatch()).toBe(1);
    expect((await messagesOf(booking.uuid)).map((m) => [m.kind, m.revision, m.state])).toEqual([
      ['confirmed', 1, 'pending'],
      ['reminder', 1, 'dropped'],
      ['reminder', 3, 'dropped'],
      ['rescheduled', 3, 'pending'],
      ['canceled', 4, 'pending'],
    ]);
  });
});
