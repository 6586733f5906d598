import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { MailKind, MailState } from '../../platform/db/schema.js';
import type { MailRow } from '../mail-queue.repository.js';
import {
  CUSTOMER_EMAILS,
  type CustomerEmail,
  STAFF_EMAILS,
  type StaffEmail,
} from '../notification-settings.rules.js';
import type { StafferNotificationRow } from '../notifications.repository.js';

export const NOTIFICATIONS = `${PANEL_PREFIX}/settings/notifications`;
export const OWN_EMAILS = `${PANEL_PREFIX}/account/notifications`;

const when = (date: Date | null) =>
  date === null ? '—' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const CUSTOMER_EMAIL_LABEL: Record<CustomerEmail, PanelKey> = {
  confirmed: 'notif.customer.confirmed',
  rescheduled: 'notif.customer.rescheduled',
  canceled: 'notif.customer.canceled',
  completed: 'notif.customer.completed',
  reminder: 'notif.customer.reminder',
};

const STAFF_EMAIL_LABEL: Record<StaffEmail, PanelKey> = {
  new: 'emails.kind.new',
  changed: 'emails.kind.changed',
  canceled: 'emails.kind.canceled',
};

export const KIND_LABEL: Record<MailKind, PanelKey> = {
  confirmed: 'notif.kind.confirmed',
  rescheduled: 'notif.kind.rescheduled',
  canceled: 'notif.kind.canceled',
  completed: 'notif.kind.completed',
  reminder: 'notif.kind.reminder',
  staff_new: 'notif.kind.staff_new',
  staff_changed: 'notif.kind.staff_changed',
  staff_canceled: 'notif.kind.staff_canceled',
  test: 'notif.kind.test',
  payment_received: 'notif.kind.payment_received',
  payment_refunded: 'notif.kind.payment_refunded',
  payment_failed: 'notif.kind.payment_failed',
  staff_calendar_edit: 'notif.kind.staff_calendar_edit',
  waitlist_offer: 'notif.kind.waitlist_offer',
};

/** A message's state in words, and the badge colour it shows in. */
export function mailStatus(
  row: Pick<MailRow, 'state' | 'attempt_count'>,
  t: PanelText['t'],
): { label: string; badge: string } {
  const labels: Record<MailState, { label: PanelKey; badge: string }> = {
    pending:
      row.attempt_count > 0
        ? { label: 'notif.state.retrying', badge: 'failing' }
        : { label: 'notif.state.queued', badge: 'pending' },
    sending: { label: 'notif.state.sending', badge: 'pending' },
    sent: { label: 'notif.state.sent', badge: 'delivered' },
    logged: { label: 'notif.state.logged', badge: 'pending' },
    failed: { label: 'notif.state.failed', badge: 'given-up' },
    dropped: { label: 'notif.state.dropped', badge: 'muted' },
    expired: { label: 'notif.state.expired', badge: 'muted' },
  };
  const { label, badge } = labels[row.state];
  return { label: t(label), badge };
}

function Crumbs({ last, text }: { last?: string; text: PanelText }) {
  const { t } = text;
  return (
    <p class="crumbs">
      {t('nav.settings')} /{' '}
      {last ? <a href={NOTIFICATIONS}>{t('nav.notifications')}</a> : t('nav.notifications')}
      {last ? ` / ${last}` : ''}
    </p>
  );
}

export interface NotificationsPageProps {
  csrf: string;
  form: FormState;
  staffers: StafferNotificationRow[];
  members: { user_id: string; email: string }[];
  staffErrors?: { stafferId: string; form: FormState };
  log: MailRow[];
  total: number;
  page: number;
  perPage: number;
  smtp: boolean;
  you: string;
  notice?: string;
  problem?: string;
  text: PanelText;
}

