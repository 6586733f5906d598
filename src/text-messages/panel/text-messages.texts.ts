import type { PanelKey, PanelText } from '../../panel-kit/i18n.js';
import type { TextKind, TextState } from '../../platform/db/schema.js';

/**
 * The text messages panel's words in the reader's language (panel catalogs, keys `texts.*`), in
 * the shape the page reads them; what a mail log shares with it (states) comes from `notif.*`.
 */
export function textPanelWords(t: PanelText['t']) {
  return {
    title: t('texts.title'),
    lead: t('texts.lead'),
    linkFromNotifications: t('texts.linkFromNotifications'),
    settings: t('texts.settings'),
    enabled: t('texts.enabled'),
    enabledHint: t('texts.enabledHint'),
    provider: t('texts.provider'),
    providers: {
      none: t('texts.provider.none'),
      twilio: 'Twilio',
      gateway: t('texts.provider.gateway'),
    },
    customerTexts: t('texts.customerTexts'),
    kinds: {
      confirmed: t('texts.kind.confirmed'),
      rescheduled: t('texts.kind.rescheduled'),
      canceled: t('texts.kind.canceled'),
      reminder: t('texts.kind.reminder'),
      test: t('texts.kind.test'),
      waitlist_offer: t('texts.kind.waitlist_offer'),
    } satisfies Record<TextKind, string>,
    reminders: t('texts.reminders'),
    remindersHint: t('texts.remindersHint'),
    firstReminder: t('notif.firstReminder'),
    secondReminder: t('notif.secondReminder'),
    whatsapp: t('texts.whatsapp'),
    consent: t('texts.consent'),
    consents: { optional: t('texts.consent.optional'), required: t('texts.consent.required') },
    sender: t('texts.sender'),
    senderHint: t('texts.senderHint'),
    accountSid: t('texts.accountSid'),
    authToken: t('texts.authToken'),
    gatewayUrl: t('texts.gatewayUrl'),
    gatewaySecret: t('texts.gatewaySecret'),
    savedSecret: t('texts.savedSecret'),
    noSecretKey: t('texts.noSecretKey'),
    save: t('texts.save'),
    hooks: t('texts.hooks'),
    hooksHint: t('texts.hooksHint'),
    twilioInbound: t('texts.twilioInbound'),
    gatewayInbound: t('texts.gatewayInbound'),
    gatewayStatus: t('texts.gatewayStatus'),
    quietHours: t('texts.quietHours'),
    quietHoursHint: t('texts.quietHoursHint'),
    quietFrom: t('texts.quietFrom'),
    quietTo: t('texts.quietTo'),
    quietSave: t('texts.quietSave'),
    test: t('texts.test'),
    testPhone: t('texts.testPhone'),
    testButton: t('texts.test'),
    preview: t('texts.preview'),
    previewHint: t('texts.previewHint'),
    segments: (n: number, encoding: string) =>
      t('texts.segments', { n, encoding: encoding === 'gsm7' ? 'GSM-7 (160/153)' : 'Unicode (70/67)' }),
    totals: t('texts.totals'),
    noTotals: t('texts.noTotals'),
    log: t('texts.log'),
    noLog: t('texts.noLog'),
    logCount: (n: number) => t('texts.logCount', { n }),
    refresh: t('notif.refresh'),
    resend: t('texts.resend'),
    sentAt: (when: string) => t('notif.sentAt', { when }),
    dueAt: (when: string) => t('notif.dueAt', { when }),
    attempts: (n: number) => t('notif.attempts', { n }),
    newer: t('notif.newer'),
    older: t('notif.older'),
    columns: {
      message: t('texts.col.message'),
      to: t('notif.colTo'),
      status: t('notif.colStatus'),
      segments: t('texts.col.segments'),
      price: t('texts.col.price'),
      answer: t('texts.col.answer'),
      month: t('texts.col.month'),
      messages: t('texts.col.messages'),
    },
    notices: {
      saved: t('texts.notice.saved'),
      test: t('texts.notice.test'),
      quiet: t('texts.notice.quiet'),
      resent: t('texts.notice.resent'),
    } as Record<string, string>,
  };
}

const TEXT_STATE: Record<TextState, { label: PanelKey; badge: string }> = {
  pending: { label: 'notif.state.queued', badge: 'pending' },
  sending: { label: 'notif.state.sending', badge: 'pending' },
  sent: { label: 'notif.state.sent', badge: 'delivered' },
  delivered: { label: 'texts.state.delivered', badge: 'delivered' },
  failed: { label: 'notif.state.failed', badge: 'given-up' },
  undelivered: { label: 'texts.state.undelivered', badge: 'given-up' },
  logged: { label: 'texts.state.logged', badge: 'pending' },
  opted_out: { label: 'texts.state.opted_out', badge: 'muted' },
  dropped: { label: 'notif.state.dropped', badge: 'muted' },
  expired: { label: 'notif.state.expired', badge: 'muted' },
};

/** A text's state in words, and the badge colour it shows in. */
export function textStateLabel(state: TextState, t: PanelText['t']): { label: string; badge: string } {
  return { label: t(TEXT_STATE[state].label), badge: TEXT_STATE[state].badge };
}

/** The customer page's line on a number's opt-out (STOP / START), in the reader's language. */
export function textOptOutWords(
  state: { optedOut: boolean; keyword: string; at: Date } | undefined,
  t: PanelText['t'],
) {
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return {
    label: t('texts.title'),
    value: !state
      ? t('texts.optOut.receives')
      : t(state.optedOut ? 'texts.optOut.out' : 'texts.optOut.in', {
          keyword: state.keyword,
          day: day(state.at),
        }),
  };
}
