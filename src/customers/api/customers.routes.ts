import { Type } from 'typebox';
import { answerWrite } from '../../platform/http/idempotency.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { eraseCustomer, exportCustomerData } from '../customer-data.service.js';
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

  app.get(
    '/customers/:customerUuid/export',
    {
      schema: {
        tags: ['customers'],
        summary: 'Everything kept about one customer, as one JSON document (the right of access)',
        description:
          'The profile, every booking in the shape of GET /bookings/{uuid} with its history, the ' +
          'emails sent about those bookings with their text, and the consents given ' +
          '(docs/customer-data.md). Not wrapped in `data`: the document is the answer.',
        params: CustomerParams,
        response: responses({ 200: Type.Object({}, { additionalProperties: true }) }),
      },
    },
    async (request, reply) => {
      const document = await exportCustomerData(
        { ...request.context, db: deps.db, uow: deps.uow },
        request.params.customerUuid,
      );
      return reply
        .header('content-disposition', `attachment; filename="customer-${request.params.customerUuid}.json"`)
        .send(document);
    },
  );

  app.post(
    '/customers/:customerUuid/erase',
    {
      schema: {
        tags: ['customers'],
        summary: "Erase a customer's personal data (the right to erasure); bookings and totals stay",
        description:
          "Empties the customer's phone, names and email, their comments and notes, and their " +
          'data in stored events, webhook bodies, emails and idempotent answers, in one ' +
          'transaction. Bookings, orders and payments keep their times and amounts. Erasing ' +
          'again answers the same. Cannot be undone (docs/customer-data.md).',
        params: CustomerParams,
        response: responses({ 200: Data(CustomerJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => ({
        data: presentCustomer(await eraseCustomer({ ...request.context, uow }, request.params.customerUuid)),
      })),
  );
}
