import type { PaymentAccountRow } from './payment-accounts.repository.js';

/** DESIGN §3 "Payment account". */
export function presentPaymentAccount(account: PaymentAccountRow) {
  return { uuid: account.id, name: account.name, type: account.type };
}
