import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  type Json,
  NOW,
  openStudio,
  type Studio,
} from '../../test/bookings/bookings-kit.js';
import { makeUser } from '../../test/helpers/panel-client.js';
import { icsProperties, type ReceivedMail, SmtpReceiver } from '../../test/helpers/smtp-receiver.js';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import type { MailKind } from '../platform/db/schema.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import { MailWorker, NOT_SENT_NO_SMTP } from './mail-worker.js';
import { updateNotificationSettings, updateStafferRecipients } from './notifications.service.js';
import { type MailSender, smtpSender } from './smtp-sender.js';

/**
 * Emails queued with the booking change, sent by the mail worker through a
 * real SMTP server on loopback (smtp-server), read back as a receiving server parses them.
 * The clock is the test's: reminders, retries and leases move with it, nothing sleeps.
 */
const FROM = 'Studio Mail <bookings@studio.example>';
const PUBLIC = 'https://book.example';
let s: Studio;
const senders: MailSender[] = [];
const receivers: SmtpReceiver[] = [];

beforeAll(async () => {
  s = await openStudio();
});
afterEach(async () => {
  // Each test starts from an empty queue and the studio's clock.
  await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);
  await s.t.db
    .updateTable('mail_messages')
    .set({ state: 'dropped' })
    .where('workspace_id', '=', s.t.workspace.id)
    .where('state', 'in', ['pending', 'sending'])
    .execute();
  s.clock.set(NOW);
  for (const sender of senders.splice(0)) sender.close();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s.t.close();
});

async function receiver(options: Parameters<typeof SmtpReceiver.start>[0] = {}) {
  const started = await SmtpReceiver.start(options);
  receivers.push(started);
  return started;
}

// One worker id for every worker of the file: they share the partition leases (the test clock
// jumps back and forth, so another id would find the leases held).
function worker(url: string | undefined, workerId = 'mail-test') {
  const sender = url ? smtpSender(url) : undefined;
  if (sender) senders.push(sender);
  return new MailWorker({
    handlers: outboxHandlers(),
    db: s.t.db,
    clock: s.clock,
    sender,
    mailFrom: FROM,
    publicBase: PUBLIC,
    random: () => 0.5,
    workerId,
  });
}

/** The booking's messages, once the outbox events of its changes are dispatched (which queues them). */
async function messagesOf(bookingId: string) {
  await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);
  return s.t.db
    .selectFrom('mail_messages')
    .selectAll()
    .where('workspace_id', '=', s.t.workspace.id)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('kind')
    .execute();
}

/** A booking body with a phone of its own: customers are found by phone, and each test wants its own. */
let phones = 0;
function body(start: string, overrides: Record<string, unknown> = {}) {
  return bookingBody(s.f, start, { customer_phone: `+49151${20_000_000 + ++phones}`, ...overrides });
}

const byKind = (rows: Awaited<ReturnType<typeof messagesOf>>, kind: MailKind) =>
  rows.filter((r) => r.kind === kind);

function calendarOf(mail: ReceivedMail) {
  const attachment = mail.parsed.attachments.find((a) => a.contentType === 'text/calendar');
  expect(attachment, 'an .ics attachment').toBeDefined();
  return {
    type: attachment!.headers.get('content-type') as Json,
    props: icsProperties(attachment!.content.toString('utf8')),
  };
}

/** 2026-09-0X hh:mm Berlin as the calendar's UTC basic format (summer: UTC+2). */
const icsUtc = (day: string, hhmm: string) => `${at(day, hhmm).replace(/[-:]/g, '').replace('Z', '')}Z`;

