import { LocationParams } from '../../locations/locations.schemas.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, DataList, NoContent, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentPaymentAccount } from '../payment-accounts.presenter.js';
import {
  PaymentAccountCreateBody,
  PaymentAccountJson,
  PaymentAccountParams,
  PaymentAccountUpdateBody,
} from '../payment-accounts.schemas.js';
import {
  archivePaymentAccount,
  createPaymentAccount,
  getPaymentAccount,
  listAccountsOfLocation,
  updatePaymentAccount,
} from '../payment-accounts.service.js';

export async function paymentAccountsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/accounts',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the payment accounts of a location (not paginated)',
        params: LocationParams,
        response: responses({ 200: DataList(PaymentAccountJson) }),
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
    {
      schema: {
        tags: ['reference'],
        summary: 'One payment account',
        params: PaymentAccountParams,
        response: responses({ 200: Data(PaymentAccountJson) }),
      },
    },
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
        response: responses({ 201: Data(PaymentAccountJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const account = await createPaymentAccount(
          uow,
          request.auth.workspace.id,
          request.params.locationUuid,
          request.body,
        );
        return { data: presentPaymentAccount(account) };
      }),
  );

  app.patch(
    '/locations/:locationUuid/accounts/:accountUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a payment account (only the fields given)',
        params: PaymentAccountParams,
        body: PaymentAccountUpdateBody,
        response: responses({ 200: Data(PaymentAccountJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const { locationUuid, accountUuid } = request.params;
        const account = await updatePaymentAccount(
          uow,
          request.auth.workspace.id,
          locationUuid,
          accountUuid,
          request.body,
        );
        return { data: presentPaymentAccount(account) };
      }),
  );

  app.delete(
    '/locations/:locationUuid/accounts/:accountUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a payment account (204, no body); payments keep referring to it',
        params: PaymentAccountParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        const { locationUuid, accountUuid } = request.params;
        await archivePaymentAccount(uow, request.auth.workspace.id, locationUuid, accountUuid);
        return undefined;
      }),
  );
}
