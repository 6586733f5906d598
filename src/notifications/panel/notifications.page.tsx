import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  TextField,
} from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { MailKind, MailState } from '../../platform/db/schema.js';
import { TEXT_PANEL } from '../../text-messages/panel/text-messages.texts.js';
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

const CUSTOMER_EMAIL_LABEL: Record<CustomerEmail, string> = {
  confirmed: 'Booking confirmed',
  rescheduled: 'Booking moved to another time',
  canceled: 'Booking canceled',
  completed: 'Visit completed (thank-you email)',
  reminder: 'Reminders before the start',
};

const STAFF_EMAIL_LABEL: Record<StaffEmail, string> = {
  new: 'New bookings',
  changed: 'Changed bookings',
  canceled: 'Canceled bookings',
};

export const KIND_LABEL: Record<MailKind, string> = {
  confirmed: 'Confirmation',
  rescheduled: 'Rescheduled',
  canceled: 'Canceled',
  completed: 'Completed',
  reminder: 'Reminder',
  staff_new: 'Staff: new',
  staff_changed: 'Staff: changed',
  staff_canceled: 'Staff: canceled',
  test: 'Test email',
  payment_received: 'Payment received',
  payment_refunded: 'Refund',
  payment_failed: 'Payment failed',
  staff_calendar_edit: 'Staff: changed in their calendar',
};

/** A message's state in words, and the badge colour it shows in. */
export function mailStatus(row: Pick<MailRow, 'state' | 'attempt_count'>): { label: string; badge: string } {
  const labels: Record<MailState, { label: string; badge: string }> = {
    pending:
      row.attempt_count > 0 ? { label: 'retrying', badge: 'failing' } : { label: 'queued', badge: 'pending' },
    sending: { label: 'sending', badge: 'pending' },
    sent: { label: 'sent', badge: 'delivered' },
    logged: { label: 'not sent (no SMTP)', badge: 'pending' },
    failed: { label: 'failed', badge: 'given-up' },
    dropped: { label: 'dropped', badge: 'muted' },
    expired: { label: 'too late', badge: 'muted' },
  };
  return labels[row.state];
}