describe('customer emails through SMTP', () => {
  it('sends the confirmation with the zone named, the manage link and an .ics REQUEST; keeps the reminder for later', async () => {
    const smtp = await receiver();
    const day = s.nextDay();
    const booking = await book(
      s.t,
      body(at(day, '15:00'), { customer_email: 'ida@example.com', customer_first_name: 'Ida' }),
    );
    // Queued from the create's outbox event: a confirmation now, a reminder 24 h before the start.
    const queued = await messagesOf(booking.uuid);
    expect(queued.map((m) => [m.kind, m.state, m.revision])).toEqual(
      expect.arrayContaining([
        ['confirmed', 'pending', 1],
        ['reminder', 'pending', 1],
      ]),
    );
    expect(byKind(queued, 'reminder')[0]!.due_at.toISOString()).toBe(
      new Date(Date.parse(at(day, '15:00')) - 24 * 3_600_000).toISOString(),
    );

    expect((await worker(smtp.url).runOnce()).outcomes).toEqual(['sent']);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.messageId).toBe(`<${booking.uuid}.confirmed.r1@studio.example>`);
    expect(mail!.envelopeTo).toEqual(['ida@example.com']);
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Test Studio', address: 'bookings@studio.example' }]);
    expect(mail!.parsed.subject).toContain('Haircut');
    const text = mail!.parsed.text ?? '';
    expect(text).toContain('Hello Ida,');
    expect(text).toMatch(/3:00\sPM \(GMT\+2\), Berlin \(Europe\/Berlin\)/);
    expect(text).toContain('Anna');
    expect(text).toContain('Main branch');
    const manage = new RegExp(`${PUBLIC}(/book/${s.t.workspace.slug}/manage/[A-Za-z0-9_-]+)`).exec(text)?.[1];
    expect(manage, text).toBeDefined();
    const page = await s.t.app.inject({ method: 'GET', url: manage! });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Haircut');
    expect(mail!.parsed.html).toContain(`href="${PUBLIC}${manage}"`);

    const calendar = calendarOf(mail!);
    expect(calendar.type.params.method).toBe('REQUEST');
    expect(calendar.props.get('METHOD')).toBe('REQUEST');
    expect(calendar.props.get('UID')).toBe(`${booking.uuid}@book.example`);
    expect(calendar.props.get('SEQUENCE')).toBe('1');
    expect(calendar.props.get('DTSTART')).toBe(icsUtc(day, '15:00'));
    expect(calendar.props.get('STATUS')).toBe('CONFIRMED');
    expect(calendar.props.get('ATTENDEE')).toContain('mailto:ida@example.com');

    const after = await messagesOf(booking.uuid);
    const sent = byKind(after, 'confirmed')[0]!;
    expect(sent.state).toBe('sent');
    expect(sent.last_response).toMatch(/^250 .*queued as 1/);
    expect(byKind(after, 'reminder')[0]!.state).toBe('pending');
  });

  it('a reschedule moves the reminder and says so with a higher SEQUENCE; a cancel (on the booking page) drops it and sends CANCEL', async () => {
    const smtp = await receiver();
    const day = s.nextDay();
    const booking = await book(s.t, body(at(day, '10:00'), { customer_email: 'max@example.com' }));
    const w = worker(smtp.url);
    await w.runOnce();
    const confirmation = (await smtp.waitFor(1))[0]!;

    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '13:00') });
    let rows = await messagesOf(booking.uuid);
    const reminders = byKind(rows, 'reminder');
    expect(reminders.map((r) => [r.state, r.revision, r.due_at.toISOString()])).toEqual([
      ['dropped', 1, new Date(Date.parse(at(day, '10:00')) - 86_400_000).toISOString()],
      // created = 1; a reschedule sends booking-updated (2) and booking-rescheduled (3).
      ['pending', 3, new Date(Date.parse(at(day, '13:00')) - 86_400_000).toISOString()],
    ]);
    await w.runOnce();
    const moved = (await smtp.waitFor(2))[1]!;
    expect(moved.messageId).toBe(`<${booking.uuid}.rescheduled.r3@studio.example>`);
    expect(moved.parsed.text).toMatch(/1:00\sPM \(GMT\+2\)/);
    const movedCalendar = calendarOf(moved).props;
    expect(movedCalendar.get('UID')).toBe(calendarOf(confirmation).props.get('UID'));
    expect(movedCalendar.get('SEQUENCE')).toBe('3');
    expect(movedCalendar.get('DTSTART')).toBe(icsUtc(day, '13:00'));

    // The customer cancels through the manage link of the email: the booking page's write path.
    const manage = /https:\/\/book\.example(\S+\/manage\/[A-Za-z0-9_-]+)/.exec(moved.parsed.text ?? '')![1]!;
    const canceled = await s.t.app.inject({
      method: 'POST',
      url: `${manage}/cancel`,
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(canceled.statusCode, canceled.body).toBe(303);
    rows = await messagesOf(booking.uuid);
    expect(byKind(rows, 'reminder').map((r) => r.state)).toEqual(['dropped', 'dropped']);
    await w.runOnce();
    const cancel = (await smtp.waitFor(3))[2]!;
    expect(cancel.messageId).toBe(`<${booking.uuid}.canceled.r4@studio.example>`);
    const cancelCalendar = calendarOf(cancel);
    expect(cancelCalendar.type.params.method).toBe('CANCEL');
    expect(cancelCalendar.props.get('METHOD')).toBe('CANCEL');
    expect(cancelCalendar.props.get('STATUS')).toBe('CANCELLED');
    expect(cancelCalendar.props.get('SEQUENCE')).toBe('4');
    expect(cancelCalendar.props.get('UID')).toBe(`${booking.uuid}@book.example`);

    // Past every reminder time: nothing more goes out for this booking.
    s.clock.set(at(day, '12:30'));
    expect((await w.runOnce()).outcomes).toEqual([]);
    expect(smtp.accepted).toHaveLength(3);
  });

  it('sends a reminder that fell due while the worker was down late, but never after the start', async () => {
    const uow = openWritePath(s.t.db).uow;
    await updateNotificationSettings(
      uow,
      s.t.workspace.id,
      {
        customerEmails: ['reminder'],
        reminderHours: ['24', '2'],
        senderName: 'Salon Ida',
        replyTo: 'desk@salon.example',
      },
      s.clock.now(),
      CLI_ACTOR,
    );
    try {
      const smtp = await receiver();
      const day = s.nextDay();
      const early = await book(s.t, body(at(day, '10:00'), { customer_email: 'late@example.com' }));
      const missed = await book(s.t, body(at(day, '15:00'), { customer_email: 'gone@example.com' }));
      // No confirmation (switched off); two reminders each.
      expect((await messagesOf(early.uuid)).map((m) => m.kind)).toEqual(['reminder', 'reminder']);
      // Down from now until 09:30 on the day: every reminder of the 10:00 booking is overdue, the
      // booking has not started, so they go now; the 15:00 booking's 2-hour reminder is not due.
      s.clock.set(at(day, '09:30'));
      const w = worker(smtp.url);
      expect((await w.runOnce()).outcomes.sort()).toEqual(['sent', 'sent', 'sent']);
      const mails = await smtp.waitFor(3);
      const ids = mails.map((m) => m.messageId).sort();
      expect(ids).toEqual(
        [
          `<${early.uuid}.reminder.r1.m120@studio.example>`,
          `<${early.uuid}.reminder.r1.m1440@studio.example>`,
          `<${missed.uuid}.reminder.r1.m1440@studio.example>`,
        ].sort(),
      );
      const reminder = mails.find((m) => m.messageId.includes('m120'))!;
      expect(reminder.parsed.from?.value[0]).toEqual({
        name: 'Salon Ida',
        address: 'bookings@studio.example',
      });
      expect(reminder.parsed.replyTo?.value[0]?.address).toBe('desk@salon.example');
      expect(reminder.parsed.text).toContain('It starts in 2 hours.');
      // Down again until after 15:00: the 15:00 booking's last reminder is too late.
      s.clock.set(at(day, '15:01'));
      expect((await w.runOnce()).outcomes).toEqual(['expired']);
      expect(smtp.accepted).toHaveLength(3);
      const expired = byKind(await messagesOf(missed.uuid), 'reminder').find((r) =>
        r.message_key.endsWith('m120'),
      )!;
      expect(expired.state).toBe('expired');
    } finally {
      await updateNotificationSettings(
        uow,
        s.t.workspace.id,
        {
          customerEmails: ['confirmed', 'rescheduled', 'canceled', 'reminder'],
          reminderHours: ['24'],
          senderName: '',
          replyTo: '',
        },
        s.clock.now(),
        CLI_ACTOR,
      );
    }
  });

  it('queues nothing when the customer gave no email, and nothing when the change rolled back', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, body(at(day, '10:00')));
    expect(await messagesOf(booking.uuid)).toEqual([]);
    const before = await s.t.db
      .selectFrom('mail_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', s.t.workspace.id)
      .executeTakeFirstOrThrow();
    // A cart of two: the first booking (and its emails) is written, the second is refused (the
    // same staffer at the same time), and the whole transaction rolls back with its emails.
    const refused = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915199999999',
      customer_email: 'cart@example.com',
      items: [
        { reserved_on: at(day, '12:00'), staffer_uuid: s.f.anna.id, service_uuids: [s.f.haircut.id] },
        { reserved_on: at(day, '12:00'), staffer_uuid: s.f.anna.id, service_uuids: [s.f.haircut.id] },
      ],
    });
    expect(refused.statusCode, refused.body).toBe(409);
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000); // what committed is queued by now
    const after = await s.t.db
      .selectFrom('mail_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', s.t.workspace.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('without SMTP_URL keeps each message in the mail log as it would go out, and sends nothing', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, body(at(day, '11:00'), { customer_email: 'trial@example.com' }));
    expect((await worker(undefined).runOnce()).outcomes).toEqual(['logged']);
    const logged = byKind(await messagesOf(booking.uuid), 'confirmed')[0]!;
    expect(logged.state).toBe('logged');
    expect(logged.last_response).toBe(NOT_SENT_NO_SMTP);
    expect(logged.subject).toContain('Haircut');
    expect(logged.body_text).toMatch(/11:00\sAM \(GMT\+2\), Berlin \(Europe\/Berlin\)/);
    expect(logged.sent_at).toBeNull();
  });
});