export function NotificationsPage(props: NotificationsPageProps) {
  const { form } = props;
  const { t } = props.text;
  const chosen = new Set(Array.isArray(form.values.customer_emails) ? form.values.customer_emails : []);
  const hours = Array.isArray(form.values.reminder_hours) ? form.values.reminder_hours : [];
  const hoursInvalid = Object.keys(form.errors).some((key) => key.startsWith('reminder_hours'));
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  return (
    <>
      <Crumbs text={props.text} />
      <h1>{t('nav.notifications')}</h1>
      <p class="lead">{t('notif.lead')}</p>
      <p>
        <a href={`${NOTIFICATIONS}/texts`}>{t('texts.linkFromNotifications')}</a>
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.problem && (
        <div class="errors-summary" role="alert">
          <h2>{t('notif.problem')}</h2>
          <p>{props.problem}</p>
        </div>
      )}
      {!props.smtp && (
        <p class="notice" role="note">
          {withElements((values) => t('notif.noSmtp', values), { code: <code>SMTP_URL</code> })}
        </p>
      )}

      <div class="card">
        <h2>{t('notif.customerEmails')}</h2>
        <ErrorSummary form={form} />
        <PostForm action={NOTIFICATIONS} csrf={props.csrf} label={t('notif.settingsLabel')}>
          <fieldset
            class={`field checks${form.errors.customer_emails ? ' has-error' : ''}`}
            id={fieldId('customer_emails')}
          >
            <legend>{t('notif.sendThese')}</legend>
            {CUSTOMER_EMAILS.map((kind) => (
              <label>
                <input type="checkbox" name="customer_emails" value={kind} checked={chosen.has(kind)} />{' '}
                {t(CUSTOMER_EMAIL_LABEL[kind])}
              </label>
            ))}
            <FieldError form={form} name="customer_emails" />
          </fieldset>
          <fieldset
            class={`field${hoursInvalid ? ' has-error' : ''}`}
            id={fieldId('reminder_hours')}
            aria-describedby={`${fieldId('reminder_hours')}-hint${hoursInvalid ? ` ${fieldId('reminder_hours')}-error` : ''}`}
          >
            <legend>{t('notif.reminders')}</legend>
            <span class="hint" id={`${fieldId('reminder_hours')}-hint`}>
              {t('notif.remindersHint')}
            </span>
            <div class="row">
              {[0, 1].map((index) => (
                <label class="inline-field">
                  <span>{t(index === 0 ? 'notif.firstReminder' : 'notif.secondReminder')}</span>
                  <input
                    type="text"
                    inputmode="decimal"
                    name="reminder_hours"
                    value={hours[index] ?? ''}
                    size={6}
                    aria-invalid={hoursInvalid ? 'true' : undefined}
                  />
                </label>
              ))}
            </div>
            <FieldError form={form} name="reminder_hours" />
          </fieldset>
          <TextField
            form={form}
            name="sender_name"
            label={t('notif.senderName')}
            hint={t('notif.senderNameHint')}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="reply_to"
            label={t('notif.replyTo')}
            type="email"
            hint={t('notif.replyToHint')}
            autocomplete="off"
          />
          <button type="submit">{t('notif.save')}</button>
        </PostForm>
      </div>

      <div class="card">
        <h2>{t('notif.staffEmails')}</h2>
        <p class="muted">{t('notif.staffLead')}</p>
        {props.staffers.length === 0 && <p class="muted">{t('notif.noStaffers')}</p>}
        {props.staffers.map((staffer) => (
          <StafferForm
            staffer={staffer}
            members={props.members}
            csrf={props.csrf}
            text={props.text}
            {...(props.staffErrors?.stafferId === staffer.id ? { form: props.staffErrors.form } : {})}
          />
        ))}
      </div>

      <div class="card">
        <h2>{t('notif.testTitle')}</h2>
        <p>{t('notif.testText', { email: props.you })}</p>
        <PostForm action={`${NOTIFICATIONS}/test`} csrf={props.csrf} class="inline">
          <button type="submit" class="secondary">
            {t('notif.sendTest')}
          </button>
        </PostForm>
      </div>

      <h2 id="log">{t('notif.crumbLog')}</h2>
      <p class="muted">
        {props.total === 0 ? t('notif.noEmails') : t('notif.count', { n: props.total })}{' '}
        <a href={`${NOTIFICATIONS}#log`}>{t('notif.refresh')}</a>
      </p>
      {props.log.length > 0 && (
        <div class="table-wrap">
          <table class="stack" aria-label={t('notif.crumbLog')}>
            <thead>
              <tr>
                <th scope="col">{t('notif.colEmail')}</th>
                <th scope="col">{t('notif.colTo')}</th>
                <th scope="col">{t('notif.colStatus')}</th>
                <th scope="col">{t('notif.colAnswer')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('notif.colActions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.log.map((row) => {
                const status = mailStatus(row, t);
                const kind = t(KIND_LABEL[row.kind]);
                return (
                  <tr data-mail={row.id}>
                    <td data-label={t('notif.colEmail')}>
                      <a href={`${NOTIFICATIONS}/messages/${row.id}`}>{row.subject ?? kind}</a>
                      <div class="muted">
                        {kind} ·{' '}
                        {row.state === 'sent'
                          ? t('notif.sentAt', { when: when(row.sent_at) })
                          : t('notif.dueAt', { when: when(row.due_at) })}
                      </div>
                    </td>
                    <td data-label={t('notif.colTo')} class="wrap">
                      {row.recipient}
                    </td>
                    <td data-label={t('notif.colStatus')}>
                      <span class={`badge ${status.badge}`}>{status.label}</span>
                      {row.attempt_count > 1 && (
                        <div class="muted">{t('notif.attempts', { n: row.attempt_count })}</div>
                      )}
                    </td>
                    <td data-label={t('notif.colAnswer')} class="wrap">
                      {row.last_response ? <code>{row.last_response}</code> : <span class="muted">—</span>}
                    </td>
                    <td class="actions">
                      {(row.state === 'sent' || row.state === 'logged' || row.state === 'failed') && (
                        <PostForm
                          action={`${NOTIFICATIONS}/messages/${row.id}/resend`}
                          csrf={props.csrf}
                          class="inline"
                        >
                          <button type="submit" class="secondary">
                            {t('notif.resend')}
                            <span class="skip-label">
                              {t('notif.resendWhat', { subject: row.subject ?? kind, to: row.recipient })}
                            </span>
                          </button>
                        </PostForm>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav class="row" aria-label={t('notif.logPages')}>
          {props.page > 1 && <a href={`${NOTIFICATIONS}?page=${props.page - 1}#log`}>{t('notif.newer')}</a>}
          <span class="muted">{t('kit.pageOf', { page: props.page, last: pages })}</span>
          {props.page < pages && (
            <a href={`${NOTIFICATIONS}?page=${props.page + 1}#log`}>{t('notif.older')}</a>
          )}
        </nav>
      )}
    </>
  );
}

function StafferForm(props: {
  staffer: StafferNotificationRow;
  members: { user_id: string; email: string }[];
  csrf: string;
  form?: FormState;
  text: PanelText;
}) {
  const { staffer } = props;
  const { t } = props.text;
  const name = `${staffer.first_name} ${staffer.last_name}`.trim();
  const form: FormState = props.form ?? {
    values: {
      email: staffer.email ?? '',
      user_id: staffer.user_id ?? '',
      booking_emails: staffer.booking_emails,
    },
    errors: {},
  };
  const wants = new Set(Array.isArray(form.values.booking_emails) ? form.values.booking_emails : []);
  const prefix = `s-${staffer.id.slice(0, 8)}`;
  const goesTo = staffer.user_email ?? staffer.email;
  return (
    <PostForm
      action={`${NOTIFICATIONS}/staffers/${staffer.id}`}
      csrf={props.csrf}
      class="staffer"
      label={t('emails.of', { name })}
    >
      <h3>{name}</h3>
      <p class="muted">{goesTo ? t('notif.goesTo', { email: goesTo }) : t('notif.getsNone')}</p>
      <ErrorSummary form={form} />
      <div class="row">
        <div
          class={`field${form.errors.user_id ? ' has-error' : ''}`}
          id={form.errors.user_id ? fieldId('user_id') : undefined}
        >
          <label for={`${prefix}-user`}>{t('notif.linkedUser')}</label>
          <span class="hint" id={`${prefix}-user-hint`}>
            {t('notif.linkedUserHint', { name })}
          </span>
          <select
            id={`${prefix}-user`}
            name="user_id"
            aria-describedby={`${prefix}-user-hint${form.errors.user_id ? ` ${prefix}-user-error` : ''}`}
            aria-invalid={form.errors.user_id ? 'true' : undefined}
          >
            <option value="">{t('notif.none')}</option>
            {props.members.map((member) => (
              <option value={member.user_id} selected={member.user_id === form.values.user_id}>
                {member.email}
              </option>
            ))}
          </select>
          {form.errors.user_id && (
            <p class="error" id={`${prefix}-user-error`}>
              {form.errors.user_id.join(' ')}
            </p>
          )}
        </div>
        <div class={`field${form.errors.email ? ' has-error' : ''}`}>
          <label for={`${prefix}-email`}>{t('notif.orEmail')}</label>
          <input
            id={`${prefix}-email`}
            type="email"
            name="email"
            value={typeof form.values.email === 'string' ? form.values.email : ''}
            autocomplete="off"
            aria-invalid={form.errors.email ? 'true' : undefined}
          />
        </div>
      </div>
      <fieldset class="field checks">
        <legend>{t('notif.send')}</legend>
        <div class="row">
          {STAFF_EMAILS.map((kind) => (
            <label>
              <input type="checkbox" name="booking_emails" value={kind} checked={wants.has(kind)} />{' '}
              {t(STAFF_EMAIL_LABEL[kind])}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" class="secondary">
        {t('emails.save')}
        <span class="skip-label">{t('emails.for', { name })}</span>
      </button>
    </PostForm>
  );
}

export interface MessagePageProps {
  csrf: string;
  message: MailRow;
  /** What the message says (stored when it was sent or logged, else rendered now). */
  subject: string;
  text: string;
  messageId: string;
  from: string;
  notice?: string;
  /** The page's language (`text` is the message's own text). */
  panelText: PanelText;
}

export function MessagePage(props: MessagePageProps) {
  const { message } = props;
  const { t } = props.panelText;
  const status = mailStatus(message, t);
  return (
    <>
      <Crumbs last={t('notif.crumbLog')} text={props.panelText} />
      <h1>{props.subject}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        <dl class="meta">
          <dt>{t('notif.colStatus')}</dt>
          <dd>
            <span class={`badge ${status.badge}`}>{status.label}</span>
          </dd>
          <dt>{t('notif.metaKind')}</dt>
          <dd>{t(KIND_LABEL[message.kind])}</dd>
          <dt>{t('notif.metaFrom')}</dt>
          <dd class="wrap">{props.from}</dd>
          <dt>{t('notif.colTo')}</dt>
          <dd class="wrap">{message.recipient}</dd>
          <dt>Message-ID</dt>
          <dd class="wrap">
            <code>{props.messageId}</code>
          </dd>
          <dt>{t('notif.metaDue')}</dt>
          <dd>{when(message.due_at)}</dd>
          <dt>{t('notif.metaSent')}</dt>
          <dd>{when(message.sent_at)}</dd>
          <dt>{t('notif.metaAttempts')}</dt>
          <dd>{message.attempt_count}</dd>
          <dt>{t('notif.colAnswer')}</dt>
          <dd class="wrap">{message.last_response ? <code>{message.last_response}</code> : '—'}</dd>
        </dl>
        {(message.state === 'sent' || message.state === 'logged' || message.state === 'failed') && (
          <div class="row">
            <PostForm
              action={`${NOTIFICATIONS}/messages/${message.id}/resend`}
              csrf={props.csrf}
              class="inline"
            >
              <button type="submit" class="secondary">
                {t('notif.resend')}
              </button>
            </PostForm>
          </div>
        )}
      </div>
      <h2>{t('notif.text')}</h2>
      <pre class="excerpt mail-text">{props.text}</pre>
    </>
  );
}

export interface OwnEmailsProps {
  csrf: string;
  staffers: StafferNotificationRow[];
  email: string;
  notice?: string;
  form?: { stafferId: string; form: FormState };
  text: PanelText;
}

/** Your booking emails: a panel user's own choice for the staffers linked to them. */
export function OwnEmailsPage(props: OwnEmailsProps) {
  const { t } = props.text;
  return (
    <>
      <h1>{t('nav.yourEmails')}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.staffers.length === 0 ? (
        <p>{t('emails.none')}</p>
      ) : (
        <p class="lead">{t('emails.goTo', { email: props.email })}</p>
      )}
      {props.staffers.map((staffer) => {
        const name = `${staffer.first_name} ${staffer.last_name}`.trim();
        const form = props.form?.stafferId === staffer.id ? props.form.form : undefined;
        const wants = new Set(
          form && Array.isArray(form.values.booking_emails)
            ? form.values.booking_emails
            : staffer.booking_emails,
        );
        return (
          <div class="card">
            <PostForm
              action={`${OWN_EMAILS}/${staffer.id}`}
              csrf={props.csrf}
              label={t('emails.of', { name })}
            >
              {form && <ErrorSummary form={form} />}
              <fieldset class="field checks">
                <legend>{name}</legend>
                {STAFF_EMAILS.map((kind) => (
                  <label>
                    <input type="checkbox" name="booking_emails" value={kind} checked={wants.has(kind)} />{' '}
                    {t(`emails.kind.${kind}`)}
                  </label>
                ))}
              </fieldset>
              <button type="submit">
                {t('emails.save')}
                <span class="skip-label">{t('emails.for', { name })}</span>
              </button>
            </PostForm>
          </div>
        );
      })}
    </>
  );
}
