import type { VNode } from 'preact';
import type { ConnectionView } from '../../calendar-sync/calendar-sync.service.js';
import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  TextAreaField,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ListPager } from '../../panel-kit/list-pager.js';
import type { OfferedPair, StafferRecord } from '../staffers.repository.js';
import { fullName, STAFFERS } from './staffers.view.js';

/** A checkbox value of the services matrix: one location and one service. */
export const pairValue = (locationId: string, serviceId: string) => `${locationId}|${serviceId}`;

const NOTICES: Record<string, PanelKey> = {
  created: 'staffers.created',
  saved: 'staffers.saved',
  archived: 'staffers.archived',
  hours: 'staffers.hoursSaved',
};
export const noticeOf = (query: unknown, text: PanelText): string | undefined => {
  const key = NOTICES[String((query as Record<string, unknown> | undefined)?.notice ?? '')];
  return key ? text.t(key) : undefined;
};

function Crumbs({ last, text }: { last?: boolean; text: PanelText }) {
  const { t } = text;
  return (
    <p class="crumbs">
      {t('nav.setup')} / {last ? <a href={STAFFERS}>{t('nav.staffers')}</a> : t('nav.staffers')}
    </p>
  );
}

function Notice({ text }: { text: string | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

export function StaffersPage(props: {
  staffers: StafferRecord[];
  page: number;
  perPage: number;
  total: number;
  notice?: string | undefined;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <Crumbs text={props.text} />
      <h1>{t('nav.staffers')}</h1>
      <p class="lead">{t('staffers.lead')}</p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${STAFFERS}/new`}>
          {t('staffers.add')}
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('staffers.table')}>
          <thead>
            <tr>
              <th scope="col">{t('staffers.name')}</th>
              <th scope="col">{t('staffers.position')}</th>
              <th scope="col">{t('staffers.provides')}</th>
            </tr>
          </thead>
          <tbody>
            {props.staffers.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  {t('staffers.none')}
                </td>
              </tr>
            )}
            {props.staffers.map((staffer) => {
              const services = staffer.assignments.reduce((n, a) => n + a.serviceIds.length, 0);
              return (
                <tr>
                  <td data-label={t('staffers.name')}>
                    <a href={`${STAFFERS}/${staffer.id}`}>{fullName(staffer)}</a>
                  </td>
                  <td data-label={t('staffers.position')}>
                    {staffer.position || <span class="muted">—</span>}
                  </td>
                  <td data-label={t('staffers.provides')}>
                    {services === 0
                      ? t('staffers.nothingYet')
                      : t('staffers.servicesAt', { services, locations: staffer.assignments.length })}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ListPager
        page={props.page}
        perPage={props.perPage}
        total={props.total}
        href={(page) => `${STAFFERS}?page=${page}`}
        label={t('staffers.pages')}
      />
    </>
  );
}

/** The location x service matrix: one group of checkboxes per location. */
function ServicesMatrix({ form, pairs, text }: { form: FormState; pairs: OfferedPair[]; text: PanelText }) {
  const { t } = text;
  const invalid = Object.keys(form.errors).some((key) => key === 'services' || key.startsWith('services.'));
  const raw = form.values.services;
  const checked = new Set(Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []);
  const locations = new Map<string, { name: string; services: OfferedPair[] }>();
  for (const pair of pairs) {
    const entry = locations.get(pair.location_id) ?? { name: pair.location_name, services: [] };
    entry.services.push(pair);
    locations.set(pair.location_id, entry);
  }
  return (
    <fieldset
      class={`field matrix${invalid ? ' has-error' : ''}`}
      id={fieldId('services')}
      aria-describedby={invalid ? `${fieldId('services')}-error` : undefined}
    >
      <legend>{t('staffers.matrix')}</legend>
      {locations.size === 0 && (
        <p class="muted">
          {withElements((values) => t('staffers.matrixEmpty', values), {
            link: <a href={`${PANEL_PREFIX}/setup/services`}>{t('nav.services')}</a>,
          })}
        </p>
      )}
      <div class="matrix-groups">
        {[...locations].map(([locationId, location]) => (
          <fieldset class="checks">
            <legend>{location.name}</legend>
            {location.services.map((pair) => {
              const value = pairValue(locationId, pair.service_id);
              return (
                <label>
                  <input type="checkbox" name="services" value={value} checked={checked.has(value)} />
                  {pair.service_name}
                </label>
              );
            })}
          </fieldset>
        ))}
      </div>
      <FieldError form={form} name="services" />
    </fieldset>
  );
}

function ProfileFields({ form, pairs, text }: { form: FormState; pairs: OfferedPair[]; text: PanelText }) {
  const { t } = text;
  return (
    <>
      <TextField form={form} name="first_name" label={t('staffers.firstName')} required autocomplete="off" />
      <TextField form={form} name="last_name" label={t('staffers.lastName')} autocomplete="off" />
      <TextField
        form={form}
        name="position"
        label={t('staffers.positionLabel')}
        hint={t('staffers.positionHint')}
        autocomplete="off"
      />
      <TextAreaField form={form} name="description" label={t('staffers.description')} rows={3} />
      <TextField
        form={form}
        name="avatar"
        label={t('staffers.avatar')}
        type="url"
        hint={t('staffers.avatarHint')}
        autocomplete="off"
      />
      <ServicesMatrix form={form} pairs={pairs} text={text} />
    </>
  );
}

export function NewStafferPage(props: {
  form: FormState;
  csrf: string;
  pairs: OfferedPair[];
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <Crumbs last text={props.text} />
      <h1>{t('staffers.add')}</h1>
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm action={STAFFERS} csrf={props.csrf} label={t('staffers.add')}>
          <ProfileFields form={props.form} pairs={props.pairs} text={props.text} />
          <button type="submit">{t('staffers.addThe')}</button>
        </PostForm>
      </div>
    </>
  );
}

export function StafferPage(props: {
  staffer: StafferRecord;
  form: FormState;
  csrf: string;
  pairs: OfferedPair[];
  /** One week preview (or a "no hours" line) per live location, with its edit link. */
  hours: { locationId: string; locationName: string; preview: VNode | null }[];
  /** The staffer's own calendar (docs/calendar-sync.md); null = none connected. */
  calendar: ConnectionView | null;
  notice?: string | undefined;
  text: PanelText;
}) {
  const { t } = props.text;
  const path = `${STAFFERS}/${props.staffer.id}`;
  return (
    <>
      <Crumbs last text={props.text} />
      <h1>{fullName(props.staffer)}</h1>
      <Notice text={props.notice} />
      <div class="card">
        <h2>{t('staffers.profile')}</h2>
        <ErrorSummary form={props.form} />
        <PostForm action={path} csrf={props.csrf} label={t('staffers.profileForm')}>
          <ProfileFields form={props.form} pairs={props.pairs} text={props.text} />
          <button type="submit">{t('staffers.save')}</button>
        </PostForm>
      </div>
      <div class="card">
        <h2>{t('staffers.hours')}</h2>
        <p class="muted">{t('staffers.hoursLead')}</p>
        {props.hours.length === 0 && <p>{t('staffers.noLocations')}</p>}
        {props.hours.map((entry) => (
          <section class="hours-at" aria-label={t('staffers.hoursAt', { location: entry.locationName })}>
            <h3>{entry.locationName}</h3>
            {entry.preview ?? <p class="muted">{t('staffers.noHours')}</p>}
            <p>
              <a href={`${path}/hours/${entry.locationId}`}>
                {t('staffers.editHours', { location: entry.locationName })}
              </a>
            </p>
          </section>
        ))}
      </div>
      <OwnCalendar
        calendar={props.calendar}
        path={path}
        csrf={props.csrf}
        stafferId={props.staffer.id}
        text={props.text}
      />
      <div class="card">
        <h2>{t('staffers.archive')}</h2>
        <p>{t('staffers.archiveText')}</p>
        <PostForm action={`${path}/archive`} csrf={props.csrf} label={t('staffers.archiveForm')}>
          <button type="submit" class="danger">
            {t('staffers.archiveButton', { name: fullName(props.staffer) })}
          </button>
        </PostForm>
      </div>
    </>
  );
}

/** The staffer's own calendar: what is connected, whether it syncs, and "sync now". */
function OwnCalendar(props: {
  calendar: ConnectionView | null;
  path: string;
  csrf: string;
  stafferId: string;
  text: PanelText;
}) {
  const { t } = props.text;
  const c = props.calendar;
  return (
    <div class="card calendar-sync" id="own-calendar">
      <h2>{t('staffers.cal.title')}</h2>
      {!c ? (
        <p class="muted">{t('staffers.cal.none')}</p>
      ) : (
        <>
          <p>
            {withElements(
              (values) =>
                t('staffers.cal.account', { ...values, user: c.username, n: c.read_calendars.length }),
              { server: <code>{c.server_url}</code> },
            )}
          </p>
          {c.status === 'ok' ? (
            <p class="muted">
              {t('staffers.cal.lastRead', {
                when: c.last_success_at
                  ? new Date(c.last_success_at).toISOString().slice(0, 16).replace('T', ' ')
                  : t('staffers.cal.never'),
              })}
            </p>
          ) : (
            <p class="warning" role="status">
              {c.status === 'refused' ? t('staffers.cal.refused') : t('calsync.unreachable')}{' '}
              {t('staffers.cal.stillBlocks', { error: c.last_error ?? '–' })}
            </p>
          )}
          <PostForm
            action={`${props.path}/calendar/sync`}
            csrf={props.csrf}
            label={t('staffers.cal.readNow')}
          >
            <button type="submit">{t('calsync.syncNow')}</button>
          </PostForm>
        </>
      )}
      <p>
        <a href={`${props.path}/calendar`}>{c ? t('staffers.cal.change') : t('calsync.connect')}</a>
      </p>
    </div>
  );
}
