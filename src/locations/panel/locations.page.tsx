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
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { WeeklyJson } from '../../platform/db/schema.js';
import { timeZones, zoneTitle } from '../../platform/time/format.js';
import type { LocationRow } from '../locations.repository.js';
import { WEEKDAYS } from '../locations.schemas.js';

export const LOCATIONS = `${PANEL_PREFIX}/setup/locations`;

export const WEEKDAY_NAMES: Record<(typeof WEEKDAYS)[number], string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** Open-close ranges a day shows at least (more when the location already has more). */
export const HOURS_ROWS = 2;
/** The schema's bound on one day's ranges. */
export const HOURS_MAX_ROWS = 12;

export const hoursKey = (day: string, index: number, end: 'from' | 'to') =>
  `opening_hours.${day}.${index}.${end}`;

/** How many range rows a day shows: what it holds (as stored or as typed), at least HOURS_ROWS. */
function rowsOf(form: FormState, day: string): number {
  let rows = HOURS_ROWS;
  for (let index = 0; index < HOURS_MAX_ROWS; index++) {
    const typed = [hoursKey(day, index, 'from'), hoursKey(day, index, 'to')].some((key) => {
      const value = form.values[key];
      return typeof value === 'string' && value !== '';
    });
    if (typed) rows = Math.max(rows, index + 1);
  }
  return rows;
}

/** "Mon 09:00–17:00 · Sat 10:00–14:00", or "Closed every day". */
export function hoursSummary(hours: WeeklyJson): string {
  const days = WEEKDAYS.filter((day) => (hours[day] ?? []).length > 0).map(
    (day) =>
      `${WEEKDAY_NAMES[day].slice(0, 3)} ${(hours[day] ?? []).map((r) => `${r.from}–${r.to}`).join(', ')}`,
  );
  return days.length > 0 ? days.join(' · ') : 'Closed every day';
}

function address(location: LocationRow): string {
  return [
    location.address_1,
    location.address_2,
    [location.postal_code, location.city].filter(Boolean).join(' '),
    location.country_iso,
  ]
    .filter((part) => part.trim() !== '')
    .join(', ');
}

