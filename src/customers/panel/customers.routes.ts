import type { FastifyInstance } from 'fastify';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { pageParam } from '../../panel-kit/list-pager.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import type { AppDeps } from '../../platform/http/types.js';
import { formatMoney } from '../../platform/money.js';
import { customerSearchOf, MAX_SEARCH_LENGTH } from '../customer-search.rules.js';
import { customerBookings, getCustomer, searchCustomersPage } from '../customers.service.js';
import { CustomerPage, CustomersPage, nameOf } from './customers.page.js';

const access = { config: { panelAccess: 'bookings' as const } };
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
        text,
      }),
    });
  });
}
