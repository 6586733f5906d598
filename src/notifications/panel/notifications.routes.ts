import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userActor } from '../../audit/audit.service.js';
import { publicBaseUrl } from '../../config.js';
import { AppError, notFound } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { type FormState, list, str } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { refusalOf } from '../../panel-kit/panel-errors.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { domainOf, type MailSnapshot, messageIdOf } from '../mail-message.js';
import { renderMail } from '../mail-render.js';
import { settingsOf } from '../notification-settings.rules.js';
import {
  getMessage,
  listLinkableMembers,
  listStaffRecipients,
  mailLogPage,
  resendMessage,
  sendTestEmail,
  updateNotificationSettings,
  updateOwnBookingEmails,
  updateStafferRecipients,
} from '../notifications.service.js';
import { parseMailFrom } from '../smtp-sender.js';
import {
  MessagePage,
  NOTIFICATIONS,
  NotificationsPage,
  type NotificationsPageProps,
  OWN_EMAILS,
  OwnEmailsPage,
} from './notifications.page.js';

const access = { config: { panelAccess: 'notifications' as const } };
const PER_PAGE = 20;

const NOTICES: Record<string, PanelKey> = {
  saved: 'notif.saved',
  staff: 'notif.staffSaved',
  test: 'notif.testQueued',
  resent: 'notif.resent',
};

/** 422 field errors of a refused form, or rethrow what is not one. */
function fieldErrors(error: unknown, t: PanelText['t']) {
  if (error instanceof AppError && error.statusCode === 422 && error.errors) return formErrorsOf(error, t);
  throw error;
}

/**
 * Settings → Notifications for owners and admins, and "Your booking emails" for
 * every panel user. Server-rendered forms with CSRF tokens; every write calls a service.
 */