export function LocationsPage(props: { locations: LocationRow[]; notice?: string }) {
  const live = props.locations.filter((location) => location.archived_at === null);
  const archived = props.locations.filter((location) => location.archived_at !== null);
  return (
    <>
      <p class="crumbs">Setup /</p>
      <h1>Locations</h1>
      <p class="lead">
        Where the business receives customers: each location has its own address, time zone and opening hours.
        The API lists them at <code>GET /locations</code>.
      </p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${LOCATIONS}/new`}>
          Add a location
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label="Locations">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Time zone</th>
              <th scope="col">Opening hours</th>
            </tr>
          </thead>
          <tbody>
            {live.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  No locations yet.
                </td>
              </tr>
            )}
            {live.map((location) => (
              <tr>
                <td data-label="Name">
                  <a href={`${LOCATIONS}/${location.id}`}>{location.name}</a>
                </td>
                <td data-label="Address">{address(location) || <span class="muted">—</span>}</td>
                <td data-label="Time zone">{location.timezone}</td>
                <td data-label="Opening hours">{hoursSummary(location.opening_hours)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {archived.length > 0 && (
        <>
          <h2>Archived</h2>
          <p class="muted">
            Kept for the bookings and payments that refer to them; no longer offered anywhere.
          </p>
          <ul class="archived">
            {archived.map((location) => (
              <li>
                {location.name} <ArchivedBadge />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** The searchable list of IANA zones the time zone field offers. */
export function ZoneList({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {timeZones().map((zone) => (
        <option value={zone}>{zoneTitle(zone)}</option>
      ))}
    </datalist>
  );
}

function OpeningHoursField({ form }: { form: FormState }) {
  const invalid = Object.keys(form.errors).some((key) => key.startsWith('opening_hours'));
  return (
    <fieldset class={`field hours${invalid ? ' has-error' : ''}`} id={fieldId('opening_hours')}>
      <legend>Opening hours</legend>
      <span class="hint">
        Local time of the location, such as 09:00 to 17:00; a second range leaves room for a lunch break.
        Leave a day empty when the location is closed.
      </span>
      {form.errors.opening_hours && (
        <p class="error" id={`${fieldId('opening_hours')}-error`}>
          {form.errors.opening_hours.join(' ')}
        </p>
      )}
      {WEEKDAYS.map((day) => {
        const rows = rowsOf(form, day);
        const dayInvalid = Object.keys(form.errors).some((key) => key.startsWith(`opening_hours.${day}`));
        return (
          <div class={`hours-day${dayInvalid ? ' has-error' : ''}`} id={fieldId(`opening_hours.${day}`)}>
            <span class="hours-name">{WEEKDAY_NAMES[day]}</span>
            <div class="hours-ranges">
              {Array.from({ length: rows }, (_, index) => (
                <span class="hours-range">
                  {(['from', 'to'] as const).map((end) => {
                    const key = hoursKey(day, index, end);
                    const value = form.values[key];
                    return (
                      <label class="inline-field">
                        <span class="visually-hidden">
                          {WEEKDAY_NAMES[day]}, range {index + 1}, {end === 'from' ? 'opens' : 'closes'}
                        </span>
                        <span aria-hidden="true">{end === 'from' ? 'Opens' : 'Closes'}</span>
                        <input
                          type="time"
                          name={key}
                          id={fieldId(key)}
                          value={typeof value === 'string' ? value : ''}
                          aria-invalid={dayInvalid ? 'true' : undefined}
                          aria-describedby={
                            dayInvalid ? `${fieldId(`opening_hours.${day}`)}-error` : undefined
                          }
                        />
                      </label>
                    );
                  })}
                </span>
              ))}
            </div>
            <FieldError form={form} name={`opening_hours.${day}`} />
          </div>
        );
      })}
    </fieldset>
  );
}

export function LocationFormPage(props: {
  form: FormState;
  csrf: string;
  /** The location being edited; a new one when absent. */
  location?: { id: string; name: string };
  notice?: string;
}) {
  const { form, location } = props;
  const action = location ? `${LOCATIONS}/${location.id}` : LOCATIONS;
  return (
    <>
      <p class="crumbs">
        Setup / <a href={LOCATIONS}>Locations</a> /
      </p>
      <h1>{location ? location.name : 'Add a location'}</h1>
      <Notice text={props.notice} />
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={location ? 'Edit the location' : 'Add a location'}>
          <TextField form={form} name="name" label="Name" autocomplete="off" />
          <TextField
            form={form}
            name="timezone"
            label="Time zone"
            hint="The IANA zone opening hours and slots are in; type a city to search, such as Europe/Berlin."
            list="time-zones"
            autocomplete="off"
          />
          <ZoneList id="time-zones" />
          <TextField
            form={form}
            name="phone"
            label="Phone (optional)"
            type="tel"
            hint="As customers should dial it, such as +49 30 1234567."
            autocomplete="off"
          />
          <fieldset class="field" id={fieldId('address')}>
            <legend>Address (optional)</legend>
            <TextField form={form} name="address.address_1" label="Street and number" autocomplete="off" />
            <TextField form={form} name="address.address_2" label="Address line 2" autocomplete="off" />
            <div class="row fields">
              <TextField form={form} name="address.postal_code" label="Postal code" autocomplete="off" />
              <TextField form={form} name="address.city" label="City" autocomplete="off" />
            </div>
            <TextField
              form={form}
              name="address.country_iso"
              label="Country"
              hint="Two-letter ISO 3166-1 code, such as DE."
              autocomplete="off"
            />
          </fieldset>
          <TextAreaField form={form} name="description" label="Description (optional)" rows={3} />
          <OpeningHoursField form={form} />
          <button type="submit">{location ? 'Save the location' : 'Add the location'}</button>
        </PostForm>
      </div>
      {location && (
        <div class="card">
          <h2>Archive</h2>
          <p>
            An archived location is no longer offered: it leaves the API's lists, the booking page and the
            pickers. Its bookings and payments keep it; this cannot be undone here.
          </p>
          <PostForm action={`${LOCATIONS}/${location.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Archive {location.name}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
