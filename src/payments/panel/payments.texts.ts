/**
 * Settings → Payments, in English, kept apart from the page so it can be translated as one catalog
 * (as the text messages page is; the panel's catalogs in src/panel-kit/messages/ hold its nav).
 */
export const PAYMENTS_PANEL = {
  title: 'Payments',
  lead: 'Take a deposit, the full price or a card on file when customers book, and charge late-cancel and no-show fees, through your own Stripe account. Card details never reach this server: customers pay on Stripe’s page.',
  status: 'Status',
  notConnected: 'No payment provider connected: bookings are confirmed without payment, as before.',
  connectedTo: 'Connected to Stripe account',
  holdMinutes: 'Unpaid bookings hold their slot for (minutes)',
  holdHint: 'After this, an unpaid booking is canceled (reason: abandoned) and its slot is free again.',
  connect: 'Connect Stripe',
  reconnect: 'Replace the keys',
  secretKey: 'Secret key (sk_live_… or sk_test_…)',
  webhookSecret: 'Webhook signing secret (whsec_…)',
  keysHint: 'Checked with Stripe before they are saved, then stored encrypted and never shown again.',
  webhook: 'Webhook endpoint to add in Stripe',
  webhookHint:
    'Events: checkout.session.completed, checkout.session.expired, payment_intent.succeeded, payment_intent.payment_failed, refund.created, refund.updated.',
  disconnect: 'Disconnect Stripe',
  noSecretKey:
    'This server has no SECRET_KEY: provider keys cannot be saved. Set SECRET_KEY (at least 32 characters, the same on every process) and restart.',
  notices: {
    connected: 'Stripe is connected: the keys work and are saved.',
    disconnected: 'Stripe is disconnected.',
  } as Record<string, string>,
};
