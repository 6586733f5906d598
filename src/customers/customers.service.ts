import { FieldErrorBag } from '../errors.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { type CustomerRow, upsertCustomerRow } from './customers.repository.js';
import { normalizePhone } from './phone.rules.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CreateCustomerInput {
  phone: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
}

/**
 * POST /customers: find the customer by phone, or create one. For an existing
 * customer, names and email fill only fields that are still empty, as a booking create does.
 */
export async function findOrCreateCustomer(
  uow: UnitOfWork,
  workspaceId: string,
  input: CreateCustomerInput,
): Promise<{ customer: CustomerRow; created: boolean }> {
  const errors = new FieldErrorBag();
  const phone = normalizePhone(input.phone);
  if (phone === undefined) {
    errors.add(
      'phone',
      'The phone field must be a valid phone number in international format, e.g. +4915112345678.',
    );
  }
  const email = input.email?.trim();
  if (email && !EMAIL_PATTERN.test(email))
    errors.add('email', 'The email field must be a valid email address.');
  errors.throwIfAny();
  return uow.run(workspaceId, (tx) =>
    upsertCustomerRow(tx, workspaceId, {
      phone: phone!,
      first_name: input.first_name?.trim(),
      last_name: input.last_name?.trim(),
      email,
    }),
  );
}
