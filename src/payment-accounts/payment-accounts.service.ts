import type { Db } from '../db/client.js';
import { FieldErrorBag, notFound } from '../errors.js';
import { requireLocation } from '../locations/locations.repository.js';
import {
  archivePaymentAccountRow,
  findPaymentAccount,
  insertPaymentAccount,
  listPaymentAccounts,
  type PaymentAccountRow,
  type PaymentAccountValues,
  updatePaymentAccountRow,
} from './payment-accounts.repository.js';
import type { PaymentAccountCreateBody, PaymentAccountUpdateBody } from './payment-accounts.schemas.js';

// Every operation first requires the location to be live: an archived or foreign location's
// accounts answer 404 exactly like an unknown location.

export async function listAccountsOfLocation(
  db: Db,
  workspaceId: string,
  locationId: string,
): Promise<PaymentAccountRow[]> {
  await requireLocation(db, workspaceId, locationId);
  return listPaymentAccounts(db, workspaceId, locationId);
}

export async function getPaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  accountId: string,
): Promise<PaymentAccountRow> {
  await requireLocation(db, workspaceId, locationId);
  const account = await findPaymentAccount(db, workspaceId, locationId, accountId);
  if (!account) throw notFound('Payment account');
  return account;
}

export async function createPaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  body: PaymentAccountCreateBody,
): Promise<PaymentAccountRow> {
  await requireLocation(db, workspaceId, locationId);
  const values = toValues(body);
  return insertPaymentAccount(db, workspaceId, locationId, { ...values, name: values.name! });
}

export async function updatePaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  accountId: string,
  body: PaymentAccountUpdateBody,
): Promise<PaymentAccountRow> {
  await getPaymentAccount(db, workspaceId, locationId, accountId);
  const account = await updatePaymentAccountRow(db, workspaceId, locationId, accountId, toValues(body));
  if (!account) throw notFound('Payment account');
  return account;
}

export async function archivePaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  accountId: string,
): Promise<void> {
  await requireLocation(db, workspaceId, locationId);
  if (!(await archivePaymentAccountRow(db, workspaceId, locationId, accountId))) {
    throw notFound('Payment account');
  }
}

function toValues(body: PaymentAccountUpdateBody): PaymentAccountValues {
  const errors = new FieldErrorBag();
  const values: PaymentAccountValues = {};
  if (body.name !== undefined) {
    if (body.name.trim() === '') errors.add('name', 'The name field is required.');
    values.name = body.name.trim();
  }
  if (body.type !== undefined) values.type = body.type;
  errors.throwIfAny();
  return values;
}
