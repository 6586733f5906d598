import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, str } from '../../panel-kit/forms.js';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { clearSessionCookie, setSessionCookie } from '../../panel-kit/panel-auth.js';
import type { AppDeps } from '../../platform/http/types.js';
import { signIn, signOut, switchWorkspace } from '../sessions.service.js';
import { normalizeEmail } from '../users.service.js';
import { SignInPage } from './sign-in.page.js';

/** Sign-in attempts per client address, and per account, in a window (README "Panel"). */
export const SIGN_IN_LIMITS = {
  perIp: { max: 30, timeWindow: '15 minutes' },
  perAccount: { max: 10, timeWindow: '15 minutes' },
} as const;

const NOTICES: Record<string, PanelKey> = {
  'signed-out': 'signIn.signedOut',
  'password-reset': 'signIn.passwordReset',
};

/** Only our own panel pages are followed after sign-in (no open redirect). */
export function safeNext(next: string): string {
  return /^\/panel(\/[^/\\]|\/?$|\?)/.test(next) && !next.includes('//') ? next : PANEL_PREFIX;
}

export function signInRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/sign-in', { config: { panelAccess: 'public' } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (request.panel) return reply.redirect(safeNext(query.next ?? PANEL_PREFIX), 303);
    const text = panelTextOf(request);
    const notice = NOTICES[query.notice ?? ''];
    return reply.page({
      title: text.t('signIn.title'),
      layout: 'bare',
      body: SignInPage({
        form: emptyForm(),
        csrf: reply.csrf(),
        next: safeNext(query.next ?? PANEL_PREFIX),
        ...(notice ? { notice: text.t(notice) } : {}),
        text,
      }),
    });
  });

  // Per account, whether or not it exists: the limit itself tells nothing about accounts.
  const perAccount = panel.createRateLimit({
    ...SIGN_IN_LIMITS.perAccount,
    keyGenerator: (request) => `account:${normalizeEmail(str(request.body, 'email'))}`,
  });

  panel.post(
    '/sign-in',
    {
      config: { panelAccess: 'public', rateLimit: { ...SIGN_IN_LIMITS.perIp } },
      preHandler: async (request, reply) => {
        const limit = await perAccount(request);
        if (!limit.isAllowed && limit.isExceeded) {
          reply.header('retry-after', String(limit.ttlInSeconds));
          throw new AppError(
            429,
            'rate_limited',
            'Too many sign-in attempts. Wait a few minutes and try again.',
          );
        }
      },
    },
    async (request, reply) => {
      const email = str(request.body, 'email');
      const next = safeNext(str(request.body, 'next'));
      try {
        const { token } = await signIn(deps.db, email, str(request.body, 'password'), deps.clock.now());
        // A new session each time (no fixation); a session this browser had is ended.
        if (request.panel) await signOut(deps.db, request.panel.sessionId);
        setSessionCookie(reply, deps, token);
        return reply.redirect(next, 303);
      } catch (error) {
        if (!(error instanceof AppError) || !error.errors) throw error;
        const text = panelTextOf(request);
        const errors =
          error.code === 'invalid_credentials'
            ? { email: [text.t('signIn.invalid')] }
            : formErrorsOf(error, text.t);
        return reply.page({
          title: text.t('signIn.title'),
          layout: 'bare',
          status: error.statusCode,
          body: SignInPage({ form: { values: { email }, errors }, csrf: reply.csrf(), next, text }),
        });
      }
    },
  );

  panel.post('/sign-out', { config: { panelAccess: 'account' } }, async (request, reply) => {
    if (request.panel) await signOut(deps.db, request.panel.sessionId);
    clearSessionCookie(reply, deps);
    return reply.redirect(`${PANEL_PREFIX}/sign-in?notice=signed-out`, 303);
  });

  panel.post('/workspace', { config: { panelAccess: 'account' } }, async (request, reply) => {
    const session = request.panel;
    if (session) await switchWorkspace(deps.db, session, str(request.body, 'workspace'));
    return reply.redirect(PANEL_PREFIX, 303);
  });
}
