import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { emptyForm, str } from '../../panel-kit/forms.js';
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
  describeInvite,
  describeReset,
  isCurrentPassword,
  resetPassword,
} from '../users.service.js';
import { InvitePage, LinkGonePage, PasswordPage, ResetPage } from './account.page.js';

/** Field errors of a refused form, or rethrow what is not one (the error page shows it). */
function formErrors(error: unknown) {
  if (error instanceof AppError && error.errors && error.statusCode === 422) return error.errors;
  throw error;
}

export function accountRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/account/password', { config: { panelAccess: 'account' } }, async (request, reply) => {
    const session = request.panel!;
    const query = request.query as Record<string, string | undefined>;
    return reply.page({
      title: 'Your password',
      body: PasswordPage({
        form: emptyForm(),
        csrf: reply.csrf(),
        mustChange: session.user.mustChangePassword,
        done: query.notice === 'changed',
      }),
    });
  });

  panel.post('/account/password', { config: { panelAccess: 'account' } }, async (request, reply) => {
    const session = request.panel!;
    const password = str(request.body, 'password');
    const change = async (uow: UnitOfWork) => {
      if (!(await isCurrentPassword(uow.db, session.user.id, str(request.body, 'current_password')))) {
        throw new AppError(422, 'validation_failed', 'The given data was invalid.', {
          current_password: ['The password is not correct.'],
        });
      }
      if (password !== str(request.body, 'password_confirmation')) {
        throw new AppError(422, 'validation_failed', 'The given data was invalid.', {
          password_confirmation: ['The two new passwords differ.'],
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
      return reply.page({
        title: 'Your password',
        status: 422,
        body: PasswordPage({
          form: { values: {}, errors: formErrors(error) },
          csrf: reply.csrf(),
          mustChange: session.user.mustChangePassword,
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
        title: 'Invite',
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'invite' }),
      });
    }
    return reply.page({
      title: `Join ${found.invite.workspace_name}`,
      layout: 'bare',
      body: InvitePage({
        form: emptyForm(),
        csrf: reply.csrf(),
        token,
        workspaceName: found.invite.workspace_name,
        email: found.invite.email,
        role: found.invite.role,
        userExists: found.userExists,
      }),
    });
  });

  panel.post('/invites/:token', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const now = deps.clock.now();
    const found = TOKEN_PATTERN.test(token) ? await describeInvite(deps.db, token, now) : undefined;
    if (!found) {
      return reply.page({
        title: 'Invite',
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'invite' }),
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
        title: `Join ${found.invite.workspace_name}`,
        layout: 'bare',
        status: 422,
        body: InvitePage({
          form: { values: { name }, errors: formErrors(error) },
          csrf: reply.csrf(),
          token,
          workspaceName: found.invite.workspace_name,
          email: found.invite.email,
          role: found.invite.role,
          userExists: found.userExists,
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
        title: 'Reset',
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'reset' }),
      });
    }
    return reply.page({
      title: 'Set a new password',
      layout: 'bare',
      body: ResetPage({ form: emptyForm(), csrf: reply.csrf(), token, email: found.email }),
    });
  });

  panel.post('/reset-password/:token', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const now = deps.clock.now();
    const found = TOKEN_PATTERN.test(token) ? await describeReset(deps.db, token, now) : undefined;
    if (!found) {
      return reply.page({
        title: 'Reset',
        layout: 'bare',
        status: 404,
        body: LinkGonePage({ what: 'reset' }),
      });
    }
    try {
      await resetPassword(deps.db, token, str(request.body, 'password'), now);
      return reply.redirect(`${PANEL_PREFIX}/sign-in?notice=password-reset`, 303);
    } catch (error) {
      return reply.page({
        title: 'Set a new password',
        layout: 'bare',
        status: 422,
        body: ResetPage({
          form: { values: {}, errors: formErrors(error) },
          csrf: reply.csrf(),
          token,
          email: found.email,
        }),
      });
    }
  });
}
