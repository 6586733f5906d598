import type { FastifyInstance } from 'fastify';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { pageParam } from '../../panel-kit/list-pager.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { formatMoney } from '../../platform/money.js';
import { textOptOutWords } from '../../text-messages/panel/text-messages.texts.js';
import { textOptOutState } from '../../text-messages/text-settings.service.js';
import { can } from '../../users/roles.js';
import { eraseCustomer, exportCustomerData } from '../customer-data.service.js';
import { customerSearchOf, MAX_SEARCH_LENGTH } from '../customer-search.rules.js';
import { customerBookings, getCustomer, searchCustomersPage } from '../customers.service.js';
import { CUSTOMERS, CustomerPage, CustomersPage, EraseCustomerPage, nameOf } from './customers.page.js';

const access = { config: { panelAccess: 'bookings' as const } };
/** A customer's data as a whole (export, erasure): owners and admins, as the workspace settings. */
const dataAccess = { config: { panelAccess: 'settings' as const } };
const PER_PAGE = 25;

/** Customers (every role): the list with search by name or phone, and each customer's bookings and totals. */
export function customersPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/customers', access, async (request, reply) => {
    const raw = (request.query as Record<string, unknown>).q;
    const q = typeof raw === 'string' ? raw.trim().slice(0, MAX_SEARCH_LENGTH) : '';
    const page = pageParam(request.query);
    const { rows, total } = await searchCustomersPage(
      deps.db,
      sessionOf(request).workspace.id,
      customerSearchOf(q),
      {
        perPage: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
      },
    );
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('customers.title'),
      body: CustomersPage({ q, customers: rows, page, perPage: PER_PAGE, total, text }),
    });
  });

  panel.get('/customers/:customerUuid', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    const customer = await getCustomer(deps.db, workspaceId, uuidParam(request, 'customerUuid'));
    const { workspace } = await panelContextOf(request);
    const page = pageParam(request.query);
    const { rows, total, paid, locationNames } = await customerBookings(deps.db, workspaceId, customer.id, {
      perPage: PER_PAGE,
      offset: (page - 1) * PER_PAGE,
    });
    const text = panelTextOf(request);
    const money = (minor: number) => formatMoney(minor, workspace.currency, text.locale);
    const erasedNotice = (request.query as Record<string, unknown>).notice === 'erased';
    const optOut = await textOptOutState(deps.db, workspaceId, customer.phone);
    return reply.page({
      title: nameOf(customer),
      body: CustomerPage({
        customer,
        bookings: rows,
        page,
        perPage: PER_PAGE,
        total,
        paidTotal: money(paid),
        money,
        locationNames,
        manageData: can(sessionOf(request).workspace.role, 'settings'),
        notice: erasedNotice && customer.erased_at ? text.t('customers.erasedNotice') : undefined,
        textMessages: textOptOutWords(optOut, text.t),
        text,
      }),
    });
  });

  panel.get('/customers/:customerUuid/export.json', dataAccess, async (request, reply) => {
    const context = await panelContextOf(request);
    const customerId = uuidParam(request, 'customerUuid');
    const document = await exportCustomerData({ ...context, db: deps.db, uow: deps.uow }, customerId);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="customer-${customerId}.json"`)
      .send(JSON.stringify(document, null, 2));
  });

  panel.get('/customers/:customerUuid/erase', dataAccess, async (request, reply) => {
    const customer = await getCustomer(
      deps.db,
      sessionOf(request).workspace.id,
      uuidParam(request, 'customerUuid'),
    );
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('customers.eraseTitle', { name: nameOf(customer) }),
      body: EraseCustomerPage({ customer, csrf: reply.csrf(), text }),
    });
  });

  panel.post('/customers/:customerUuid/erase', dataAccess, async (request, reply) => {
    const context = await panelContextOf(request);
    const customerId = uuidParam(request, 'customerUuid');
    return redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
      await eraseCustomer({ ...context, uow }, customerId);
      return `${CUSTOMERS}/${customerId}?notice=erased`;
    });
  });
}
