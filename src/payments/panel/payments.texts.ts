import type { PanelText } from '../../panel-kit/i18n.js';

/** The Stripe events the webhook endpoint needs (the names Stripe's dashboard lists). */
const WEBHOOK_EVENTS =
  'checkout.session.completed, checkout.session.expired, payment_intent.succeeded, payment_intent.payment_failed, refund.created, refund.updated';

/**
 * Settings → Payments in the reader's language (panel catalogs, keys `payments.*`), in the shape
 * the page reads them.
 */
export function paymentsPanelWords(t: PanelText['t']) {
  return {
    title: t('nav.payments'),
    lead: t('payments.lead'),
    status: t('payments.status'),
    notConnected: t('payments.notConnected'),
    connectedTo: t('payments.connectedTo'),
    holdMinutes: t('payments.holdMinutes'),
    holdHint: t('payments.holdHint'),
    connect: t('payments.connect'),
    reconnect: t('payments.reconnect'),
    secretKey: t('payments.secretKey'),
    webhookSecret: t('payments.webhookSecret'),
    keysHint: t('payments.keysHint'),
    webhook: t('payments.webhook'),
    webhookHint: t('payments.webhookHint', { events: WEBHOOK_EVENTS }),
    disconnect: t('payments.disconnect'),
    noSecretKey: t('payments.noSecretKey'),
    notices: {
      connected: t('payments.connected'),
      disconnected: t('payments.disconnected'),
    } as Record<string, string>,
  };
}
