import { Type } from 'typebox';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { listCustomers, presentCustomer, requireCustomer } from '../customers.repository.js';
import { CustomerJson, CustomerParams } from '../customers.schemas.js';
import { normalizePhone } from '../phone.rules.js';

export async function customersRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/customers',
    {
      schema: {
        tags: ['customers'],
        summary: 'List customers; `phone` finds the one with that number (any common notation)',
        querystring: Type.Object({
          ...PaginationQuery.properties,
          phone: Type.Optional(Type.String({ maxLength: 40 })),
        }),
        response: responses({ 200: Paginated(CustomerJson) }),
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const raw = request.query.phone;
      // An unparseable number matches no customer rather than failing the search.
      const phone = raw === undefined ? undefined : (normalizePhone(raw) ?? `invalid:${raw}`);
      const { rows, total } = await listCustomers(deps.db, request.auth.workspace.id, { phone }, page);
      return paginated(request, page, rows.map(presentCustomer), total);
    },
  );

  app.get(
    '/customers/:customerUuid',
    {
      schema: {
        tags: ['customers'],
        summary: 'One customer',
        params: CustomerParams,
        response: responses({ 200: Data(CustomerJson) }),
      },
    },
    async (request) => ({
      data: presentCustomer(
        await requireCustomer(deps.db, request.auth.workspace.id, request.params.customerUuid),
      ),
    }),
  );
}
