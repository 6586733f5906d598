import { Type } from 'typebox';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentCustomer } from '../customers.repository.js';
import { CustomerJson } from '../customers.schemas.js';
import { findOrCreateCustomer } from '../customers.service.js';

const CreateCustomerBody = Type.Object({
  phone: Type.String({ maxLength: 40, description: 'International format, e.g. +4915112345678' }),
  first_name: Type.Optional(Type.String({ maxLength: 200 })),
  last_name: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 320 })),
});

/** POST /customers (as the real service has it): find the customer by phone, or create one. */
export async function customersCreateRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.post(
    '/customers',
    {
      schema: {
        tags: ['customers'],
        summary: 'Create a customer, or find the one with this phone (201 created, 200 found)',
        description:
          'Customers are unique by phone (E.164). For an existing customer, names and email fill ' +
          'only fields that are still empty, as a booking create does; nothing is overwritten.',
        body: CreateCustomerBody,
        response: responses({ 200: Data(CustomerJson), 201: Data(CustomerJson) }),
      },
    },
    async (request, reply) => {
      let status = 200;
      return answerWrite(
        request,
        reply,
        deps.uow,
        () => status,
        async (uow) => {
          const { customer, created } = await findOrCreateCustomer(
            uow,
            request.auth.workspace.id,
            request.body,
          );
          status = created ? 201 : 200;
          return { data: presentCustomer(customer) };
        },
      );
    },
  );
}
