import type { PaymentAccountRow } from './payment-accounts.repository.js';

/** A payment account as the API answers it: `uuid, name, type`. */
export function presentPaymentAccount(account: PaymentAccountRow) {
  return { uuid: account.id, name: account.name, type: account.type };
}
