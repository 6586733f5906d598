import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, NOW, openStudio, type Studio } from '../../../test/bookings/bookings-kit.js';
import { createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';
import { SmtpReceiver } from '../../../test/helpers/smtp-receiver.js';
import { dispatchOutbox } from '../../outbox/outbox-dispatch.service.js';
import type { UserRow } from '../../users/users.repository.js';
import { outboxHandlers } from '../../workers.js';
import { MailWorker } from '../mail-worker.js';
import { smtpSender } from '../smtp-sender.js';

const PAGE = '/panel/settings/notifications';

let s: Studio;
let admin: UserRow;
let staff: UserRow;
beforeAll(async () => {
  s = await openStudio();
  admin = await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'admin' }]);
  staff = await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]);
});
afterAll(() => s.t.close());

const logWorker = () =>
  new MailWorker({
    handlers: outboxHandlers(),
    db: s.t.db,
    clock: s.clock,
    sender: undefined,
    mailFrom: 'no-reply@studio.example',
    publicBase: 'https://book.example',
  });

/** The staffer a member is (memberships.staffer_id, the one user–staffer link). */
async function stafferOf(userId: string) {
  const row = await s.t.db
    .selectFrom('memberships')
    .select('staffer_id')
    .where('workspace_id', '=', s.t.workspace.id)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.staffer_id;
}

async function settingsRow() {
  const row = await s.t.db
    .selectFrom('workspaces')
    .select('notification_settings')
    .where('id', '=', s.t.workspace.id)
    .executeTakeFirstOrThrow();
  return row.notification_settings;
}