export function notificationsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<Pick<NotificationsPageProps, 'form' | 'staffErrors' | 'problem'>> = {},
    status = 200,
  ) {
    const session = sessionOf(request);
    const { workspace } = await panelContextOf(request);
    const settings = settingsOf(workspace.notification_settings);
    const query = request.query as Record<string, string | undefined>;
    const page = Math.max(1, Math.min(10_000, Number.parseInt(query.page ?? '1', 10) || 1));
    const [log, staffers, members] = await Promise.all([
      mailLogPage(deps.db, workspace.id, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE }),
      listStaffRecipients(deps.db, workspace.id),
      listLinkableMembers(deps.db, workspace.id),
    ]);
    const text = panelTextOf(request);
    const noticeKey = NOTICES[query.notice ?? ''];
    const notice = noticeKey ? text.t(noticeKey) : undefined;
    return reply.page({
      title: text.t('nav.notifications'),
      status,
      body: NotificationsPage({
        csrf: reply.csrf(),
        form: extra.form ?? {
          values: {
            customer_emails: settings.customerEmails,
            reminder_hours: settings.reminderMinutes.map((m) => String(Math.round((m / 60) * 100) / 100)),
            sender_name: settings.senderName,
            reply_to: settings.replyTo,
          },
          errors: {},
        },
        staffers,
        members,
        ...(extra.staffErrors ? { staffErrors: extra.staffErrors } : {}),
        log: log.rows,
        total: log.total,
        page,
        perPage: PER_PAGE,
        smtp: deps.config.smtpUrl !== undefined,
        you: session.user.email,
        ...(notice ? { notice } : {}),
        ...(extra.problem ? { problem: extra.problem } : {}),
        text,
      }),
    });
  }

  panel.get('/settings/notifications', access, (request, reply) => render(request, reply));

  panel.post('/settings/notifications', access, async (request, reply) => {
    const session = sessionOf(request);
    const values = {
      customer_emails: list(request.body, 'customer_emails'),
      reminder_hours: list(request.body, 'reminder_hours'),
      sender_name: str(request.body, 'sender_name'),
      reply_to: str(request.body, 'reply_to'),
    };
    try {
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateNotificationSettings(
          uow,
          session.workspace.id,
          {
            customerEmails: values.customer_emails,
            reminderHours: values.reminder_hours,
            senderName: values.sender_name,
            replyTo: values.reply_to,
          },
          deps.clock.now(),
          userActor(session.user.id),
        );
        return `${NOTIFICATIONS}?notice=saved`;
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

  panel.post('/settings/notifications/staffers/:stafferId', access, async (request, reply) => {
    const session = sessionOf(request);
    const stafferId = uuidParam(request, 'stafferId');
    const values = {
      email: str(request.body, 'email'),
      user_id: str(request.body, 'user_id'),
      booking_emails: list(request.body, 'booking_emails'),
    };
    try {
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateStafferRecipients(
          uow,
          session.workspace.id,
          stafferId,
          { email: values.email, userId: values.user_id, bookingEmails: values.booking_emails },
          deps.clock.now(),
          userActor(session.user.id),
        );
        return `${NOTIFICATIONS}?notice=staff`;
      });
    } catch (error) {
      const form: FormState = { values, errors: fieldErrors(error, panelTextOf(request).t) };
      return render(request, reply, { staffErrors: { stafferId, form } }, 422);
    }
  });

  panel.post('/settings/notifications/test', access, async (request, reply) => {
    const session = sessionOf(request);
    const { workspace } = await panelContextOf(request);
    // The form's key: a double click queues one test email.
    return redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
      await sendTestEmail(uow, workspace, session.user.email, deps.clock.now());
      return `${NOTIFICATIONS}?notice=test#log`;
    });
  });

  panel.get('/settings/notifications/messages/:messageId', access, async (request, reply) => {
    const session = sessionOf(request);
    const message = await getMessage(deps.db, session.workspace.id, uuidParam(request, 'messageId'));
    if (!message) throw notFound('Email');
    const snapshot = message.snapshot as unknown as MailSnapshot;
    const mailFrom = parseMailFrom(deps.config.mailFrom) ?? { name: '', address: 'no-reply@localhost' };
    const from = { name: snapshot.senderName || snapshot.workspaceName, address: mailFrom.address };
    // Not yet sent: shown as it would go out now (the worker renders it from the same snapshot).
    const preview =
      message.body_text === null
        ? renderMail(message.kind, message.revision, snapshot, {
            publicBase: publicBaseUrl(deps.config),
            from,
          })
        : undefined;
    const query = request.query as Record<string, string | undefined>;
    const panelText = panelTextOf(request);
    const noticeKey = NOTICES[query.notice ?? ''];
    const notice = noticeKey ? panelText.t(noticeKey) : undefined;
    return reply.page({
      title: message.subject ?? preview?.subject ?? panelText.t('notif.emailTitle'),
      body: MessagePage({
        csrf: reply.csrf(),
        message,
        subject: message.subject ?? preview?.subject ?? '',
        text: message.body_text ?? preview?.text ?? '',
        messageId: messageIdOf(message.message_key, domainOf(mailFrom.address)),
        from: `${from.name} <${from.address}>`,
        ...(notice ? { notice } : {}),
        panelText,
      }),
    });
  });

  panel.post('/settings/notifications/messages/:messageId/resend', access, async (request, reply) => {
    const session = sessionOf(request);
    try {
      // The form's key: a double click queues the email again once, not twice.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await resendMessage(uow, session.workspace.id, uuidParam(request, 'messageId'), deps.clock.now());
        return `${NOTIFICATIONS}?notice=resent#log`;
      });
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409)
        return render(request, reply, { problem: refusalOf(error, panelTextOf(request).t) }, 409);
      throw error;
    }
  });

  // Every user: the booking emails of the staffers linked to them (a per-user setting).
  async function renderOwn(
    request: FastifyRequest,
    reply: FastifyReply,
    form?: { stafferId: string; form: FormState },
    status = 200,
  ) {
    const session = sessionOf(request);
    const staffers = await listStaffRecipients(deps.db, session.workspace.id, session.user.id);
    const notice = (request.query as Record<string, string | undefined>).notice === 'saved';
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.yourEmails'),
      status,
      body: OwnEmailsPage({
        csrf: reply.csrf(),
        staffers,
        email: session.user.email,
        ...(notice ? { notice: text.t('emails.saved') } : {}),
        ...(form ? { form } : {}),
        text,
      }),
    });
  }

  panel.get('/account/notifications', (request, reply) => renderOwn(request, reply));

  panel.post('/account/notifications/:stafferId', async (request, reply) => {
    const session = sessionOf(request);
    const stafferId = uuidParam(request, 'stafferId');
    const chosen = list(request.body, 'booking_emails');
    try {
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateOwnBookingEmails(
          uow,
          session.workspace.id,
          session.user.id,
          stafferId,
          chosen,
          deps.clock.now(),
        );
        return `${OWN_EMAILS}?notice=saved`;
      });
    } catch (error) {
      return renderOwn(
        request,
        reply,
        {
          stafferId,
          form: { values: { booking_emails: chosen }, errors: fieldErrors(error, panelTextOf(request).t) },
        },
        422,
      );
    }
  });
}
