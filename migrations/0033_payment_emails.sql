-- The customer's emails about money (docs/payments.md): a payment, deposit or fee taken, a refund
-- made, a charge that failed. Each is queued from its payment event, once.
ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check;
ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
  CHECK (kind IN ('confirmed', 'rescheduled', 'canceled', 'completed', 'reminder', 'staff_new',
                  'staff_changed', 'staff_canceled', 'test', 'payment_received', 'payment_refunded',
                  'payment_failed'));