describe('never lost, never doubled', () => {
  it('retries after a 4xx with backoff, then the server accepts it once', async () => {
    const smtp = await receiver({
      behave: (n) => (n === 0 ? { reply: 451, message: 'Greylisted, try later' } : 'accept'),
    });
    const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'grey@example.com' }));
    const w = worker(smtp.url);
    expect((await w.runOnce()).outcomes).toEqual(['retrying']);
    const waiting = byKind(await messagesOf(booking.uuid), 'confirmed')[0]!;
    expect(waiting.state).toBe('pending');
    expect(waiting.last_response).toContain('451');
    // The first retry waits about 5 s (src/outbox/retry-schedule.ts; jitter 0 here).
    expect(waiting.next_attempt_at.getTime()).toBe(s.clock.now() + 5_000);
    expect((await w.runOnce()).outcomes).toEqual([]);
    s.clock.advance(5_000);
    expect((await w.runOnce()).outcomes).toEqual(['sent']);
    await smtp.waitFor(1);
    expect(smtp.seen).toEqual([
      `<${booking.uuid}.confirmed.r1@studio.example>`,
      `<${booking.uuid}.confirmed.r1@studio.example>`,
    ]);
    expect([...smtp.countsByMessageId().values()]).toEqual([1]);
    const sent = byKind(await messagesOf(booking.uuid), 'confirmed')[0]!;
    expect([sent.state, sent.attempt_count]).toEqual(['sent', 2]);
  });

  it('sends again, with the same Message-ID, after a server dropped the connection without an answer', async () => {
    const smtp = await receiver({ behave: (n) => (n === 0 ? 'drop' : 'accept') });
    const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'drop@example.com' }));
    const w = worker(smtp.url);
    expect((await w.runOnce()).outcomes).toEqual(['retrying']);
    s.clock.advance(5_000);
    expect((await w.runOnce()).outcomes).toEqual(['sent']);
    await smtp.waitFor(1);
    const id = `<${booking.uuid}.confirmed.r1@studio.example>`;
    // The dropped server had read the whole message: the retry is the same message, kept once.
    expect(smtp.seen).toEqual([id, id]);
    expect([...smtp.countsByMessageId()]).toEqual([[id, 1]]);
  });

  it('sends again, with the same Message-ID, after the server was killed (SIGKILL) in the middle of DATA', async () => {
    // The server comes back on the same port, so the port is taken below the kernel's range for
    // automatic ports (32768 and up): no other process of the run can be handed it meanwhile (one
    // was, once, and the restart failed with EADDRINUSE). A port some service holds is skipped.
    const start = async () => {
      for (let attempt = 1; ; attempt++) {
        const wanted = 20_000 + Math.floor(Math.random() * 12_000);
        const started = spawn(
          process.execPath,
          [path.join(import.meta.dirname, '../../test/helpers/smtp-child.mjs'), String(wanted)],
          { stdio: ['ignore', 'pipe', 'ignore'] },
        );
        let out = '';
        const line = (pattern: RegExp) =>
          new Promise<RegExpExecArray>((resolve, reject) => {
            const check = () => {
              const match = pattern.exec(out);
              if (match) resolve(match);
            };
            started.stdout!.on('data', (chunk: Buffer) => {
              out += chunk.toString();
              check();
            });
            started.once('exit', () => reject(new Error(`SMTP child exited: ${out}`)));
            check();
          });
        try {
          const port = Number((await line(/LISTENING (\d+)/))[1]);
          return { child: started, line, port };
        } catch (error) {
          if (attempt >= 10) throw error;
        }
      }
    };
    const { child, line, port } = await start();
    try {
      const url = `smtp://127.0.0.1:${port}`;
      const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'kill@example.com' }));
      const w = worker(url);
      const round = w.runOnce();
      const seenByKilled = (await line(/DATA (\S+)/))[1];
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      expect((await round).outcomes).toEqual(['retrying']);
      // Its listening socket is gone only once the process is: restarting before that is EADDRINUSE.
      await exited;
      // The server is back (on the same port) and the retry is due.
      const smtp = await receiver({ port });
      s.clock.advance(5_000);
      expect((await w.runOnce()).outcomes).toEqual(['sent']);
      const [mail] = await smtp.waitFor(1);
      expect(seenByKilled).toBe(`<${booking.uuid}.confirmed.r1@studio.example>`);
      expect(mail!.messageId).toBe(seenByKilled);
      expect([...smtp.countsByMessageId().values()]).toEqual([1]);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('gives up at once on a permanent refusal (5xx)', async () => {
    const smtp = await receiver({ behave: () => ({ reply: 550, message: 'No such mailbox' }) });
    const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'nobody@example.com' }));
    expect((await worker(smtp.url).runOnce()).outcomes).toEqual(['failed']);
    const failed = byKind(await messagesOf(booking.uuid), 'confirmed')[0]!;
    expect(failed.state).toBe('failed');
    expect(failed.last_response).toContain('550');
  });

  it('a message whose worker died mid-send is sent by another once the claim ran out, and kept once', async () => {
    const smtp = await receiver();
    const booking = await book(s.t, body(at(s.nextDay(), '10:00'), { customer_email: 'crash@example.com' }));
    // A worker claims it and dies before its send finished (the claim stays, nothing recorded).
    expect((await messagesOf(booking.uuid)).map((m) => m.kind)).toContain('confirmed');
    await s.t.db
      .updateTable('mail_messages')
      .set({ state: 'sending', attempt_count: 1, next_attempt_at: new Date(s.clock.now() + 60_000) })
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', booking.uuid)
      .where('kind', '=', 'confirmed')
      .execute();
    const w = worker(smtp.url);
    expect((await w.runOnce()).outcomes).toEqual([]);
    s.clock.advance(60_000);
    expect((await w.runOnce()).outcomes).toEqual(['sent']);
    expect((await smtp.waitFor(1))[0]!.messageId).toBe(`<${booking.uuid}.confirmed.r1@studio.example>`);
  });

  it('two workers racing over one workspace send each message exactly once', async () => {
    const smtp = await receiver();
    const day = s.nextDay();
    const ids: string[] = [];
    for (const hour of ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00']) {
      for (const staffer of [s.f.anna.id, s.f.ben.id]) {
        const booking = await book(
          s.t,
          body(at(day, hour), {
            staffer_uuid: staffer,
            customer_email: `race-${ids.length}@example.com`,
          }),
        );
        ids.push(`<${booking.uuid}.confirmed.r1@studio.example>`);
      }
    }
    // The same worker id: both hold every partition, so both claim in this workspace at once.
    const a = worker(smtp.url);
    const b = worker(smtp.url);
    for (let round = 0; round < 4; round++) await Promise.all([a.runOnce(), b.runOnce()]);
    await smtp.waitFor(ids.length);
    expect([...smtp.countsByMessageId()].sort()).toEqual(ids.map((id) => [id, 1]).sort());
  });
});

