import { type Static, Type } from 'typebox';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, DataList, NoContent, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors, throwIfInvalid } from '../../platform/http/validation.js';
import { ChangeStatusBody, CreateStatusBody, StatusJson } from '../statuses.schemas.js';
import {
  archiveStatus,
  changeStatus,
  createStatus,
  listStatuses,
  statusChanges,
  statusRuleErrors,
} from '../statuses.service.js';

const StatusParams = Type.Object({ statusUuid: Type.String({ format: 'uuid' }) });

/**
 * Booking statuses: the public API's list, and its management. These static `/bookings/statuses`
 * paths win over `/bookings/:uuid` routes in Fastify's router, whatever the registration order.
 */
export async function statusesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/bookings/statuses',
    {
      schema: {
        tags: ['reference'],
        summary: 'List booking statuses',
        response: responses({ 200: DataList(StatusJson) }),
      },
    },
    async (request) => ({ data: await listStatuses(deps.db, request.auth.workspace.id) }),
  );

  app.post(
    '/bookings/statuses',
    {
      attachValidation: true,
      schema: {
        tags: ['management'],
        summary: 'Create a custom booking status',
        body: CreateStatusBody,
        response: responses({ 201: Data(StatusJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const body = (request.body ?? {}) as Partial<Static<typeof CreateStatusBody>>;
        throwIfInvalid(schemaFieldErrors(request), statusRuleErrors(body, { nameRequired: true }));
        const changes = statusChanges(body);
        const status = await createStatus(uow, request.auth.workspace.id, {
          ...changes,
          name: changes.name!,
        });
        return { data: status };
      }),
  );

  app.patch(
    '/bookings/statuses/:statusUuid',
    {
      attachValidation: true,
      schema: {
        tags: ['management'],
        summary: 'Rename, recolour, or make default a booking status',
        params: StatusParams,
        body: ChangeStatusBody,
        response: responses({ 200: Data(StatusJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const body = (request.body ?? {}) as Static<typeof ChangeStatusBody>;
        throwIfInvalid(schemaFieldErrors(request), statusRuleErrors(body, { nameRequired: false }));
        const status = await changeStatus(
          uow,
          request.auth.workspace.id,
          request.params.statusUuid,
          statusChanges(body),
        );
        return { data: status };
      }),
  );

  app.delete(
    '/bookings/statuses/:statusUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a custom booking status',
        params: StatusParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        await archiveStatus(uow, request.auth.workspace.id, request.params.statusUuid);
        return undefined;
      }),
  );
}
