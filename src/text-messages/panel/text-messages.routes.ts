import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userActor } from '../../audit/audit.service.js';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { type FormState, list, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { langOf, pickLanguage } from '../../platform/i18n.js';
import { countSegments } from '../segments.rules.js';
import { renderText } from '../text-render.js';
import {
  quietHoursOfLocations,
  resendText,
  sendTestText,
  textLogPage,
  textMonthlyTotals,
  textSettingsView,
  updateQuietHours,
  updateTextSettings,
} from '../text-settings.service.js';
import { TEXTS_PAGE, TextMessagesPage, type TextMessagesPageProps } from './text-messages.page.js';
import { textPanelWords } from './text-messages.texts.js';

const access = { config: { panelAccess: 'notifications' as const } };
const PER_PAGE = 20;

function fieldErrors(error: unknown, t: PanelText['t']) {
  if (error instanceof AppError && error.statusCode === 422 && error.errors) return formErrorsOf(error, t);
  throw error;
}

/** Settings → Notifications → Text messages: provider and texts, test message, preview, totals and log. */
export function textMessagesPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: {
      form?: FormState;
      testForm?: FormState;
      quietErrors?: { locationId: string; form: FormState };
    } = {},
    status = 200,
  ) {
    const { workspace } = await panelContextOf(request);
    const query = request.query as Record<string, string | undefined>;
    const page = Math.max(1, Math.min(10_000, Number.parseInt(query.page ?? '1', 10) || 1));
    const [view, log, totals, locations] = await Promise.all([
      textSettingsView(deps.db, workspace.id, deps.config),
      textLogPage(deps.db, workspace.id, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE }),
      textMonthlyTotals(deps.db, workspace.id),
      quietHoursOfLocations(deps.db, workspace.id),
    ]);
    const { settings } = view;
    const previewLang = langOf(query.lang) ?? pickLanguage(undefined, undefined, workspace.locale);
    const now = deps.clock.now();
    const sample = {
      workspaceName: workspace.name,
      workspaceSlug: workspace.slug,
      locale: workspace.locale,
      language: previewLang,
      manageToken: 'sample0123456789',
      services: 'Haircut',
      location: 'Main Street 1',
      zone: 'Europe/Berlin',
      start: new Date(Math.ceil((now + 3 * 86_400_000) / 3_600_000) * 3_600_000).toISOString(),
    };
    const kinds = ['confirmed', 'rescheduled', 'canceled', 'reminder'] as const;
    const preview = kinds.map((kind) => {
      const body = renderText(kind, sample, deps.linkBase());
      return { kind, body, count: countSegments(body) };
    });
    const text = panelTextOf(request);
    const words = textPanelWords(text.t);
    const notice = words.notices[query.notice ?? ''];
    const props: TextMessagesPageProps = {
      csrf: reply.csrf(),
      form: extra.form ?? {
        values: {
          enabled: settings.enabled ? 'on' : '',
          provider: settings.provider,
          customer_texts: settings.customerTexts,
          reminder_hours: settings.reminderMinutes.map((m) => String(Math.round((m / 60) * 100) / 100)),
          whatsapp: settings.whatsapp ? 'on' : '',
          consent: settings.consent,
          sender: settings.sender,
          twilio_account_sid: settings.twilioAccountSid,
          gateway_url: settings.gatewayUrl,
        },
        errors: {},
      },
      testForm: extra.testForm ?? { values: {}, errors: {} },
      locations,
      ...(extra.quietErrors ? { quietErrors: extra.quietErrors } : {}),
      hasAuthToken: view.hasAuthToken,
      hasGatewaySecret: view.hasGatewaySecret,
      canSaveCredentials: view.canSaveCredentials,
      hookBase: `${deps.linkBase()}/hooks/text/${workspace.id}`,
      previewLang,
      preview,
      totals,
      log: log.rows,
      total: log.total,
      page,
      perPage: PER_PAGE,
      ...(notice ? { notice } : {}),
      ...(view.problem ? { problem: view.problem } : {}),
      text,
    };
    return reply.page({ title: words.title, status, body: TextMessagesPage(props) });
  }

  panel.get('/settings/notifications/texts', access, (request, reply) => render(request, reply));

  panel.post('/settings/notifications/texts', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const values = {
      enabled: str(request.body, 'enabled'),
      provider: str(request.body, 'provider'),
      customer_texts: list(request.body, 'customer_texts'),
      reminder_hours: list(request.body, 'reminder_hours'),
      whatsapp: str(request.body, 'whatsapp'),
      consent: str(request.body, 'consent'),
      sender: str(request.body, 'sender'),
      twilio_account_sid: str(request.body, 'twilio_account_sid'),
      gateway_url: str(request.body, 'gateway_url'),
    };
    try {
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await updateTextSettings(
          uow,
          workspace.id,
          {
            enabled: values.enabled === 'on',
            provider: values.provider,
            customerTexts: values.customer_texts,
            reminderHours: values.reminder_hours,
            whatsapp: values.whatsapp === 'on',
            sender: values.sender,
            twilioAccountSid: values.twilio_account_sid,
            twilioAuthToken: str(request.body, 'twilio_auth_token'),
            gatewayUrl: values.gateway_url,
            gatewaySecret: str(request.body, 'gateway_secret'),
            consent: values.consent,
          },
          deps.config,
          deps.clock.now(),
          userActor(sessionOf(request).user.id),
        );
        return `${TEXTS_PAGE}?notice=saved`;
      });
    } catch (error) {
      return render(
        request,
        reply,
        { form: { values, errors: fieldErrors(error, panelTextOf(request).t) } },
        422,
      );
    }
  });

  panel.post('/settings/notifications/texts/test', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const phone = str(request.body, 'phone');
    try {
      // The form's key: a double click queues one test message.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await sendTestText(uow, workspace, phone, deps.clock.now());
        return `${TEXTS_PAGE}?notice=test#log`;
      });
    } catch (error) {
      return render(
        request,
        reply,
        { testForm: { values: { phone }, errors: fieldErrors(error, panelTextOf(request).t) } },
        422,
      );
    }
  });

  panel.post('/settings/notifications/texts/locations/:locationId', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const locationId = uuidParam(request, 'locationId');
    const values = { start: str(request.body, 'start'), end: str(request.body, 'end') };
    try {
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await updateQuietHours(uow, workspace.id, locationId, values, userActor(sessionOf(request).user.id));
        return `${TEXTS_PAGE}?notice=quiet#quiet-hours`;
      });
    } catch (error) {
      return render(
        request,
        reply,
        { quietErrors: { locationId, form: { values, errors: fieldErrors(error, panelTextOf(request).t) } } },
        422,
      );
    }
  });

  panel.post('/settings/notifications/texts/messages/:textId/resend', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const textId = uuidParam(request, 'textId');
    // The form's key: a double click queues the text again once, not twice.
    return redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
      await resendText(uow, workspace.id, textId, deps.clock.now());
      return `${TEXTS_PAGE}?notice=resent#log`;
    });
  });
}
