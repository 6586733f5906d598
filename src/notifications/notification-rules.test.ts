import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BookingChange, planBookingMessages } from './booking-messages.rules.js';
import { type MailSnapshot, messageIdOf, messageKey } from './mail-message.js';
import { renderMail } from './mail-render.js';
import {
  CUSTOMER_EMAILS,
  checkSettings,
  DEFAULT_SETTINGS,
  type NotificationSettings,
  reminderTimes,
  settingsOf,
  storedSettings,
} from './notification-settings.rules.js';

const HOUR = 3_600_000;

describe('notification settings', () => {
  it('reads defaults for what a workspace never set, and ignores what it cannot read', () => {
    expect(settingsOf({})).toEqual({
      customerEmails: ['confirmed', 'rescheduled', 'canceled', 'reminder'],
      reminderMinutes: [1440],
      senderName: '',
      replyTo: '',
    });
    expect(
      settingsOf({
        customer_emails: ['completed', 'bogus'],
        reminder_minutes: [60, 'x', -5, 60, 2880, 30],
        reply_to: 'not mail',
      }),
    ).toEqual({ customerEmails: ['completed'], reminderMinutes: [2880, 60], senderName: '', replyTo: '' });
  });

  it('stores what it reads back unchanged', () => {
    fc.assert(
      fc.property(
        fc.subarray([...CUSTOMER_EMAILS]),
        fc.uniqueArray(fc.integer({ min: 1, max: 43_200 }), { maxLength: 2 }),
        fc.string({ maxLength: 20 }),
        (emails, minutes, name) => {
          const settings: NotificationSettings = {
            customerEmails: emails,
            reminderMinutes: [...minutes].sort((a, b) => b - a),
            senderName: name,
            replyTo: 'desk@example.com',
          };
          expect(settingsOf(storedSettings(settings))).toEqual(settings);
        },
      ),
    );
  });

  it.each([
    [{ reminderHours: ['24', '1.5'] }, { reminderMinutes: [1440, 90] }],
    [{ reminderHours: ['0,5', ''] }, { reminderMinutes: [30] }],
    [{ reminderHours: ['', ''] }, { reminderMinutes: [] }],
    [{ replyTo: ' Desk@Example.com ' }, { replyTo: 'desk@example.com' }],
    [{ senderName: '  Salon   Ida ' }, { senderName: 'Salon Ida' }],
  ])('accepts %j', (input, expected) => {
    const result = checkSettings({
      customerEmails: ['confirmed'],
      reminderHours: [],
      senderName: '',
      replyTo: '',
      ...input,
    });
    expect(result.errors).toEqual({});
    expect(result.settings).toMatchObject(expected);
  });

  it.each([
    [{ reminderHours: ['24', '2', '1'] }, 'reminder_hours'],
    [{ reminderHours: ['0'] }, 'reminder_hours'],
    [{ reminderHours: ['-1'] }, 'reminder_hours'],
    [{ reminderHours: ['721'] }, 'reminder_hours'],
    [{ reminderHours: ['two'] }, 'reminder_hours'],
    [{ reminderHours: ['2', '2.0'] }, 'reminder_hours'],
    [{ replyTo: 'a@b' }, 'reply_to'],
    [{ replyTo: 'Desk <desk@example.com>' }, 'reply_to'],
    [{ senderName: 'Evil <x@y.z>' }, 'sender_name'],
    [{ customerEmails: ['newsletter'] }, 'customer_emails'],
  ])('refuses %j naming %s', (input, field) => {
    const result = checkSettings({
      customerEmails: [],
      reminderHours: [],
      senderName: '',
      replyTo: '',
      ...input,
    });
    expect(result.settings).toBeUndefined();
    expect(Object.keys(result.errors)).toEqual([field]);
  });
});