describe('Settings → Notifications', () => {
  it('is for owners and admins; staff get a 403 and their own booking emails page', async () => {
    const client = await PanelClient.signedIn(s.t.app, s.t.db, staff, s.t.workspace.id);
    expect((await client.get(PAGE)).statusCode).toBe(403);
    const own = await client.get('/panel/account/notifications');
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('You are not linked to a staffer of this workspace');
    const home = await client.get('/panel');
    expect(home.body).not.toContain(`href="${PAGE}"`);
    expect(home.body).toContain('href="/panel/account/notifications"');
  });

  it('saves which emails, reminder times, sender name and reply-to; refuses bad values next to their fields', async () => {
    const client = await PanelClient.signedIn(s.t.app, s.t.db, admin, s.t.workspace.id);
    const page = await client.get(PAGE);
    expect(page.statusCode).toBe(200);
    // The defaults: confirmations, changes, cancels and a reminder 24 h before; completed off.
    expect(page.body).toMatch(/<input type="checkbox" name="customer_emails" value="confirmed" checked/);
    expect(page.body).toMatch(/<input type="checkbox" name="customer_emails" value="completed"\/?>/);
    expect(page.body).toMatch(/name="reminder_hours" value="24"/);
    expect(page.body).toContain('No mail server is set');

    const refused = await client.post(PAGE, {
      customer_emails: ['confirmed', 'reminder'],
      reminder_hours: ['2', 'soon'],
      sender_name: 'Salon <Ida>',
      reply_to: 'desk',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('<p class="error" id="f-reminder_hours-error">');
    expect(refused.body).toContain('<p class="error" id="f-sender_name-error">');
    expect(refused.body).toContain('<p class="error" id="f-reply_to-error">');
    expect(refused.body).toMatch(/name="reminder_hours" value="soon"/);
    expect(await settingsRow()).toEqual({});

    const saved = await client.post(PAGE, {
      customer_emails: ['confirmed', 'completed', 'reminder'],
      reminder_hours: ['48', '1.5'],
      sender_name: 'Salon Ida',
      reply_to: 'desk@salon.example',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${PAGE}?notice=saved`);
    expect(await settingsRow()).toEqual({
      customer_emails: ['confirmed', 'completed', 'reminder'],
      reminder_minutes: [2880, 90],
      sender_name: 'Salon Ida',
      reply_to: 'desk@salon.example',
    });
    const shown = (await client.get(`${PAGE}?notice=saved`)).body;
    expect(shown).toContain('The notification settings are saved.');
    expect(shown).toMatch(/name="reminder_hours" value="1.5"/);

    // Without the CSRF token, or from another origin, nothing changes.
    expect((await client.post(PAGE, { customer_emails: [] }, { csrf: null })).statusCode).toBe(403);
    expect(
      (await client.post(PAGE, { customer_emails: [] }, { origin: 'https://evil.example' })).statusCode,
    ).toBe(403);
    expect((await settingsRow()).customer_emails).toEqual(['confirmed', 'completed', 'reminder']);
    await client.post(PAGE, {
      customer_emails: ['confirmed', 'rescheduled', 'canceled', 'reminder'],
      reminder_hours: ['24'],
      sender_name: '',
      reply_to: '',
    });
  });

  it('links a staffer to a panel user, who then chooses their own booking emails', async () => {
    const client = await PanelClient.signedIn(s.t.app, s.t.db, admin, s.t.workspace.id);
    await client.get(PAGE);
    const refused = await client.post(`${PAGE}/staffers/${s.f.anna.id}`, {
      user_id: '00000000-0000-4000-8000-000000000000',
      email: 'no address',
      booking_emails: ['new'],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Choose a member of this workspace.');
    expect(refused.body).toContain('value="no address"');
    const linked = await client.post(`${PAGE}/staffers/${s.f.anna.id}`, {
      user_id: staff.id,
      email: '',
      booking_emails: ['new', 'changed', 'canceled'],
    });
    expect(linked.headers.location).toBe(`${PAGE}?notice=staff`);
    expect((await client.get(PAGE)).body).toContain(`Emails go to ${staff.email}.`);

    // The linked user turns "changed" off for themselves.
    const own = await PanelClient.signedIn(s.t.app, s.t.db, staff, s.t.workspace.id);
    const page = await own.get('/panel/account/notifications');
    expect(page.body).toContain(`Emails go to ${staff.email} for the bookings of:`);
    const saved = await own.post(`/panel/account/notifications/${s.f.anna.id}`, {
      booking_emails: ['new', 'canceled'],
    });
    expect(saved.headers.location).toBe('/panel/account/notifications?notice=saved');
    // Not theirs: Ben is not linked to them.
    expect(
      (await own.post(`/panel/account/notifications/${s.f.ben.id}`, { booking_emails: [] })).statusCode,
    ).toBe(404);
    const row = await s.t.db
      .selectFrom('staffers')
      .select('booking_emails')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('id', '=', s.f.anna.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ booking_emails: ['new', 'canceled'] });
    // The link is the membership's: the one that also gives the calendar column and feed.
    expect(await stafferOf(staff.id)).toBe(s.f.anna.id);

    // Her next booking tells her of it (and the customer), in the log.
    s.nextDay(); // skip a day: the 24-hour reminder of the next one is still ahead
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '09:00'), {
        customer_phone: '+4915122220001',
        customer_email: 'eve@example.com',
      }),
    );
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000); // a worker's round queues its emails
    const kinds = (
      await s.t.db
        .selectFrom('mail_messages')
        .select(['kind', 'recipient'])
        .where('workspace_id', '=', s.t.workspace.id)
        .where('booking_id', '=', booking.uuid)
        .orderBy('kind')
        .execute()
    ).map((m) => [m.kind, m.recipient]);
    expect(kinds).toEqual([
      ['confirmed', 'eve@example.com'],
      ['reminder', 'eve@example.com'],
      ['staff_new', staff.email],
    ]);
  });

  it('is the one place that says which member is a staffer: it moves a staffer to another member, refuses a member who is another staffer, clears with None', async () => {
    const client = await PanelClient.signedIn(s.t.app, s.t.db, admin, s.t.workspace.id);
    const cleo = await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]);
    const save = (stafferId: string, userId: string) =>
      client.post(`${PAGE}/staffers/${stafferId}`, {
        user_id: userId,
        email: '',
        booking_emails: ['new', 'changed', 'canceled'],
      });
    expect(await stafferOf(staff.id)).toBe(s.f.anna.id);
    const page = await client.get(PAGE);
    expect(page.body).toContain('their own calendar column and calendar');

    // Staff is Anna already: Ben may not take her unseen; the error stands next to Ben's picker.
    const refused = await save(s.f.ben.id, staff.id);
    expect(refused.statusCode).toBe(422);
    const benForm = refused.body.slice(refused.body.indexOf(`/staffers/${s.f.ben.id}"`));
    expect(benForm).toMatch(/<p class="error" id="s-[0-9a-f]{8}-user-error">This user is already Anna/);
    expect(benForm).toContain('Choose “None” there first.');
    expect(await stafferOf(staff.id)).toBe(s.f.anna.id);
    // A user id that is no uuid is a 422 too, never a 500.
    expect((await save(s.f.ben.id, 'not-a-uuid')).statusCode).toBe(422);

    // Anna gets another member: the one before is no longer her, on every page that shows it.
    expect((await save(s.f.anna.id, cleo.id)).headers.location).toBe(`${PAGE}?notice=staff`);
    expect(await stafferOf(cleo.id)).toBe(s.f.anna.id);
    expect(await stafferOf(staff.id)).toBeNull();
    const staffClient = await PanelClient.signedIn(s.t.app, s.t.db, staff, s.t.workspace.id);
    expect((await staffClient.get('/panel/account/notifications')).body).toContain(
      'You are not linked to a staffer of this workspace',
    );
    expect((await staffClient.get('/panel/account/calendar-feed')).body).toContain(
      'You are not linked to a staffer',
    );
    // Settings → Calendar feeds shows the link, and no longer sets it.
    const feeds = await client.get('/panel/settings/calendar-feeds');
    expect(feeds.body).toContain(cleo.email);
    expect(feeds.body).not.toContain('name="user_id"');
    expect(
      (
        await client.post(`/panel/settings/calendar-feeds/staffers/${s.f.anna.id}/member`, {
          user_id: staff.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(await stafferOf(staff.id)).toBeNull();

    // A link to an archived staffer is no obstacle: it moves.
    const dora = await createStaffer(s.t.db, s.t.workspace.id, s.f.location.id, [s.f.haircut.id], {
      firstName: 'Dora',
    });
    expect((await save(dora.id, staff.id)).statusCode).toBe(303);
    expect((await s.t.call('DELETE', `/staffers/${dora.id}`)).statusCode).toBeLessThan(300);
    expect((await save(s.f.ben.id, staff.id)).statusCode).toBe(303);
    expect(await stafferOf(staff.id)).toBe(s.f.ben.id);

    // None: Ben is no member's; Anna goes back to staff for the tests below.
    expect((await save(s.f.ben.id, '')).statusCode).toBe(303);
    expect(await stafferOf(staff.id)).toBeNull();
    expect((await save(s.f.anna.id, staff.id)).statusCode).toBe(303);
    expect(await stafferOf(cleo.id)).toBeNull();
    expect(await stafferOf(staff.id)).toBe(s.f.anna.id);
  });

  it('shows the mail log with each message as it would go out, resends one with a new Message-ID, sends a test email', async () => {
    const client = await PanelClient.signedIn(s.t.app, s.t.db, admin, s.t.workspace.id);
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '11:00'), {
        customer_phone: '+4915122220002',
        customer_email: 'log@example.com',
      }),
    );
    // No SMTP_URL: the worker keeps them in the log.
    await logWorker().runOnce();
    let page = (await client.get(PAGE)).body;
    const row = [...page.matchAll(/<tr data-mail="([0-9a-f-]{36})">.*?<\/tr>/gs)].find(
      (match) => match[0].includes('log@example.com') && match[0].includes('Booking confirmed'),
    );
    expect(row, page).toBeDefined();
    expect(row![0]).toContain('not sent (no SMTP)');
    expect(row![0]).toContain('Booking confirmed: Haircut');
    const messageId = row![1]!;
    const detail = await client.get(`${PAGE}/messages/${messageId}`);
    expect(detail.statusCode).toBe(200);
    // The app has no MAIL_FROM here: its default, no-reply@localhost, names the domain.
    expect(detail.body).toContain(`&lt;${booking.uuid}.confirmed.r1@localhost>`);
    expect(detail.body).toMatch(/11:00\sAM \(GMT\+2\), Berlin \(Europe\/Berlin\)/);
    expect(detail.body).toContain(
      `https://book.example/book/${s.t.workspace.slug}/manage/`.replace('https://book.example', ''),
    );

    // A queued reminder is shown as it would go out now.
    const reminder = await s.t.db
      .selectFrom('mail_messages')
      .select('id')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', booking.uuid)
      .where('kind', '=', 'reminder')
      .executeTakeFirstOrThrow();
    const preview = await client.get(`${PAGE}/messages/${reminder.id}`);
    expect(preview.body).toContain('Reminder: Haircut');
    expect(preview.body).toContain('<span class="badge pending">queued</span>');
    // It cannot be resent while queued.
    expect((await client.post(`${PAGE}/messages/${reminder.id}/resend`)).statusCode).toBe(409);

    const resent = await client.post(`${PAGE}/messages/${messageId}/resend`);
    expect(resent.headers.location).toBe(`${PAGE}?notice=resent#log`);
    const copies = await s.t.db
      .selectFrom('mail_messages')
      .select(['message_key', 'state', 'recipient'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', booking.uuid)
      .where('kind', '=', 'confirmed')
      .orderBy('created_at')
      .execute();
    expect(copies).toHaveLength(2);
    expect(copies[1]!.message_key).toMatch(
      new RegExp(`^${booking.uuid}\\.confirmed\\.r1\\.resend-[0-9a-f]{8}$`),
    );
    expect(copies[1]!.state).toBe('pending');

    // The test email goes through the queue like every other, to the signed-in user.
    const smtp = await SmtpReceiver.start();
    try {
      expect((await client.post(`${PAGE}/test`)).headers.location).toBe(`${PAGE}?notice=test#log`);
      const sender = smtpSender(smtp.url);
      const worker = new MailWorker({
        handlers: outboxHandlers(),
        db: s.t.db,
        clock: s.clock,
        sender,
        mailFrom: 'no-reply@studio.example',
        publicBase: 'https://book.example',
      });
      await worker.runOnce();
      const mails = await smtp.waitFor(2);
      sender.close();
      const test = mails.find((m) => m.envelopeTo[0] === admin.email)!;
      expect(test.parsed.subject).toBe('Test email from Test Studio');
      expect(mails.find((m) => m.envelopeTo[0] === 'log@example.com')!.messageId).toMatch(
        /\.resend-[0-9a-f]{8}@studio\.example>$/,
      );
      page = (await client.get(PAGE)).body;
      expect(page).toContain('Test email from Test Studio');
      expect(page).toMatch(/<span class="badge delivered">sent<\/span>/);
      expect(page).toMatch(/<code>250 [^<]*queued as/);
    } finally {
      await smtp.close();
    }
    expect(s.clock.now()).toBe(Date.parse(NOW));
  });
});

describe('Settings → Notifications in other languages', () => {
  // After the tests above: the mail log holds sent emails, among them the test email.
  it('speaks German to a German-speaking admin: settings, staff emails, the mail log and a message', async () => {
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'admin', 'de');
    const page = (await german.get(PAGE)).body;
    expect(page).toContain('<h1>Benachrichtigungen</h1>');
    expect(page).toContain('<h2>E-Mails an Kund:innen</h2>');
    expect(page).toContain('Erste Erinnerung (Stunden)');
    expect(page).toContain('Verknüpftes Panel-Konto');
    expect(page).toMatch(/<span class="badge delivered">gesendet<\/span>/);
    expect(page).toContain('Test-E-Mail ·');
    const id = /\/panel\/settings\/notifications\/messages\/([0-9a-f-]{36})/.exec(page)![1];
    const message = (await german.get(`${PAGE}/messages/${id}`)).body;
    expect(message).toContain('<dt>Versuche</dt>');
    expect(message).toContain('<h2>Text</h2>');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'owner', 'ar');
    const page = (await arabic.get(PAGE)).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h2>رسائل العملاء</h2>');
  });
});
