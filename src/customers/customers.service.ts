import { listBookingViews, locationNamesOf } from '../bookings/bookings.repository.js';
import { FieldErrorBag, notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { CustomerSearch } from './customer-search.rules.js';
import {
  type CustomerRow,
  customerPaidTotal,
  requireCustomer,
  searchCustomers,
  updateCustomerRow,
  upsertCustomerRow,
} from './customers.repository.js';
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
      { kind: 'invalid_phone' },
    );
  }
  const email = input.email?.trim();
  if (email && !EMAIL_PATTERN.test(email))
    errors.add('email', 'The email field must be a valid email address.', { kind: 'invalid_email' });
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

/** One page of the workspace's customers matching `search` (all of them without one), with their total. */
export function searchCustomersPage(
  db: Db,
  workspaceId: string,
  search: CustomerSearch | undefined,
  page: { perPage: number; offset: number },
) {
  return searchCustomers(db, workspaceId, search, page);
}

/** A customer of the workspace; a 404 otherwise. */
export function getCustomer(db: Db, workspaceId: string, customerId: string): Promise<CustomerRow> {
  return requireCustomer(db, workspaceId, customerId);
}

/**
 * A customer's bookings, newest first, one page of them with their total, the names of their
 * locations, and what the customer has paid in all (minor units).
 */
export async function customerBookings(
  db: Db,
  workspaceId: string,
  customerId: string,
  page: { perPage: number; offset: number },
) {
  const [{ rows, total }, paid] = await Promise.all([
    listBookingViews(db, workspaceId, { customer_uuid: customerId }, page, 'newest-first'),
    customerPaidTotal(db, workspaceId, customerId),
  ]);
  const locationNames = await locationNamesOf(
    db,
    workspaceId,
    rows.map((row) => row.location_id),
  );
  return { rows, total, paid, locationNames };
}

/** Changes a customer's names or email (the import's update of an existing customer). */
export async function updateCustomerDetails(
  uow: UnitOfWork,
  workspaceId: string,
  customerId: string,
  changes: { first_name?: string; last_name?: string; email?: string },
  now: number,
): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    if (!(await updateCustomerRow(tx, workspaceId, customerId, changes, new Date(now))))
      throw notFound('Customer');
  });
}
