import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userActor } from '../../audit/audit.service.js';
import { AppError, notFound } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, str } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { absoluteUrl, uuidParam } from '../../panel-kit/params.js';
import { redirectOnce, showSecretOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import {
  changeRole,
  inviteMember,
  listPendingInvites,
  listTeam,
  removeMember,
  withdrawInvite,
} from '../users.service.js';
import { RemoveMemberPage, TeamPage, type TeamPageProps } from './team.page.js';

const TEAM = `${PANEL_PREFIX}/team`;
const access = { config: { panelAccess: 'team' as const } };

const NOTICES: Record<string, PanelKey> = {
  'role-changed': 'team.roleChanged',
  removed: 'team.removed',
  revoked: 'team.revoked',
  'already-invited': 'team.alreadyInvited',
};

/** Refused input of a form: its field errors (409 last-owner included); anything else goes on. */
function formErrors(error: unknown, t: PanelText['t']) {
  if (error instanceof AppError && error.errors && (error.statusCode === 422 || error.statusCode === 409)) {
    return formErrorsOf(error, t);
  }
  throw error;
}

/** Team: owners invite members (a link is shown), change roles and remove members. */
export function teamRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<TeamPageProps> = {},
    status = 200,
  ) {
    const session = sessionOf(request);
    const [members, invites] = await Promise.all([
      listTeam(deps.db, session.workspace.id),
      listPendingInvites(deps.db, session.workspace.id, deps.clock.now()),
    ]);
    const text = panelTextOf(request);
    const noticeKey = NOTICES[(request.query as Record<string, string | undefined>).notice ?? ''];
    const notice = noticeKey ? text.t(noticeKey) : undefined;
    return reply.page({
      title: text.t('nav.team'),
      status,
      islands: ['copy-text'],
      body: TeamPage({
        csrf: reply.csrf(),
        members,
        invites,
        selfId: session.user.id,
        inviteForm: emptyForm({ role: 'staff' }),
        ...(notice ? { notice } : {}),
        text,
        ...extra,
      }),
    });
  }

  panel.get('/team', access, (request, reply) => render(request, reply));

  panel.post('/team/invites', access, async (request, reply) => {
    const session = sessionOf(request);
    const values = { email: str(request.body, 'email'), role: str(request.body, 'role') };
    try {
      // The form's key: a double click makes one invite. Its link is shown once and never
      // stored with the key, so a repeat is sent to the team page without it.
      return await showSecretOnce(
        request,
        reply,
        deps.uow,
        session.workspace.id,
        (uow) => inviteMember(uow.db, session.workspace.id, values, session.user.id, deps.clock.now()),
        () => `${TEAM}?notice=already-invited`,
        (invite) =>
          render(request, reply, {
            inviteLink: {
              email: invite.email,
              url: absoluteUrl(request, deps, `${PANEL_PREFIX}/invites/${invite.token}`),
            },
          }),
      );
    } catch (error) {
      return render(
        request,
        reply,
        { inviteForm: { values, errors: formErrors(error, panelTextOf(request).t) } },
        422,
      );
    }
  });

  panel.post('/team/invites/:inviteId/revoke', access, async (request, reply) => {
    const session = sessionOf(request);
    // The form's key: a repeat gets the first redirect, not a 404 for the invite it revoked.
    return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
      if (!(await withdrawInvite(uow.db, session.workspace.id, uuidParam(request, 'inviteId'))))
        throw notFound('Invite');
      return `${TEAM}?notice=revoked`;
    });
  });

  panel.post('/team/members/:userId/role', access, async (request, reply) => {
    const session = sessionOf(request);
    const userId = uuidParam(request, 'userId');
    const role = str(request.body, 'role');
    try {
      // The form's key: a double click changes the role once and answers both the same way.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await changeRole(uow, session.workspace.id, userId, role, userActor(session.user.id));
        return `${TEAM}?notice=role-changed`;
      });
    } catch (error) {
      return render(
        request,
        reply,
        {
          roleErrors: {
            userId,
            form: { values: { role }, errors: formErrors(error, panelTextOf(request).t) },
          },
        },
        422,
      );
    }
  });

  panel.get('/team/members/:userId/remove', access, async (request, reply) => {
    const session = sessionOf(request);
    const userId = uuidParam(request, 'userId');
    const member = (await listTeam(deps.db, session.workspace.id)).find((row) => row.user_id === userId);
    if (!member) throw notFound('Member');
    return reply.page({
      title: panelTextOf(request).t('team.removeMember', { email: member.email }),
      body: RemoveMemberPage({
        csrf: reply.csrf(),
        member,
        self: userId === session.user.id,
        text: panelTextOf(request),
      }),
    });
  });

  panel.post('/team/members/:userId/remove', access, async (request, reply) => {
    const session = sessionOf(request);
    // The form's key: a repeat gets the first redirect, not a 404 for the member it removed.
    return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
      await removeMember(uow, session.workspace.id, uuidParam(request, 'userId'), userActor(session.user.id));
      return `${TEAM}?notice=removed`;
    });
  });
}
