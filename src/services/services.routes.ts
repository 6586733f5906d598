import { PaginationQuery, pageOf, paginated } from '../http/pagination.js';
import type { ApiApp, AppDeps } from '../http/types.js';
import { requireLocation } from '../locations/locations.repository.js';
import { LocationParams } from '../locations/locations.schemas.js';
import { presentService } from './services.presenter.js';
import { listServicesAtLocation } from './services.repository.js';
import { ServiceCreateBody, ServiceParams, ServiceUpdateBody } from './services.schemas.js';
import { archiveService, createService, getService, updateService } from './services.service.js';

export async function servicesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/services',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the services of a location',
        params: LocationParams,
        querystring: PaginationQuery,
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
    { schema: { tags: ['reference'], summary: 'One service', params: ServiceParams } },
    async (request) => {
      const service = await getService(deps.db, request.auth.workspace.id, request.params.serviceUuid);
      return { data: presentService(service, request.auth.workspace) };
    },
  );

  app.post(
    '/services',
    { schema: { tags: ['management'], summary: 'Create a service (201)', body: ServiceCreateBody } },
    async (request, reply) => {
      const service = await createService(deps.db, request.auth.workspace.id, request.body);
      return reply.status(201).send({ data: presentService(service, request.auth.workspace) });
    },
  );

  app.patch(
    '/services/:serviceUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a service (only the fields given)',
        params: ServiceParams,
        body: ServiceUpdateBody,
      },
    },
    async (request) => {
      const service = await updateService(
        deps.db,
        request.auth.workspace.id,
        request.params.serviceUuid,
        request.body,
      );
      return { data: presentService(service, request.auth.workspace) };
    },
  );

  app.delete(
    '/services/:serviceUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a service (204, no body); it then vanishes from lists and reads',
        params: ServiceParams,
      },
    },
    async (request, reply) => {
      await archiveService(deps.db, request.auth.workspace.id, request.params.serviceUuid);
      return reply.status(204).send();
    },
  );
}