describe('staff emails and languages', () => {
  it('tells a staffer with a linked panel user of new and canceled bookings, in the workspace language', async () => {
    const smtp = await receiver({ auth: { user: 'mailer', pass: 's3cret pass' } });
    const user = await makeUser(
      s.t.db,
      [{ workspaceId: s.t.workspace.id, role: 'staff' }],
      `ben-${process.pid}@example.com`,
    );
    const uow = openWritePath(s.t.db).uow;
    await updateStafferRecipients(
      uow,
      s.t.workspace.id,
      s.f.ben.id,
      { email: 'ben.private@example.com', userId: user.id, bookingEmails: ['new', 'canceled'] },
      s.clock.now(),
      CLI_ACTOR,
    );
    await s.t.db
      .updateTable('workspaces')
      .set({ locale: 'de-DE' })
      .where('id', '=', s.t.workspace.id)
      .execute();
    try {
      const day = s.nextDay();
      const booking = await book(
        s.t,
        body(at(day, '16:00'), {
          staffer_uuid: s.f.ben.id,
          customer_email: 'kunde@example.com',
          customer_first_name: 'Jonas',
        }),
      );
      const w = worker(smtp.url);
      expect((await w.runOnce()).outcomes.sort()).toEqual(['sent', 'sent']);
      let mails = await smtp.waitFor(2);
      expect(mails.every((m) => m.user === 'mailer')).toBe(true);
      const staff = mails.find((m) => m.envelopeTo[0] === user.email)!;
      expect(staff.messageId).toBe(`<${booking.uuid}.staff_new.r1.s${s.f.ben.id}@studio.example>`);
      expect(staff.parsed.subject).toMatch(/^Neue Buchung: Haircut/);
      expect(staff.parsed.text).toContain('Jonas');
      expect(staff.parsed.text).toMatch(/16:00 \(MESZ|16:00 \(GMT\+2\)/);
      const customer = mails.find((m) => m.envelopeTo[0] === 'kunde@example.com')!;
      expect(customer.parsed.subject).toMatch(/^Buchung bestätigt: Haircut/);
      expect(customer.parsed.text).toContain('Hallo Jonas,');
      expect(customer.parsed.text).toContain('Europe/Berlin');

      // A change of time is not among Ben's choices; the cancel is.
      await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '15:00') });
      await change(s.t, 'PUT', `/bookings/${booking.uuid}/status/cancel`, {});
      expect(
        (await messagesOf(booking.uuid)).map((m) => m.kind).filter((k) => k.startsWith('staff')),
      ).toEqual(['staff_new', 'staff_canceled']);
      await w.runOnce();
      await w.runOnce();
      mails = await smtp.waitFor(5);
      // Customer: confirmed, rescheduled, canceled; Ben: new, canceled — each once.
      expect(mails.map((m) => m.messageId.split('.')[1]).sort()).toEqual(
        ['canceled', 'confirmed', 'rescheduled', 'staff_canceled', 'staff_new'].sort(),
      );
    } finally {
      await s.t.db
        .updateTable('workspaces')
        .set({ locale: 'en-US' })
        .where('id', '=', s.t.workspace.id)
        .execute();
    }
  });
});
