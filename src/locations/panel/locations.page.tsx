import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  TextAreaField,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { WeeklyJson } from '../../platform/db/schema.js';
import { timeZones, weekdayName, zoneTitle } from '../../platform/time/format.js';
import type { LocationRow } from '../locations.repository.js';
import { WEEKDAYS } from '../locations.schemas.js';

export const LOCATIONS = `${PANEL_PREFIX}/setup/locations`;

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

/** "Mon 09:00–17:00 · Sat 10:00–14:00" ("Mo. 09:00–17:00 …"), or "Closed every day". */
export function hoursSummary(hours: WeeklyJson, text: PanelText): string {
  const days = WEEKDAYS.filter((day) => (hours[day] ?? []).length > 0).map(
    (day) =>
      `${weekdayName(day, text.locale, 'short')} ${(hours[day] ?? []).map((r) => `${r.from}–${r.to}`).join(', ')}`,
  );
  return days.length > 0 ? days.join(' · ') : text.t('locations.closedEveryDay');
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

export function LocationsPage(props: { locations: LocationRow[]; notice?: string; text: PanelText }) {
  const { t } = props.text;
  const live = props.locations.filter((location) => location.archived_at === null);
  const archived = props.locations.filter((location) => location.archived_at !== null);
  return (
    <>
      <p class="crumbs">{t('nav.setup')} /</p>
      <h1>{t('nav.locations')}</h1>
      <p class="lead">
        {withElements((values) => t('locations.lead', values), { code: <code>GET /locations</code> })}
      </p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${LOCATIONS}/new`}>
          {t('locations.add')}
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('nav.locations')}>
          <thead>
            <tr>
              <th scope="col">{t('locations.name')}</th>
              <th scope="col">{t('locations.address')}</th>
              <th scope="col">{t('locations.timezone')}</th>
              <th scope="col">{t('locations.hours')}</th>
            </tr>
          </thead>
          <tbody>
            {live.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  {t('locations.none')}
                </td>
              </tr>
            )}
            {live.map((location) => (
              <tr>
                <td data-label={t('locations.name')}>
                  <a href={`${LOCATIONS}/${location.id}`}>{location.name}</a>
                </td>
                <td data-label={t('locations.address')}>
                  {address(location) || <span class="muted">—</span>}
                </td>
                <td data-label={t('locations.timezone')}>{location.timezone}</td>
                <td data-label={t('locations.hours')}>{hoursSummary(location.opening_hours, props.text)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {archived.length > 0 && (
        <>
          <h2>{t('kit.archived')}</h2>
          <p class="muted">{t('locations.archivedLead')}</p>
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

function OpeningHoursField({ form, text }: { form: FormState; text: PanelText }) {
  const { t } = text;
  const invalid = Object.keys(form.errors).some((key) => key.startsWith('opening_hours'));
  return (
    <fieldset class={`field hours${invalid ? ' has-error' : ''}`} id={fieldId('opening_hours')}>
      <legend>{t('locations.hours')}</legend>
      <span class="hint">{t('locations.hoursHint')}</span>
      {form.errors.opening_hours && (
        <p class="error" id={`${fieldId('opening_hours')}-error`}>
          {form.errors.opening_hours.join(' ')}
        </p>
      )}
      {WEEKDAYS.map((day) => {
        const rows = rowsOf(form, day);
        const dayName = weekdayName(day, text.locale, 'long');
        const dayInvalid = Object.keys(form.errors).some((key) => key.startsWith(`opening_hours.${day}`));
        return (
          <div class={`hours-day${dayInvalid ? ' has-error' : ''}`} id={fieldId(`opening_hours.${day}`)}>
            <span class="hours-name">{dayName}</span>
            <div class="hours-ranges">
              {Array.from({ length: rows }, (_, index) => (
                <span class="hours-range">
                  {(['from', 'to'] as const).map((end) => {
                    const key = hoursKey(day, index, end);
                    const value = form.values[key];
                    return (
                      <label class="inline-field">
                        <span class="visually-hidden">
                          {t(end === 'from' ? 'locations.rangeOpens' : 'locations.rangeCloses', {
                            day: dayName,
                            n: index + 1,
                          })}
                        </span>
                        <span aria-hidden="true">
                          {t(end === 'from' ? 'locations.opens' : 'locations.closes')}
                        </span>
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
  text: PanelText;
}) {
  const { form, location } = props;
  const { t } = props.text;
  const action = location ? `${LOCATIONS}/${location.id}` : LOCATIONS;
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={LOCATIONS}>{t('nav.locations')}</a> /
      </p>
      <h1>{location ? location.name : t('locations.add')}</h1>
      <Notice text={props.notice} />
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm
          action={action}
          csrf={props.csrf}
          label={location ? t('locations.edit') : t('locations.add')}
        >
          <TextField form={form} name="name" label={t('locations.name')} autocomplete="off" />
          <TextField
            form={form}
            name="timezone"
            label={t('locations.timezone')}
            hint={t('locations.timezoneHint')}
            list="time-zones"
            autocomplete="off"
          />
          <ZoneList id="time-zones" />
          <TextField
            form={form}
            name="phone"
            label={t('locations.phone')}
            type="tel"
            hint={t('locations.phoneHint')}
            autocomplete="off"
          />
          <fieldset class="field" id={fieldId('address')}>
            <legend>{t('locations.addressOptional')}</legend>
            <TextField
              form={form}
              name="address.address_1"
              label={t('locations.street')}
              autocomplete="off"
            />
            <TextField form={form} name="address.address_2" label={t('locations.line2')} autocomplete="off" />
            <div class="row fields">
              <TextField
                form={form}
                name="address.postal_code"
                label={t('locations.postalCode')}
                autocomplete="off"
              />
              <TextField form={form} name="address.city" label={t('locations.city')} autocomplete="off" />
            </div>
            <TextField
              form={form}
              name="address.country_iso"
              label={t('locations.country')}
              hint={t('locations.countryHint')}
              autocomplete="off"
            />
          </fieldset>
          <TextAreaField form={form} name="description" label={t('locations.description')} rows={3} />
          <OpeningHoursField form={form} text={props.text} />
          <button type="submit">{location ? t('locations.save') : t('locations.addThe')}</button>
        </PostForm>
      </div>
      {location && (
        <div class="card">
          <h2>{t('locations.archive')}</h2>
          <p>{t('locations.archiveText')}</p>
          <PostForm action={`${LOCATIONS}/${location.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              {t('locations.archiveButton', { name: location.name })}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
