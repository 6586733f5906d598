import { requireLocation } from '../../locations/locations.repository.js';
import { LocationParams } from '../../locations/locations.schemas.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, NoContent, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentStaffer } from '../staffers.presenter.js';
import { StafferCreateBody, StafferJson, StafferParams, StafferUpdateBody } from '../staffers.schemas.js';
import {
  archiveStaffer,
  createStaffer,
  getStaffer,
  listLocationStaffers,
  updateStaffer,
} from '../staffers.service.js';

export async function staffersRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/staffers',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the staffers of a location (those providing a service there)',
        params: LocationParams,
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(StafferJson) }),
      },
    },
    async (request) => {
      const workspaceId = request.auth.workspace.id;
      const location = await requireLocation(deps.db, workspaceId, request.params.locationUuid);
      const page = pageOf(request.query);
      const { rows, total } = await listLocationStaffers(
        deps.db,
        deps.availability,
        workspaceId,
        location.id,
        page,
      );
      return paginated(request, page, rows.map(presentStaffer), total);
    },
  );

  app.get(
    '/staffers/:stafferUuid',
    {
      schema: {
        tags: ['reference'],
        summary: 'One staffer',
        params: StafferParams,
        response: responses({ 200: Data(StafferJson) }),
      },
    },
    async (request) => {
      const staffer = await getStaffer(deps.db, request.auth.workspace.id, request.params.stafferUuid);
      return { data: presentStaffer(staffer) };
    },
  );

  app.post(
    '/staffers',
    {
      schema: {
        tags: ['management'],
        summary: 'Create a staffer (201)',
        body: StafferCreateBody,
        response: responses({ 201: Data(StafferJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const staffer = await createStaffer(uow, request.auth.workspace.id, request.body);
        return { data: presentStaffer(staffer) };
      }),
  );

  app.patch(
    '/staffers/:stafferUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a staffer (only the fields given; `services` replaces the assignment)',
        params: StafferParams,
        body: StafferUpdateBody,
        response: responses({ 200: Data(StafferJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const staffer = await updateStaffer(
          uow,
          request.auth.workspace.id,
          request.params.stafferUuid,
          request.body,
        );
        return { data: presentStaffer(staffer) };
      }),
  );

  app.delete(
    '/staffers/:stafferUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a staffer (204, no body); they then vanish from lists and reads',
        params: StafferParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        await archiveStaffer(uow, request.auth.workspace.id, request.params.stafferUuid);
        return undefined;
      }),
  );
}