describe('reminder times', () => {
  // An offset is a duration: 24 h before the start is 24 real hours earlier, whatever a DST change
  // in between does to the wall clock (the email says the start in the location's wall time).
  it.each([
    // Berlin, spring forward on 2026-03-29: 10:00 CEST (08:00Z) → the reminder at 09:00 CET the day before.
    ['2026-03-29T08:00:00Z', [1440], ['2026-03-28T08:00:00Z']],
    // Berlin, fall back on 2026-10-25: 02:30 CET (01:30Z, the second 02:30) → 2 h before is 01:30 CEST (23:30Z).
    ['2026-10-25T01:30:00Z', [120], ['2026-10-24T23:30:00Z']],
    // Kathmandu (+05:45) and Lord Howe (+10:30/+11): offsets do not round to hours.
    ['2026-06-01T04:15:00Z', [1440, 45], ['2026-05-31T04:15:00Z', '2026-06-01T03:30:00Z']],
    ['2026-04-05T14:30:00Z', [90], ['2026-04-05T13:00:00Z']],
  ])('a booking at %s with offsets %j is reminded at %j', (start, offsets, expected) => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(
      reminderTimes(Date.parse(start), offsets, now).map((r) =>
        new Date(r.at).toISOString().replace('.000', ''),
      ),
    ).toEqual(expected);
  });

  it('leaves out reminders not after now, and never plans one at or after the start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.integer({ min: -(10 ** 9), max: 10 ** 9 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 43_200 }), { maxLength: 2 }),
        (start, nowDelta, offsets) => {
          const now = start + nowDelta;
          const times = reminderTimes(start, offsets, now);
          for (const reminder of times) {
            expect(reminder.at).toBe(start - reminder.minutes * 60_000);
            expect(reminder.at).toBeGreaterThan(now);
            expect(reminder.at).toBeLessThan(start);
          }
          expect(times.length).toBe(offsets.filter((m) => start - m * 60_000 > now).length);
        },
      ),
    );
  });
});

