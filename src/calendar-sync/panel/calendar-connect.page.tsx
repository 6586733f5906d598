import {
  CheckboxesField,
  ErrorSummary,
  type FormState,
  PostForm,
  SelectField,
  TextField,
} from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import type { ConnectionView } from '../calendar-sync.service.js';
import type { RemoteCalendar } from '../providers/calendar-provider.js';

/** The settings a connection has besides its calendars, as the form's one group of checkboxes. */
export const OPTIONS = ['all_day_blocks', 'show_titles', 'customer_name_in_events'] as const;

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A staffer's own calendar in the panel (docs/calendar-sync.md): the connection and its state,
 * "Sync now" and "Disconnect", and the connect form in two steps: the account (server address,
 * user, app password; "Test connection" runs discovery), then the calendars found (which block,
 * which takes the bookings) and the settings. The same page serves a staffer's page for owners
 * and admins and "Your calendar" for the member who is the staffer; `base` is where it posts.
 */
export function CalendarConnectPage(props: {
  text: PanelText;
  csrf: string;
  base: string;
  title: string;
  stafferName: string;
  /** A link back (the staffer's page); none on "Your calendar". */
  back?: { href: string; label: string } | undefined;
  connection: ConnectionView | null;
  /** The first step's form (values and errors of server_url, username, password). */
  form: FormState;
  /** After a working "Test connection": the calendars found, and the sealed password to carry on. */
  found?: { calendars: RemoteCalendar[]; sealed: string; form: FormState } | undefined;
  notice?: string | undefined;
}) {
  const { t } = props.text;
  const c = props.connection;
  return (
    <>
      {props.back && (
        <p class="crumbs">
          <a href={props.back.href}>{props.back.label}</a> /
        </p>
      )}
      <h1>{props.title}</h1>
      <p class="lead">{t('calsync.lead', { name: props.stafferName })}</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {c && (
        <div class="card calendar-sync" id="connection">
          <h2>{t('calsync.connection')}</h2>
          <p>
            {t('calsync.connectedAs', { user: c.username, server: c.server_url })}{' '}
            {t('calsync.readCount', { n: c.read_calendars.length })}{' '}
            {c.write_calendar ? t('calsync.writes') : t('calsync.writesNone')}
          </p>
          {c.status === 'ok' ? (
            <p class="muted">
              {c.last_success_at
                ? t('calsync.lastRead', { when: when(c.last_success_at) })
                : t('calsync.notRead')}
            </p>
          ) : (
            <p class="warning" role="status">
              {c.status === 'refused' ? t('calsync.refused') : t('calsync.unreachable')}{' '}
              {t('calsync.stillBlocks', { error: c.last_error ?? '–' })}
            </p>
          )}
          <div>
            <PostForm action={`${props.base}/sync`} csrf={props.csrf} class="inline">
              <button type="submit">{t('calsync.syncNow')}</button>
            </PostForm>{' '}
            <PostForm action={`${props.base}/disconnect`} csrf={props.csrf} class="inline">
              <button type="submit" class="danger">
                {t('calsync.disconnect')}
              </button>
            </PostForm>
          </div>
          <p class="muted">{t('calsync.disconnectNote')}</p>
        </div>
      )}
      {props.found ? (
        <CalendarsStep {...props} found={props.found} />
      ) : (
        <div class="card" id="connect">
          <h2>{c ? t('calsync.change') : t('calsync.connect')}</h2>
          <ErrorSummary form={props.form} />
          <PostForm action={`${props.base}/test`} csrf={props.csrf} label={t('calsync.account')}>
            <TextField
              form={props.form}
              name="server_url"
              type="url"
              label={t('calsync.server')}
              hint={t('calsync.serverHint')}
              autocomplete="url"
              required
            />
            <TextField
              form={props.form}
              name="username"
              label={t('calsync.user')}
              autocomplete="username"
              required
            />
            <TextField
              form={props.form}
              name="password"
              type="password"
              label={t('calsync.password')}
              hint={
                c ? `${t('calsync.passwordHint')} ${t('calsync.passwordKeep')}` : t('calsync.passwordHint')
              }
              autocomplete="new-password"
            />
            <button type="submit">{t('calsync.test')}</button>
          </PostForm>
        </div>
      )}
    </>
  );
}

/** The second step: what the account holds, to pick from, and the settings. */
function CalendarsStep(props: {
  text: PanelText;
  csrf: string;
  base: string;
  connection: ConnectionView | null;
  form: FormState;
  found: { calendars: RemoteCalendar[]; sealed: string; form: FormState };
}) {
  const { t } = props.text;
  const { calendars, sealed, form } = props.found;
  const events = calendars.filter((calendar) => calendar.events);
  const values = props.form.values;
  return (
    <div class="card" id="connect">
      <h2>{t('calsync.pick')}</h2>
      <p class="notice" role="status">
        {t('calsync.found', { n: events.length, server: String(values.server_url ?? '') })}
      </p>
      <ErrorSummary form={form} />
      <PostForm action={props.base} csrf={props.csrf} label={t('calsync.pick')}>
        <input type="hidden" name="server_url" value={String(values.server_url ?? '')} />
        <input type="hidden" name="username" value={String(values.username ?? '')} />
        <input type="hidden" name="sealed_password" value={sealed} />
        <CheckboxesField
          form={form}
          name="read_calendars"
          legend={t('calsync.read')}
          hint={t('calsync.readHint')}
          options={events.map((calendar) => ({ value: calendar.url, label: calendar.name }))}
        />
        <SelectField
          form={form}
          name="write_calendar"
          label={t('calsync.write')}
          options={[
            { value: '', label: t('calsync.writeNowhere') },
            ...events.map((calendar) => ({ value: calendar.url, label: calendar.name })),
          ]}
        />
        <CheckboxesField
          form={form}
          name="options"
          legend={t('calsync.settings')}
          options={[
            { value: 'all_day_blocks', label: t('calsync.allDay') },
            { value: 'show_titles', label: t('calsync.showTitles') },
            { value: 'customer_name_in_events', label: t('calsync.customerName') },
          ]}
        />
        <button type="submit">{props.connection ? t('calsync.save') : t('calsync.connectButton')}</button>{' '}
        <a href={props.base}>{t('calsync.startOver')}</a>
      </PostForm>
    </div>
  );
}

/** "Your calendar" for a member who is no staffer here: nothing to connect, and who can change that. */
export function UnlinkedCalendarPage(props: { text: PanelText }) {
  const { t } = props.text;
  return (
    <>
      <h1>{t('nav.yourCalendar')}</h1>
      <p class="lead">{t('calsync.unlinked')}</p>
    </>
  );
}
