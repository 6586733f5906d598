import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { getLocation, listLocationsWithArchived } from '../../locations/locations.service.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { PaymentAccountCreateBody, PaymentAccountUpdateBody } from '../payment-accounts.schemas.js';
import {
  archivePaymentAccount,
  createPaymentAccount,
  getPaymentAccount,
  listPaymentAccountsWithArchived,
  updatePaymentAccount,
} from '../payment-accounts.service.js';
import { ACCOUNTS, PaymentAccountFormPage, PaymentAccountsPage } from './payment-accounts.page.js';

const access = { config: { panelAccess: 'setup' as const } };

const NOTICES: Record<string, PanelKey> = {
  created: 'accounts.created',
  saved: 'accounts.saved',
  archived: 'accounts.archived',
};

const valuesOf = (body: unknown): FormState['values'] => ({
  name: str(body, 'name'),
  type: str(body, 'type'),
});
const bodyOf = (values: FormState['values']) => ({
  name: values.name as string,
  type: values.type as string,
});

/**
 * Setup → Payment accounts (owners and admins): each live location's accounts, written through
 * the services of /locations/{uuid}/accounts with the same schemas; archived, never deleted.
 */
export function paymentAccountsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/setup/payment-accounts', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    const [locations, accounts] = await Promise.all([
      listLocationsWithArchived(deps.db, workspaceId),
      listPaymentAccountsWithArchived(deps.db, workspaceId),
    ]);
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.paymentAccounts'),
      body: PaymentAccountsPage({
        // An archived location's accounts go with it: no booking there can be completed any more.
        locations: locations
          .filter((location) => location.archived_at === null)
          .map((location) => ({
            location: { id: location.id, name: location.name },
            accounts: accounts.filter((account) => account.location_id === location.id),
          })),
        ...noticeOf(request.query, noticesIn(text, NOTICES)),
        text,
      }),
    });
  });

  panel.get('/setup/payment-accounts/:locationId/new', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('accounts.add'),
      body: PaymentAccountFormPage({
        form: emptyForm({ type: 'cash' }),
        csrf: reply.csrf(),
        location: { id: location.id, name: location.name },
        text,
      }),
    });
  });

  panel.post('/setup/payment-accounts/:locationId', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const text = panelTextOf(request);
    const values = valuesOf(request.body);
    const body = bodyOf(values);
    try {
      throwIfInvalid(schemaErrorsOf(PaymentAccountCreateBody, body), {});
      // The form's key: a double click adds one account.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await createPaymentAccount(uow, session.workspace.id, location.id, body as PaymentAccountCreateBody);
        return `${ACCOUNTS}?notice=created`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: text.t('accounts.add'),
        status: 422,
        body: PaymentAccountFormPage({
          form: { values, errors: formErrorsOf(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          location: { id: location.id, name: location.name },
          text,
        }),
      });
    }
  });

  panel.get('/setup/payment-accounts/:locationId/:accountId', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const text = panelTextOf(request);
    const account = await getPaymentAccount(
      deps.db,
      session.workspace.id,
      location.id,
      uuidParam(request, 'accountId'),
    );
    return reply.page({
      title: account.name,
      body: PaymentAccountFormPage({
        form: emptyForm({ name: account.name, type: account.type }),
        csrf: reply.csrf(),
        location: { id: location.id, name: location.name },
        account: { id: account.id, name: account.name },
        text,
      }),
    });
  });

  panel.post('/setup/payment-accounts/:locationId/:accountId', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const text = panelTextOf(request);
    // 404 before 422: an account that is not there (archived, another location's) has no form.
    const account = await getPaymentAccount(
      deps.db,
      session.workspace.id,
      location.id,
      uuidParam(request, 'accountId'),
    );
    const values = valuesOf(request.body);
    const body = bodyOf(values);
    try {
      throwIfInvalid(schemaErrorsOf(PaymentAccountUpdateBody, body), {});
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updatePaymentAccount(
          uow,
          session.workspace.id,
          location.id,
          account.id,
          body as PaymentAccountUpdateBody,
        );
        return `${ACCOUNTS}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: account.name,
        status: 422,
        body: PaymentAccountFormPage({
          form: { values, errors: formErrorsOf(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          location: { id: location.id, name: location.name },
          account: { id: account.id, name: account.name },
          text,
        }),
      });
    }
  });

  panel.post('/setup/payment-accounts/:locationId/:accountId/archive', access, async (request, reply) => {
    const session = sessionOf(request);
    // The form's key: a repeat gets the first redirect, not a 404 for the account it archived.
    return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
      await archivePaymentAccount(
        uow,
        session.workspace.id,
        uuidParam(request, 'locationId'),
        uuidParam(request, 'accountId'),
      );
      return `${ACCOUNTS}?notice=archived`;
    });
  });
}
