import type { ApiApp, AppDeps } from '../http/types.js';
import { LocationParams } from '../locations/locations.schemas.js';
import { presentPaymentAccount } from './payment-accounts.presenter.js';
import {
  PaymentAccountCreateBody,
  PaymentAccountParams,
  PaymentAccountUpdateBody,
} from './payment-accounts.schemas.js';
import {
  archivePaymentAccount,
  createPaymentAccount,
  getPaymentAccount,
  listAccountsOfLocation,
  updatePaymentAccount,
} from './payment-accounts.service.js';

export async function paymentAccountsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/accounts',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the payment accounts of a location (not paginated)',
        params: LocationParams,
      },
    },
    async (request) => {
      const accounts = await listAccountsOfLocation(
        deps.db,
        request.auth.workspace.id,
        request.params.locationUuid,
      );
      return { data: accounts.map(presentPaymentAccount) };
    },
  );

  app.get(
    '/locations/:locationUuid/accounts/:accountUuid',
    { schema: { tags: ['reference'], summary: 'One payment account', params: PaymentAccountParams } },
    async (request) => {
      const { locationUuid, accountUuid } = request.params;
      const account = await getPaymentAccount(deps.db, request.auth.workspace.id, locationUuid, accountUuid);
      return { data: presentPaymentAccount(account) };
    },
  );

  app.post(
    '/locations/:locationUuid/accounts',
    {
      schema: {
        tags: ['management'],
        summary: 'Create a payment account at a location (201)',
        params: LocationParams,
        body: PaymentAccountCreateBody,
      },
    },
    async (request, reply) => {
      const account = await createPaymentAccount(
        deps.db,
        request.auth.workspace.id,
        request.params.locationUuid,
        request.body,
      );
      return reply.status(201).send({ data: presentPaymentAccount(account) });
    },
  );

  app.patch(
    '/locations/:locationUuid/accounts/:accountUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a payment account (only the fields given)',
        params: PaymentAccountParams,
        body: PaymentAccountUpdateBody,
      },
    },
    async (request) => {
      const { locationUuid, accountUuid } = request.params;
      const account = await updatePaymentAccount(
        deps.db,
        request.auth.workspace.id,
        locationUuid,
        accountUuid,
        request.body,
      );
      return { data: presentPaymentAccount(account) };
    },
  );

  app.delete(
    '/locations/:locationUuid/accounts/:accountUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a payment account (204, no body); payments keep referring to it',
        params: PaymentAccountParams,
      },
    },
    async (request, reply) => {
      const { locationUuid, accountUuid } = request.params;
      await archivePaymentAccount(deps.db, request.auth.workspace.id, locationUuid, accountUuid);
      return reply.status(204).send();
    },
  );
}