function Crumbs({ last }: { last?: string }) {
  return (
    <p class="crumbs">
      Settings / {last ? <a href={NOTIFICATIONS}>Notifications</a> : 'Notifications'}
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
}

export function NotificationsPage(props: NotificationsPageProps) {
  const { form } = props;
  const chosen = new Set(Array.isArray(form.values.customer_emails) ? form.values.customer_emails : []);
  const hours = Array.isArray(form.values.reminder_hours) ? form.values.reminder_hours : [];
  const hoursInvalid = Object.keys(form.errors).some((key) => key.startsWith('reminder_hours'));
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  return (
    <>
      <Crumbs />
      <h1>Notifications</h1>
      <p class="lead">
        Emails to your customers and staff. Each is queued with the booking change it tells of and sent by the
        worker; every one shows in the mail log below.
      </p>
      <p>
        <a href={`${NOTIFICATIONS}/texts`}>{TEXT_PANEL.linkFromNotifications}</a>
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.problem && (
        <div class="errors-summary" role="alert">
          <h2>Could not be done</h2>
          <p>{props.problem}</p>
        </div>
      )}
      {!props.smtp && (
        <p class="notice" role="note">
          No mail server is set (<code>SMTP_URL</code>): nothing is sent. Each email is kept in the mail log
          exactly as it would go out.
        </p>
      )}

      <div class="card">
        <h2>Customer emails</h2>
        <ErrorSummary form={form} />
        <PostForm action={NOTIFICATIONS} csrf={props.csrf} label="Notification settings">
          <fieldset
            class={`field checks${form.errors.customer_emails ? ' has-error' : ''}`}
            id={fieldId('customer_emails')}
          >
            <legend>Send these to customers who gave an email address</legend>
            {CUSTOMER_EMAILS.map((kind) => (
              <label>
                <input type="checkbox" name="customer_emails" value={kind} checked={chosen.has(kind)} />{' '}
                {CUSTOMER_EMAIL_LABEL[kind]}
              </label>
            ))}
            <FieldError form={form} name="customer_emails" />
          </fieldset>
          <fieldset
            class={`field${hoursInvalid ? ' has-error' : ''}`}
            id={fieldId('reminder_hours')}
            aria-describedby={`${fieldId('reminder_hours')}-hint${hoursInvalid ? ` ${fieldId('reminder_hours')}-error` : ''}`}
          >
            <legend>Reminders</legend>
            <span class="hint" id={`${fieldId('reminder_hours')}-hint`}>
              Hours before the start; leave both empty for no reminder. A reminder due while the server was
              down goes out late, but never after the booking started.
            </span>
            <div class="row">
              {[0, 1].map((index) => (
                <label class="inline-field">
                  <span>{index === 0 ? 'First reminder (hours)' : 'Second reminder (hours)'}</span>
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
            label="Sender name"
            hint="Shown as the sender of every email; empty for the workspace's name."
            autocomplete="off"
          />
          <TextField
            form={form}
            name="reply_to"
            label="Reply-to address (optional)"
            type="email"
            hint="Where customers' replies go."
            autocomplete="off"
          />
          <button type="submit">Save settings</button>
        </PostForm>
      </div>

      <div class="card">
        <h2>Staff emails</h2>
        <p class="muted">
          Link each staffer to the panel user who is that staffer. This one link decides where the staffer’s
          booking emails go, and which staffer is that user’s own: their own calendar column and calendar
          feed. A staffer with no linked user gets its emails at its own address. Each linked user chooses
          what they get under “Your booking emails”.
        </p>
        {props.staffers.length === 0 && <p class="muted">No staffers yet.</p>}
        {props.staffers.map((staffer) => (
          <StafferForm
            staffer={staffer}
            members={props.members}
            csrf={props.csrf}
            {...(props.staffErrors?.stafferId === staffer.id ? { form: props.staffErrors.form } : {})}
          />
        ))}
      </div>

      <div class="card">
        <h2>Test email</h2>
        <p>Sends a test email to you ({props.you}) through the same queue as every other email.</p>
        <PostForm action={`${NOTIFICATIONS}/test`} csrf={props.csrf} class="inline">
          <button type="submit" class="secondary">
            Send me a test email
          </button>
        </PostForm>
      </div>

      <h2 id="log">Mail log</h2>
      <p class="muted">
        {props.total === 0
          ? 'No emails yet.'
          : `${props.total} email${props.total === 1 ? '' : 's'}, newest first.`}{' '}
        <a href={`${NOTIFICATIONS}#log`}>Refresh</a>
      </p>
      {props.log.length > 0 && (
        <div class="table-wrap">
          <table class="stack" aria-label="Mail log">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Server answer</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.log.map((row) => {
                const status = mailStatus(row);
                return (
                  <tr data-mail={row.id}>
                    <td data-label="Email">
                      <a href={`${NOTIFICATIONS}/messages/${row.id}`}>
                        {row.subject ?? KIND_LABEL[row.kind]}
                      </a>
                      <div class="muted">
                        {KIND_LABEL[row.kind]} ·{' '}
                        {row.state === 'sent' ? `sent ${when(row.sent_at)}` : `due ${when(row.due_at)}`}
                      </div>
                    </td>
                    <td data-label="To" class="wrap">
                      {row.recipient}
                    </td>
                    <td data-label="Status">
                      <span class={`badge ${status.badge}`}>{status.label}</span>
                      {row.attempt_count > 1 && <div class="muted">{row.attempt_count} attempts</div>}
                    </td>
                    <td data-label="Server answer" class="wrap">
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
                            Resend
                            <span class="skip-label">
                              {' '}
                              {row.subject ?? KIND_LABEL[row.kind]} to {row.recipient}
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
        <nav class="row" aria-label="Mail log pages">
          {props.page > 1 && <a href={`${NOTIFICATIONS}?page=${props.page - 1}#log`}>Newer</a>}
          <span class="muted">
            Page {props.page} of {pages}
          </span>
          {props.page < pages && <a href={`${NOTIFICATIONS}?page=${props.page + 1}#log`}>Older</a>}
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
}) {
  const { staffer } = props;
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
      label={`Booking emails of ${name}`}
    >
      <h3>{name}</h3>
      <p class="muted">
        {goesTo ? `Emails go to ${goesTo}.` : 'Gets no emails: link a user or give an address.'}
      </p>
      <ErrorSummary form={form} />
      <div class="row">
        <div
          class={`field${form.errors.user_id ? ' has-error' : ''}`}
          id={form.errors.user_id ? fieldId('user_id') : undefined}
        >
          <label for={`${prefix}-user`}>Linked panel user</label>
          <span class="hint" id={`${prefix}-user-hint`}>
            Gets the booking emails, and has {name} as their own calendar column and calendar feed.
          </span>
          <select
            id={`${prefix}-user`}
            name="user_id"
            aria-describedby={`${prefix}-user-hint${form.errors.user_id ? ` ${prefix}-user-error` : ''}`}
            aria-invalid={form.errors.user_id ? 'true' : undefined}
          >
            <option value="">None</option>
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
          <label for={`${prefix}-email`}>Or an email address</label>
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
        <legend>Send</legend>
        <div class="row">
          {STAFF_EMAILS.map((kind) => (
            <label>
              <input type="checkbox" name="booking_emails" value={kind} checked={wants.has(kind)} />{' '}
              {STAFF_EMAIL_LABEL[kind]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" class="secondary">
        Save<span class="skip-label"> for {name}</span>
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
}

export function MessagePage(props: MessagePageProps) {
  const { message } = props;
  const status = mailStatus(message);
  return (
    <>
      <Crumbs last="Mail log" />
      <h1>{props.subject}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        <dl class="meta">
          <dt>Status</dt>
          <dd>
            <span class={`badge ${status.badge}`}>{status.label}</span>
          </dd>
          <dt>Kind</dt>
          <dd>{KIND_LABEL[message.kind]}</dd>
          <dt>From</dt>
          <dd class="wrap">{props.from}</dd>
          <dt>To</dt>
          <dd class="wrap">{message.recipient}</dd>
          <dt>Message-ID</dt>
          <dd class="wrap">
            <code>{props.messageId}</code>
          </dd>
          <dt>Due</dt>
          <dd>{when(message.due_at)}</dd>
          <dt>Sent</dt>
          <dd>{when(message.sent_at)}</dd>
          <dt>Attempts</dt>
          <dd>{message.attempt_count}</dd>
          <dt>Server answer</dt>
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
                Resend
              </button>
            </PostForm>
          </div>
        )}
      </div>
      <h2>Text</h2>
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
