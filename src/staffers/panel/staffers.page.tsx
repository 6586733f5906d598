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
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ListPager } from '../../panel-kit/list-pager.js';
import type { OfferedPair, StafferRecord } from '../staffers.repository.js';
import { fullName, STAFFERS } from './staffers.view.js';

/** A checkbox value of the services matrix: one location and one service. */
export const pairValue = (locationId: string, serviceId: string) => `${locationId}|${serviceId}`;

const NOTICES: Record<string, string> = {
  created: 'The staffer is added.',
  saved: 'The staffer is saved.',
  archived: 'The staffer is archived: they no longer take bookings; their past bookings stay.',
  hours: 'The hours are saved.',
};
export const noticeOf = (query: unknown) =>
  NOTICES[String((query as Record<string, unknown> | undefined)?.notice ?? '')];

function Crumbs({ last }: { last?: boolean }) {
  return <p class="crumbs">Setup / {last ? <a href={STAFFERS}>Staff and hours</a> : 'Staff and hours'}</p>;
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
}) {
  return (
    <>
      <Crumbs />
      <h1>Staff and hours</h1>
      <p class="lead">The people who take bookings: what they do where, and their working hours.</p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${STAFFERS}/new`}>
          Add a staffer
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label="Staffers">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Position</th>
              <th scope="col">Provides</th>
            </tr>
          </thead>
          <tbody>
            {props.staffers.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  No staffers yet.
                </td>
              </tr>
            )}
            {props.staffers.map((staffer) => {
              const services = staffer.assignments.reduce((n, a) => n + a.serviceIds.length, 0);
              return (
                <tr>
                  <td data-label="Name">
                    <a href={`${STAFFERS}/${staffer.id}`}>{fullName(staffer)}</a>
                  </td>
                  <td data-label="Position">{staffer.position || <span class="muted">—</span>}</td>
                  <td data-label="Provides">
                    {services === 0
                      ? 'Nothing yet'
                      : `${services} ${services === 1 ? 'service' : 'services'} at ${staffer.assignments.length} ${
                          staffer.assignments.length === 1 ? 'location' : 'locations'
                        }`}
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
        label="Pages of staffers"
      />
    </>
  );
}

/** The location x service matrix: one group of checkboxes per location. */
function ServicesMatrix({ form, pairs }: { form: FormState; pairs: OfferedPair[] }) {
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
      <legend>Services they give, per location</legend>
      {locations.size === 0 && (
        <p class="muted">
          No location offers a service yet: add them under{' '}
          <a href={`${PANEL_PREFIX}/setup/services`}>Services</a> first.
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

function ProfileFields({ form, pairs }: { form: FormState; pairs: OfferedPair[] }) {
  return (
    <>
      <TextField form={form} name="first_name" label="First name" required autocomplete="off" />
      <TextField form={form} name="last_name" label="Last name (optional)" autocomplete="off" />
      <TextField
        form={form}
        name="position"
        label="Position (optional)"
        hint="Shown to customers, such as Senior stylist."
        autocomplete="off"
      />
      <TextAreaField form={form} name="description" label="Description (optional)" rows={3} />
      <TextField
        form={form}
        name="avatar"
        label="Photo URL (optional)"
        type="url"
        hint="An http(s) link to an image. Leave empty for none."
        autocomplete="off"
      />
      <ServicesMatrix form={form} pairs={pairs} />
    </>
  );
}

export function NewStafferPage(props: { form: FormState; csrf: string; pairs: OfferedPair[] }) {
  return (
    <>
      <Crumbs last />
      <h1>Add a staffer</h1>
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm action={STAFFERS} csrf={props.csrf} label="Add a staffer">
          <ProfileFields form={props.form} pairs={props.pairs} />
          <button type="submit">Add staffer</button>
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
}) {
  const path = `${STAFFERS}/${props.staffer.id}`;
  return (
    <>
      <Crumbs last />
      <h1>{fullName(props.staffer)}</h1>
      <Notice text={props.notice} />
      <div class="card">
        <h2>Profile and services</h2>
        <ErrorSummary form={props.form} />
        <PostForm action={path} csrf={props.csrf} label="Staffer profile and services">
          <ProfileFields form={props.form} pairs={props.pairs} />
          <button type="submit">Save staffer</button>
        </PostForm>
      </div>
      <div class="card">
        <h2>Working hours</h2>
        <p class="muted">This week, per location. Times are the location's local time.</p>
        {props.hours.length === 0 && <p>There are no locations yet.</p>}
        {props.hours.map((entry) => (
          <section class="hours-at" aria-label={`Hours at ${entry.locationName}`}>
            <h3>{entry.locationName}</h3>
            {entry.preview ?? <p class="muted">No working hours here yet.</p>}
            <p>
              <a href={`${path}/hours/${entry.locationId}`}>Edit hours at {entry.locationName}</a>
            </p>
          </section>
        ))}
      </div>
      <OwnCalendar calendar={props.calendar} path={path} csrf={props.csrf} stafferId={props.staffer.id} />
      <div class="card">
        <h2>Archive</h2>
        <p>
          An archived staffer takes no new bookings and leaves the lists; their bookings and history stay.
        </p>
        <PostForm action={`${path}/archive`} csrf={props.csrf} label="Archive this staffer">
          <button type="submit" class="danger">
            Archive {fullName(props.staffer)}
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
}) {
  const c = props.calendar;
  return (
    <div class="card calendar-sync" id="own-calendar">
      <h2>Own calendar</h2>
      {!c ? (
        <p class="muted">
          No calendar connected. Connect one (Nextcloud, iCloud, Fastmail, any CalDAV server): its events then
          block this staffer at every location.
        </p>
      ) : (
        <>
          <p>
            {c.username} at <code>{c.server_url}</code>, {c.read_calendars.length}{' '}
            {c.read_calendars.length === 1 ? 'calendar' : 'calendars'} read.
          </p>
          {c.status === 'ok' ? (
            <p class="muted">
              Last read{' '}
              {c.last_success_at
                ? new Date(c.last_success_at).toISOString().slice(0, 16).replace('T', ' ')
                : 'never'}{' '}
              UTC.
            </p>
          ) : (
            <p class="warning" role="status">
              {c.status === 'refused'
                ? 'The calendar refuses the app password: enter a new one.'
                : 'The calendar cannot be reached.'}{' '}
              Its last known busy times still block; bookings are still taken. Last error:{' '}
              {c.last_error ?? '–'}
            </p>
          )}
          <PostForm action={`${props.path}/calendar/sync`} csrf={props.csrf} label="Read the calendar now">
            <button type="submit">Sync now</button>
          </PostForm>
        </>
      )}
      <p>
        <a href={`${props.path}/calendar`}>
          {c ? 'Change or disconnect the calendar' : 'Connect a calendar'}
        </a>
      </p>
    </div>
  );
}
