import { FieldErrorBag, notFound, REQUIRED } from '../errors.js';
import { requireLocation } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import {
  archivePaymentAccountRow,
  findPaymentAccount,
  insertPaymentAccount,
  listAllPaymentAccounts,
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
  uow: UnitOfWork,
  workspaceId: string,
  locationId: string,
  body: PaymentAccountCreateBody,
): Promise<PaymentAccountRow> {
  return uow.run(workspaceId, async (tx) => {
    await requireLocation(tx, workspaceId, locationId);
    const values = toValues(body);
    return insertPaymentAccount(tx, workspaceId, locationId, { ...values, name: values.name! });
  });
}

export async function updatePaymentAccount(
  uow: UnitOfWork,
  workspaceId: string,
  locationId: string,
  accountId: string,
  body: PaymentAccountUpdateBody,
): Promise<PaymentAccountRow> {
  return uow.run(workspaceId, async (tx) => {
    await getPaymentAccount(tx, workspaceId, locationId, accountId);
    const account = await updatePaymentAccountRow(tx, workspaceId, locationId, accountId, toValues(body));
    if (!account) throw notFound('Payment account');
    return account;
  });
}

export async function archivePaymentAccount(
  uow: UnitOfWork,
  workspaceId: string,
  locationId: string,
  accountId: string,
): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    await requireLocation(tx, workspaceId, locationId);
    if (!(await archivePaymentAccountRow(tx, workspaceId, locationId, accountId))) {
      throw notFound('Payment account');
    }
  });
}

function toValues(body: PaymentAccountUpdateBody): PaymentAccountValues {
  const errors = new FieldErrorBag();
  const values: PaymentAccountValues = {};
  if (body.name !== undefined) {
    if (body.name.trim() === '') errors.add('name', 'The name field is required.', REQUIRED);
    values.name = body.name.trim();
  }
  if (body.type !== undefined) values.type = body.type;
  errors.throwIfAny();
  return values;
}

/** Every payment account of the workspace by location, archived ones last (the panel's list). */
export function listPaymentAccountsWithArchived(db: Db, workspaceId: string): Promise<PaymentAccountRow[]> {
  return listAllPaymentAccounts(db, workspaceId);
}

/**
 * The accounts of a location whether it is live or not: a booking's page names the accounts of
 * its location even after the location was archived.
 */
export function listAccountsAtLocation(db: Db, workspaceId: string, locationId: string) {
  return listPaymentAccounts(db, workspaceId, locationId);
}
