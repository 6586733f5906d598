import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { setSessionCookie } from '../../panel-kit/panel-auth.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { verifyPassword } from '../passwords.js';
import { startSession } from '../sessions.service.js';
import { TOKEN_PATTERN } from '../tokens.js';
import {
  acceptInvite,
  changePassword,
  chooseLanguage,
  describeInvite,
  describeReset,
  isCurrentPassword,
  resetPassword,
} from '../users.service.js';
import { InvitePage, LinkGonePage, PasswordPage, ResetPage } from './account.page.js';

/** Field errors of a refused form, or rethrow what is not one (the error page shows it). */
function formErrors(error: unknown, t: PanelText['t']) {
  if (error instanceof AppError && error.errors && error.statusCode === 422) return formErrorsOf(error, t);
  throw error;
}

export function accountRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/account/password', { config: { panelAccess: 'account' } }, async (request, reply) => {
    const session = request.panel!;
    const query = request.query as Record<string, string | undefined>;
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('account.yourPassword'),
      body: PasswordPage({
        form: emptyForm(),
        csrf: reply.csrf(),
        mustChange: session.user.mustChangePassword,
        done: query.notice === 'changed',
        text,
        language: {
          form: emptyForm({ language: session.user.language ?? '' }),
          saved: query.notice === 'language',
        },
      }),
    });
  });

  panel.post('/account/password', { config: { panelAccess: 'account' } }, async (request, reply) => {
    const session = request.panel!;
    const password = str(request.body, 'password');
    const change = async (uow: UnitOfWork) => {
      if (!(await isCurrentPassword(uow.db, session.user.id, str(request.body, 'current_password')))) {
        throw new AppError(422, 'validation_failed', 'The given data was invalid.', {
          current_password: [panelTextOf(request).t('account.notCorrect')],
        });
      }
      if (password !== str(request.body, 'password_confirmation')) {
        throw new AppError(422, 'validation_failed', 'The given data was invalid.', {
          password_confirmation: [panelTextOf(request).t('account.differ')],
        });
      }
      await changePassword(uow, session.user.id, session.sessionId, password, deps.clock.now());
      // The first sign-in's forced change ends where the work starts; a later change stays here.
      return session.user.mustChangePassword
        ? `${PANEL_PREFIX}?notice=password-set`
        : `${PANEL_PREFIX}/account/password?notice=changed`;
    };
    try {
      // The form's key (its row belongs to a workspace: a user without one changes unkeyed). The
      // check of the current password is part of the keyed write, so a resubmit after the change
      // gets the first redirect instead of "not correct" for the password it replaced.
      if (!session.workspace) return reply.redirect(await change(deps.uow), 303);
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, change);
    } catch (error) {
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('account.yourPassword'),
        status: 422,
        body: PasswordPage({
          form: { values: {}, errors: formErrors(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          mustChange: session.user.mustChangePassword,
          text,
          language: { form: emptyForm({ language: session.user.language ?? '' }) },
        }),
      });
    }
  });

  // The user's own panel language (its form sits on the password page, the user's account page).
  panel.post('/account/language', { config: { panelAccess: 'account' } }, async (request, reply) => {
    const session = request.panel!;
    const language = str(request.body, 'language');
    const choose = async (uow: UnitOfWork) => {
      await chooseLanguage(uow, session.user.id, language, deps.clock.now());
      return `${PANEL_PREFIX}/account/password?notice=language`;
    };
    try {
      if (!session.workspace) return reply.redirect(await choose(deps.uow), 303);
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, choose);
    } catch (error) {
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('account.yourPassword'),
        status: 422,
        body: PasswordPage({
          form: emptyForm(),
          csrf: reply.csrf(),
          mustChange: session.user.mustChangePassword,
          text,
          language: { form: { values: { language }, errors: formErrors(error, panelTextOf(request).t) } },
        }),
      });
    }
  });

  panel.get('/invites/:token', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const found = TOKEN_PATTERN.test(token)
      ? await describeInvite(deps.db, token, deps.clock.now())
      : undefined;
    if (!found) {
      return reply.page({
        title: panelTextOf(request).t('account.invite'),
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'invite', text: panelTextOf(request) }),
      });
    }
    return reply.page({
      title: panelTextOf(request).t('account.join', { workspace: found.invite.workspace_name }),
      layout: 'bare',
      body: InvitePage({
        form: emptyForm(),
        csrf: reply.csrf(),
        token,
        workspaceName: found.invite.workspace_name,
        email: found.invite.email,
        role: found.invite.role,
        userExists: found.userExists,
        text: panelTextOf(request),
      }),
    });
  });

  panel.post('/invites/:token', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const now = deps.clock.now();
    const found = TOKEN_PATTERN.test(token) ? await describeInvite(deps.db, token, now) : undefined;
    if (!found) {
      return reply.page({
        title: panelTextOf(request).t('account.invite'),
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'invite', text: panelTextOf(request) }),
      });
    }
    const name = str(request.body, 'name');
    try {
      const { user, workspaceId } = await acceptInvite(
        deps.db,
        token,
        { name, password: str(request.body, 'password') },
        (existing, password) => verifyPassword(password, existing.password_hash),
        now,
      );
      setSessionCookie(reply, deps, await startSession(deps.db, user.id, workspaceId, now));
      return reply.redirect(PANEL_PREFIX, 303);
    } catch (error) {
      return reply.page({
        title: panelTextOf(request).t('account.join', { workspace: found.invite.workspace_name }),
        layout: 'bare',
        status: 422,
        body: InvitePage({
          form: { values: { name }, errors: formErrors(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          token,
          workspaceName: found.invite.workspace_name,
          email: found.invite.email,
          role: found.invite.role,
          userExists: found.userExists,
          text: panelTextOf(request),
        }),
      });
    }
  });

  panel.get('/reset-password/:token', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const found = TOKEN_PATTERN.test(token)
      ? await describeReset(deps.db, token, deps.clock.now())
      : undefined;
    if (!found) {
      return reply.page({
        title: panelTextOf(request).t('account.reset'),
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'reset', text: panelTextOf(request) }),
      });
    }
    return reply.page({
      title: panelTextOf(request).t('account.setNewPassword'),
      layout: 'bare',
      body: ResetPage({
        form: emptyForm(),
        csrf: reply.csrf(),
        token,
        email: found.email,
        text: panelTextOf(request),
      }),
    });
  });

  panel.post('/reset-password/:token', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const now = deps.clock.now();
    const found = TOKEN_PATTERN.test(token) ? await describeReset(deps.db, token, now) : undefined;
    if (!found) {
      return reply.page({
        title: panelTextOf(request).t('account.reset'),
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'reset', text: panelTextOf(request) }),
      });
    }
    try {
      await resetPassword(deps.db, token, str(request.body, 'password'), now);
      return reply.redirect(`${PANEL_PREFIX}/sign-in?notice=password-reset`, 303);
    } catch (error) {
      return reply.page({
        title: panelTextOf(request).t('account.setNewPassword'),
        layout: 'bare',
        status: 422,
        body: ResetPage({
          form: { values: {}, errors: formErrors(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          token,
          email: found.email,
          text: panelTextOf(request),
        }),
      });
    }
  });
}
