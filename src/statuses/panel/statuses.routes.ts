import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { refusalOf } from '../../panel-kit/panel-errors.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import type { StatusRow } from '../statuses.repository.js';
import { ChangeStatusBody, CreateStatusBody } from '../statuses.schemas.js';
import {
  archiveStatus,
  changeStatus,
  createStatus,
  getStatus,
  listStatusesWithArchived,
  statusChanges,
  statusRuleErrors,
} from '../statuses.service.js';
import { STATUSES, StatusesPage, StatusFormPage } from './statuses.page.js';

const access = { config: { panelAccess: 'setup' as const } };

const NOTICES: Record<string, PanelKey> = {
  created: 'statuses.created',
  saved: 'statuses.saved',
  archived: 'statuses.archived',
};

function valuesOf(body: unknown): FormState['values'] {
  return {
    name: str(body, 'name'),
    color: str(body, 'color').trim(),
    is_default: str(body, 'is_default') === 'true' ? 'true' : '',
  };
}

/**
 * The body of POST/PATCH /bookings/statuses from the form. An unticked "default" box says nothing
 * (the default moves by ticking it on another status). A new status may leave the colour empty
 * (the API's default colour); an existing one keeps the colour the form shows, checked as typed.
 */
function bodyOf(values: FormState['values'], creating: boolean) {
  const color = values.color as string;
  return {
    name: values.name as string,
    ...(color !== '' || !creating ? { color } : {}),
    ...(values.is_default === 'true' ? { is_default: true } : {}),
  };
}

/**
 * Setup → Booking statuses (owners and admins): the statuses of /bookings/statuses, checked by the
 * same schemas and rules (a live name only once) and written by the same services.
 */
export function statusesPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  function renderForm(
    request: FastifyRequest,
    reply: FastifyReply,
    form: FormState,
    options: { status?: StatusRow; problem?: string; code?: number } = {},
  ) {
    const text = panelTextOf(request);
    return reply.page({
      title: options.status ? options.status.name : text.t('statuses.add'),
      status: options.code ?? 200,
      body: StatusFormPage({
        form,
        csrf: reply.csrf(),
        ...(options.status ? { status: options.status } : {}),
        ...(options.problem ? { problem: options.problem } : {}),
        text,
      }),
    });
  }

  panel.get('/setup/statuses', access, async (request, reply) => {
    const statuses = await listStatusesWithArchived(deps.db, sessionOf(request).workspace.id);
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.statuses'),
      body: StatusesPage({ statuses, ...noticeOf(request.query, noticesIn(text, NOTICES)), text }),
    });
  });

  panel.get('/setup/statuses/new', access, async (request, reply) => renderForm(request, reply, emptyForm()));

  panel.post('/setup/statuses', access, async (request, reply) => {
    const session = sessionOf(request);
    const values = valuesOf(request.body);
    const body = bodyOf(values, true);
    try {
      throwIfInvalid(schemaErrorsOf(CreateStatusBody, body), statusRuleErrors(body, { nameRequired: true }));
      const changes = statusChanges(body);
      // The form's key: a double click adds one status.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await createStatus(uow, session.workspace.id, { ...changes, name: changes.name! });
        return `${STATUSES}?notice=created`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return renderForm(
        request,
        reply,
        { values, errors: formErrorsOf(error, panelTextOf(request).t) },
        { code: 422 },
      );
    }
  });

  panel.get('/setup/statuses/:statusId', access, async (request, reply) => {
    const session = sessionOf(request);
    const status = await getStatus(deps.db, session.workspace.id, uuidParam(request, 'statusId'));
    return renderForm(request, reply, emptyForm({ name: status.name, color: status.color }), { status });
  });

  panel.post('/setup/statuses/:statusId', access, async (request, reply) => {
    const session = sessionOf(request);
    // 404 before 422: a status that is not there (archived, another workspace's) has no form.
    const status = await getStatus(deps.db, session.workspace.id, uuidParam(request, 'statusId'));
    const values = valuesOf(request.body);
    const body = bodyOf(values, false);
    try {
      throwIfInvalid(schemaErrorsOf(ChangeStatusBody, body), statusRuleErrors(body, { nameRequired: true }));
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await changeStatus(uow, session.workspace.id, status.id, statusChanges(body));
        return `${STATUSES}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return renderForm(
        request,
        reply,
        { values, errors: formErrorsOf(error, panelTextOf(request).t) },
        { status, code: 422 },
      );
    }
  });

  panel.post('/setup/statuses/:statusId/archive', access, async (request, reply) => {
    const session = sessionOf(request);
    const status = await getStatus(deps.db, session.workspace.id, uuidParam(request, 'statusId'));
    try {
      // The form's key: a repeat gets the first redirect, not a 404 for the status it archived.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await archiveStatus(uow, session.workspace.id, status.id);
        return `${STATUSES}?notice=archived`;
      });
    } catch (error) {
      // A built-in or the default status stays: said on its page, as the API's 409 says it.
      if (!(error instanceof AppError) || error.statusCode !== 409) throw error;
      return renderForm(request, reply, emptyForm({ name: status.name, color: status.color }), {
        status,
        problem: refusalOf(error, panelTextOf(request).t),
        code: 409,
      });
    }
  });
}
