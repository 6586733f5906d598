import { requireLocation } from '../../locations/locations.repository.js';
import { LocationParams } from '../../locations/locations.schemas.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, NoContent, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentService } from '../services.presenter.js';
import { listServicesAtLocation } from '../services.repository.js';
import { ServiceCreateBody, ServiceJson, ServiceParams, ServiceUpdateBody } from '../services.schemas.js';
import { archiveService, createService, getService, updateService } from '../services.service.js';

export async function servicesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/services',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the services of a location',
        params: LocationParams,
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(ServiceJson) }),
      },
    },
    async (request) => {
      const workspace = request.auth.workspace;
      const location = await requireLocation(deps.db, workspace.id, request.params.locationUuid);
      const page = pageOf(request.query);
      const { rows, total } = await listServicesAtLocation(deps.db, workspace.id, location.id, page);
      return paginated(
        request,
        page,
        rows.map((row) => presentService(row, workspace)),
        total,
      );
    },
  );

  app.get(
    '/services/:serviceUuid',
    {
      schema: {
        tags: ['reference'],
        summary: 'One service',
        params: ServiceParams,
        response: responses({ 200: Data(ServiceJson) }),
      },
    },
    async (request) => {
      const service = await getService(deps.db, request.auth.workspace.id, request.params.serviceUuid);
      return { data: presentService(service, request.auth.workspace) };
    },
  );

  app.post(
    '/services',
    {
      schema: {
        tags: ['management'],
        summary: 'Create a service (201)',
        body: ServiceCreateBody,
        response: responses({ 201: Data(ServiceJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const service = await createService(uow, request.auth.workspace.id, request.body);
        return { data: presentService(service, request.auth.workspace) };
      }),
  );

  app.patch(
    '/services/:serviceUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a service (only the fields given)',
        params: ServiceParams,
        body: ServiceUpdateBody,
        response: responses({ 200: Data(ServiceJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const service = await updateService(
          uow,
          request.auth.workspace.id,
          request.params.serviceUuid,
          request.body,
        );
        return { data: presentService(service, request.auth.workspace) };
      }),
  );

  app.delete(
    '/services/:serviceUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a service (204, no body); it then vanishes from lists and reads',
        params: ServiceParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        await archiveService(uow, request.auth.workspace.id, request.params.serviceUuid);
        return undefined;
      }),
  );
}