describe('which emails a change makes', () => {
  const now = Date.parse('2026-09-01T08:00:00Z');
  const start = now + 3 * 24 * HOUR;
  const staff = {
    stafferId: 'st-1',
    email: 'anna@example.com',
    wants: ['new', 'changed', 'canceled'] as const,
  };
  const plan = (change: BookingChange, over: Partial<Parameters<typeof planBookingMessages>[0]> = {}) =>
    planBookingMessages({
      change,
      settings: DEFAULT_SETTINGS,
      customerEmail: 'ida@example.com',
      staff: { ...staff, wants: [...staff.wants] },
      start,
      now,
      ...over,
    });
  const kinds = (change: BookingChange, over = {}) => plan(change, over).messages.map((m) => m.kind);

  it.each<[BookingChange, string[], boolean]>([
    ['created', ['confirmed', 'reminder', 'staff_new'], false],
    ['rescheduled', ['rescheduled', 'reminder', 'staff_changed'], true],
    ['staffer_changed', ['reminder', 'staff_new'], true],
    ['services_changed', ['reminder', 'staff_changed'], true],
    ['status_changed', ['reminder'], true],
    ['completed', [], true],
    ['canceled', ['canceled', 'staff_canceled'], true],
    ['note_added', [], false],
  ])('%s → %j (drops pending reminders: %s)', (change, expected, drops) => {
    expect(kinds(change)).toEqual(expected);
    expect(plan(change).dropReminders).toBe(drops);
  });

  it('sends completed only when switched on, and nothing to a customer without an email', () => {
    expect(kinds('completed', { settings: { ...DEFAULT_SETTINGS, customerEmails: ['completed'] } })).toEqual([
      'completed',
    ]);
    expect(kinds('created', { customerEmail: '' })).toEqual(['staff_new']);
    expect(kinds('created', { customerEmail: '', staff: null })).toEqual([]);
  });

  it('follows the staffer’s own choice', () => {
    expect(kinds('rescheduled', { staff: { ...staff, wants: ['new'] } })).toEqual([
      'rescheduled',
      'reminder',
    ]);
  });

  it('never plans a message to nobody, nor a reminder due before now or after the start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BookingChange>(
          'created',
          'rescheduled',
          'staffer_changed',
          'services_changed',
          'status_changed',
          'completed',
          'canceled',
          'note_added',
        ),
        fc.subarray([...CUSTOMER_EMAILS]),
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 2 }),
        fc.constantFrom('', 'c@example.com'),
        fc.integer({ min: -HOUR, max: 10 * 24 * HOUR }),
        (change, emails, minutes, customerEmail, ahead) => {
          const result = planBookingMessages({
            change,
            settings: { ...DEFAULT_SETTINGS, customerEmails: emails, reminderMinutes: minutes },
            customerEmail,
            staff: null,
            start: now + ahead,
            now,
          });
          for (const message of result.messages) {
            expect(message.recipient).toBe(customerEmail);
            expect(emails).toContain(message.kind);
            if (message.kind === 'reminder') {
              expect(message.dueAt).toBeGreaterThan(now);
              expect(message.dueAt).toBeLessThan(now + ahead);
            } else expect(message.dueAt).toBe(now);
          }
          // One customer email per change at most, plus its reminders.
          expect(result.messages.filter((m) => m.kind !== 'reminder').length).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('the message as it goes out', () => {
  const snapshot = (over: Partial<MailSnapshot> = {}): MailSnapshot => ({
    audience: 'customer',
    workspaceName: 'Salon Ida',
    workspaceSlug: 'salon-ida',
    locale: 'en-US',
    senderName: '',
    replyTo: '',
    bookingId: '5f0c9d5e-1111-4222-8333-944445555666',
    manageToken: 'TOKEN',
    customerName: 'Max Muster',
    customerEmail: 'max@example.com',
    customerPhone: '+4915112345678',
    services: 'Haircut',
    staffer: 'Anna Stylist',
    location: 'Main branch',
    address: 'Hauptstr. 1, 10115 Berlin',
    zone: 'Europe/Berlin',
    start: '2026-10-25T01:30:00.000Z',
    end: '2026-10-25T02:30:00.000Z',
    ...over,
  });
  const context = {
    publicBase: 'https://book.example',
    from: { name: 'Salon Ida', address: 'no-reply@salon.example' },
  };

  // Wall times and offsets written by hand for each zone and instant.
  it.each([
    // The second 02:30 of the fall-back night in Berlin is in winter time.
    ['Europe/Berlin', '2026-10-25T01:30:00.000Z', 'en-US', /2:30\sAM \(GMT\+1\), Berlin \(Europe\/Berlin\)/],
    ['Europe/Berlin', '2026-10-25T00:30:00.000Z', 'en-US', /2:30\sAM \(GMT\+2\), Berlin \(Europe\/Berlin\)/],
    [
      'Europe/Berlin',
      '2026-03-29T08:00:00.000Z',
      'de-DE',
      /Sonntag, 29\. März 2026 um 10:00 \(GMT\+2\), Berlin \(Europe\/Berlin\)/,
    ],
    [
      'Asia/Kathmandu',
      '2026-06-01T04:15:00.000Z',
      'en-US',
      /10:00\sAM \(GMT\+5:45\), Kathmandu \(Asia\/Kathmandu\)/,
    ],
    [
      'Australia/Lord_Howe',
      '2026-01-10T23:00:00.000Z',
      'en-US',
      /10:00\sAM \(GMT\+11\), Lord Howe \(Australia\/Lord_Howe\)/,
    ],
    [
      'Australia/Lord_Howe',
      '2026-07-10T23:30:00.000Z',
      'en-US',
      /10:00\sAM \(GMT\+10:30\), Lord Howe \(Australia\/Lord_Howe\)/,
    ],
  ])('in %s, %s reads as its wall time with the zone named (%s)', (zone, start, locale, expected) => {
    const mail = renderMail('confirmed', 1, snapshot({ zone, start, end: start, locale }), context);
    expect(mail.text).toMatch(expected);
    expect(mail.subject).toMatch(expected);
  });

  it('speaks the workspace language when the booking has none: German for de-*, English when unsupported', () => {
    expect(
      renderMail('reminder', 2, snapshot({ locale: 'de-AT', reminderMinutes: 1440 }), context).text,
    ).toContain('Sie beginnt in 1 Tag.');
    expect(renderMail('canceled', 2, snapshot({ locale: 'fr-FR' }), context).subject).toMatch(
      /^Réservation annulée :/,
    );
    expect(renderMail('canceled', 2, snapshot({ locale: 'ja-JP' }), context).subject).toMatch(
      /^Booking canceled:/,
    );
  });

  it('speaks to the customer in the language they booked in, and to staff in the workspace’s', () => {
    const booked = snapshot({ locale: 'de-DE', language: 'pl', reminderMinutes: 120 });
    const mail = renderMail('reminder', 2, booked, context);
    expect(mail.subject).toMatch(/^Przypomnienie:/);
    expect(mail.text).toContain('Zaczyna się za 2 godziny.');
    expect(mail.html).toContain('<html lang="pl" dir="ltr">');
    // The manage page opens in that language too, whatever the browser following the link says.
    expect(mail.text).toMatch(/\/manage\/[^\s]+\?lang=pl\n/);
    const staff = renderMail('staff_new', 2, { ...booked, audience: 'staff' }, context);
    expect(staff.subject).toMatch(/^Neue Buchung:/);
  });

  it('lays Arabic emails out right to left', () => {
    const mail = renderMail('confirmed', 1, snapshot({ language: 'ar' }), context);
    expect(mail.subject).toMatch(/^تم تأكيد الحجز:/);
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain('text-align:right');
  });

  it('escapes what customers typed in the HTML part', () => {
    const mail = renderMail(
      'confirmed',
      1,
      snapshot({ customerName: '<img src=x onerror=alert(1)>' }),
      context,
    );
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('derives one Message-ID per booking, kind, revision and variant', () => {
    const key = messageKey({ bookingId: 'b1', kind: 'reminder', revision: 3, variant: 'm1440' });
    expect(messageIdOf(key, 'studio.example')).toBe('<b1.reminder.r3.m1440@studio.example>');
    expect(messageKey({ bookingId: 'b1', kind: 'reminder', revision: 4, variant: 'm1440' })).not.toBe(key);
  });
});
