import type { TextKind, TextState } from '../../platform/db/schema.js';

/**
 * The text messages panel's words, in English, kept apart from the page so they can be
 * translated as one catalog later.
 */
export const TEXT_PANEL = {
  title: 'Text messages',
  lead: 'SMS and WhatsApp messages to your customers: confirmations, changes, cancels and reminders. Each is queued with the booking change it tells of, sent by the worker through the provider you choose, and shown in the message log below.',
  linkFromNotifications: 'Text messages (SMS and WhatsApp): provider, test message and message log',
  settings: 'Settings',
  enabled: 'Send text messages to customers',
  enabledHint: 'Off: no text is queued and the booking page asks no consent.',
  provider: 'Provider',
  providers: {
    none: 'None (log only)',
    twilio: 'Twilio',
    gateway: 'My HTTP gateway',
  },
  customerTexts: 'Send these texts',
  kinds: {
    confirmed: 'Booking confirmed',
    rescheduled: 'Booking moved',
    canceled: 'Booking canceled',
    reminder: 'Reminders before the start',
    test: 'Test message',
  } satisfies Record<TextKind, string>,
  reminders: 'Reminders (hours before the start)',
  remindersHint:
    'The texts’ own schedule, beside the emails’. A reminder due in a location’s quiet hours (21:00–08:00 local unless set) goes when they end.',
  firstReminder: 'First reminder (hours)',
  secondReminder: 'Second reminder (hours)',
  whatsapp: 'Send through WhatsApp instead of SMS',
  consent: 'Consent on the booking page',
  consents: { optional: 'Optional checkbox', required: 'Required to book' },
  sender: 'Sender',
  senderHint:
    'A number like +14155550100, a Twilio messaging service (MG…) or a sender name of up to 11 letters.',
  accountSid: 'Twilio Account SID',
  authToken: 'Twilio auth token',
  gatewayUrl: 'Gateway URL',
  gatewaySecret: 'Gateway signing secret (whsec_…)',
  savedSecret: 'Saved, encrypted. Leave empty to keep it.',
  noSecretKey:
    'This server has no SECRET_KEY: provider credentials cannot be saved. Set SECRET_KEY (at least 32 characters, the same on every process) and restart.',
  save: 'Save text settings',
  hooks: 'Addresses to give your provider',
  hooksHint:
    'Incoming messages (STOP, START, C to confirm, cancel words) and delivery reports come here, signed.',
  twilioInbound: 'Twilio: “A message comes in” webhook of your number',
  gatewayInbound: 'Gateway: incoming messages',
  gatewayStatus: 'Gateway: delivery reports (each message also names its own)',
  quietHours: 'Quiet hours',
  quietHoursHint:
    'Per location, in its own time: a reminder due inside them goes when they end. Default 21:00–08:00.',
  quietFrom: 'From',
  quietTo: 'To',
  quietSave: 'Save quiet hours',
  test: 'Send a test message',
  testPhone: 'Mobile number',
  testButton: 'Send a test message',
  preview: 'Preview',
  previewHint:
    'As a customer reads them, for a sample booking; the length decides how many SMS segments are billed.',
  segments: (n: number, encoding: string) =>
    `${n} segment${n === 1 ? '' : 's'} · ${encoding === 'gsm7' ? 'GSM-7 (160/153)' : 'Unicode (70/67)'}`,
  totals: 'Monthly totals',
  noTotals: 'No message has left yet.',
  log: 'Message log',
  noLog: 'No text messages yet.',
  logCount: (n: number) => `${n} message${n === 1 ? '' : 's'}, newest first.`,
  refresh: 'Refresh',
  resend: 'Send again',
  columns: {
    message: 'Message',
    to: 'To',
    status: 'Status',
    segments: 'Segments',
    price: 'Price',
    answer: 'Provider answer',
    month: 'Month',
    messages: 'Messages',
  },
  notices: {
    saved: 'The text message settings are saved.',
    test: 'A test message is queued; it shows in the message log below once the worker has taken it.',
    quiet: 'The quiet hours are saved.',
    resent: 'The text is queued to be sent again.',
  } as Record<string, string>,
} as const;

export const TEXT_STATE_LABEL: Record<TextState, { label: string; badge: string }> = {
  pending: { label: 'queued', badge: 'pending' },
  sending: { label: 'sending', badge: 'pending' },
  sent: { label: 'sent', badge: 'delivered' },
  delivered: { label: 'delivered', badge: 'delivered' },
  failed: { label: 'failed', badge: 'given-up' },
  undelivered: { label: 'undelivered', badge: 'given-up' },
  logged: { label: 'not sent (no provider)', badge: 'pending' },
  opted_out: { label: 'not sent (opted out)', badge: 'muted' },
  dropped: { label: 'dropped', badge: 'muted' },
  expired: { label: 'too late', badge: 'muted' },
};

/** The customer page's line on a number's opt-out (STOP / START), in English. */
export function textOptOutWords(state: { optedOut: boolean; keyword: string; at: Date } | undefined) {
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return {
    label: 'Text messages',
    value: !state
      ? 'Receives texts'
      : state.optedOut
        ? `Opted out (replied “${state.keyword}” on ${day(state.at)}): receives no texts`
        : `Opted in again (replied “${state.keyword}” on ${day(state.at)})`,
  };
}
