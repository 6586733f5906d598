/** One movement of a booking's money as its order lists it (migrations/0028_payments.sql). */
export interface MoneyMovement {
  kind: string;
  amount: number;
  status: string;
}

/**
 * What the business holds of a booking's money: succeeded payments, deposits and fees, less
 * succeeded refunds (amounts are positive; a refund is its kind). Pending and failed ones count
 * for nothing. The order's `amount_paid`, the bookings export and the payment rules all read it
 * here, and the reports' revenue sums the same in SQL (src/reports/reports.repository.ts).
 */
export function netPaid(movements: readonly MoneyMovement[]): number {
  let held = 0;
  for (const movement of movements) {
    if (movement.status !== 'succeeded') continue;
    held += movement.kind === 'refund' ? -movement.amount : movement.amount;
  }
  return held;
}
