import {
  CheckboxesField,
  ErrorSummary,
  type FormState,
  fieldId,
  PostForm,
  SelectField,
  TextAreaField,
  TextField,
} from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import type { BookingForm as BookingFormModes } from '../../platform/db/schema.js';
import { weekdayName } from '../../platform/time/format.js';
import { BOOKINGS, type Choice } from './booking.page.js';

export const NEW_BOOKING = `${BOOKINGS}/new`;

/**
 * The create form's fields; the customer search's links and the free-time buttons carry them.
 * Named as POST /bookings names them, so the create's errors land on them as they are: the
 * services are `service_uuid` (the first is the booking's, more are done after it) and the time
 * is `reserved_on`, a wall time of `date` in the location's zone here.
 */
export const CREATE_FIELDS = [
  'location_uuid',
  'service_uuid',
  'staffer_uuid',
  'date',
  'reserved_on',
  'customer_phone',
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'booking_comment',
  'booking_callback',
] as const;

/**
 * The Repeat fieldset (docs/series.md): off unless `repeat` is `yes`; then the create is POST
 * /series' with `recurrence` built from these.
 */
export const REPEAT_FIELDS = [
  'repeat',
  'repeat_frequency',
  'repeat_interval',
  'repeat_weekdays',
  'repeat_count',
  'repeat_until',
  'repeat_mode',
] as const;

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** What the calendar links with: where and when, not who. */
export const WHERE_AND_WHEN = [
  'location_uuid',
  'service_uuid',
  'staffer_uuid',
  'date',
  'reserved_on',
] as const;

export interface CustomerMatch {
  label: string;
  href: string;
}

export interface NewBookingProps {
  form: FormState;
  locations: Choice[];
  services: Choice[];
  staffers: Choice[];
  /** The free times of the chosen date, services and staffer; undefined until asked. */
  times: Choice[] | undefined;
  zone: string;
  bookingForm: BookingFormModes;
  csrf: string;
  customerQuery: string;
  matches: CustomerMatch[] | undefined;
  /** A refusal of the create (409): its reason and the nearest free times, each one click. */
  problem?: { message: string; times: Choice[]; override?: boolean } | undefined;
  /** A series refused whole (all or nothing): each date's verdict, and free times near a refused one. */
  seriesProblem?: { when: string; free: boolean; nearest: string[] }[] | undefined;
  text: PanelText;
}

export function NewBookingPage(props: NewBookingProps) {
  const { form } = props;
  const { t } = props.text;
  const label = (text: string, mode: string) =>
    mode === 'required' ? t('new.required', { label: text }) : text;
  if (props.locations.length === 0) {
    return (
      <>
        <h1>{t('new.title')}</h1>
        <p>{t('new.noLocation')}</p>
      </>
    );
  }
  const timeOptions = props.times ?? [];
  return (
    <>
      <p class="crumbs">
        <a href={BOOKINGS}>{t('nav.bookings')}</a> /
      </p>
      <h1>{t('new.title')}</h1>
      {props.problem && <Conflict {...props} problem={props.problem} />}
      {props.seriesProblem && <SeriesConflictBox results={props.seriesProblem} text={props.text} />}

      <section class="card" aria-labelledby="find-customer">
        <h2 id="find-customer">{t('new.findCustomer')}</h2>
        <form method="get" action={NEW_BOOKING} aria-label={t('new.findACustomer')}>
          <HiddenFields form={form} names={WHERE_AND_WHEN} />
          <div class="row">
            <TextField
              form={{ values: { customer_q: props.customerQuery }, errors: {} }}
              name="customer_q"
              label={t('customers.nameOrPhone')}
              type="search"
              hint={t('new.searchHint')}
            />
            <button type="submit" class="secondary">
              {t('customers.searchButton')}
            </button>
          </div>
        </form>
        {props.matches &&
          (props.matches.length === 0 ? (
            <p class="muted">{t('new.noMatch')}</p>
          ) : (
            <ul class="matches" aria-label={t('new.matching')}>
              {props.matches.map((match) => (
                <li>
                  <a href={match.href}>{match.label}</a>
                </li>
              ))}
            </ul>
          ))}
      </section>

      <section class="card" aria-labelledby="booking-form">
        <h2 id="booking-form">{t('new.booking')}</h2>
        <ErrorSummary form={form} />
        <PostForm action={BOOKINGS} csrf={props.csrf} label={t('new.title')}>
          <SelectField
            form={form}
            name="location_uuid"
            label={t('list.location')}
            options={props.locations}
          />
          <CheckboxesField
            form={form}
            name="service_uuid"
            legend={t('booking.services')}
            hint={t('new.servicesHint')}
            options={props.services}
          />
          <SelectField
            form={form}
            name="staffer_uuid"
            label={t('booking.staffer')}
            options={props.staffers}
          />
          <TextField
            form={form}
            name="date"
            label={t('booking.date')}
            type="date"
            hint={t('booking.localTo', { zone: props.zone })}
          />
          <button type="submit" name="show" value="times" class="secondary">
            {t('new.showTimes')}
          </button>
          <div class={`field${form.errors.reserved_on ? ' has-error' : ''}`}>
            <label for={fieldId('reserved_on')}>{t('booking.time')}</label>
            <span class="hint" id={`${fieldId('reserved_on')}-hint`}>
              {props.times === undefined
                ? t('new.timesFirst')
                : props.times.length === 0
                  ? t('new.noTimes')
                  : t('new.timesThatDay', { zone: props.zone })}
            </span>
            <select
              id={fieldId('reserved_on')}
              name="reserved_on"
              aria-describedby={`${fieldId('reserved_on')}-hint${form.errors.reserved_on ? ` ${fieldId('reserved_on')}-error` : ''}`}
              aria-invalid={form.errors.reserved_on ? 'true' : undefined}
            >
              <option value="">{t('new.chooseTime')}</option>
              {timeOptions.map((option) => (
                <option value={option.value} selected={option.value === form.values.reserved_on}>
                  {option.label}
                </option>
              ))}
            </select>
            {form.errors.reserved_on && (
              <p class="error" id={`${fieldId('reserved_on')}-error`}>
                {form.errors.reserved_on.join(' ')}
              </p>
            )}
          </div>
          <RepeatFieldset form={form} text={props.text} />
          <h3>{t('booking.customer')}</h3>
          <TextField
            form={form}
            name="customer_phone"
            label={t('new.phone')}
            type="tel"
            hint={t('new.phoneHint')}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="customer_first_name"
            label={label(t('new.firstName'), props.bookingForm.customer_first_name)}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="customer_last_name"
            label={label(t('new.lastName'), props.bookingForm.customer_last_name)}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="customer_email"
            label={label(t('new.email'), props.bookingForm.customer_email)}
            type="email"
            autocomplete="off"
          />
          <TextAreaField
            form={form}
            name="booking_comment"
            label={label(t('new.publicNote'), props.bookingForm.booking_comment)}
            hint={t('new.noteHint')}
          />
          {props.bookingForm.booking_callback !== 'hidden' && (
            <SelectField
              form={form}
              name="booking_callback"
              label={label(t('new.callBack'), props.bookingForm.booking_callback)}
              options={[
                { value: '', label: t('new.notSaid') },
                { value: 'yes', label: t('new.yes') },
                { value: 'no', label: t('new.no') },
              ]}
            />
          )}
          <button type="submit">{t('new.create')}</button>
        </PostForm>
      </section>
    </>
  );
}

/** "Repeat": off by default; each date of the rule is a booking of its own, at the same wall time. */
function RepeatFieldset({ form, text }: { form: FormState; text: PanelText }) {
  const { t } = text;
  const on = form.values.repeat === 'yes';
  return (
    <fieldset class="field repeat" aria-describedby="f-repeat-hint">
      <legend>{t('new.repeat')}</legend>
      <span class="hint" id="f-repeat-hint">
        {t('new.repeatHint')}
      </span>
      <label>
        <input type="checkbox" name="repeat" value="yes" checked={on} id="f-repeat" />
        {t('new.repeatOn')}
      </label>
      <div class="row fields">
        <SelectField
          form={form}
          name="repeat_frequency"
          label={t('new.repeatFrequency')}
          options={[
            { value: 'weekly', label: t('new.repeatWeekly') },
            { value: 'daily', label: t('new.repeatDaily') },
            { value: 'monthly', label: t('new.repeatMonthly') },
          ]}
        />
        <TextField
          form={form}
          name="repeat_interval"
          label={t('new.repeatInterval')}
          type="number"
          min="1"
          max="52"
        />
      </div>
      <CheckboxesField
        form={form}
        name="repeat_weekdays"
        legend={t('new.repeatWeekdays')}
        options={WEEKDAYS.map((day) => ({ value: day, label: weekdayName(day, text.locale, 'short') }))}
      />
      <div class="row fields">
        <TextField
          form={form}
          name="repeat_count"
          label={t('new.repeatCount')}
          type="number"
          min="1"
          max="52"
        />
        <TextField form={form} name="repeat_until" label={t('new.repeatUntil')} type="date" />
      </div>
      <SelectField
        form={form}
        name="repeat_mode"
        label={t('new.repeatMode')}
        options={[
          { value: 'all_or_nothing', label: t('new.repeatAllOrNothing') },
          { value: 'book_free', label: t('new.repeatBookFree') },
        ]}
      />
    </fieldset>
  );
}

function SeriesConflictBox(props: {
  results: { when: string; free: boolean; nearest: string[] }[];
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <div class="errors-summary conflict" role="alert" tabIndex={-1}>
      <h2>{t('new.seriesConflict')}</h2>
      <ul>
        {props.results.map((result) => (
          <li>
            {result.free
              ? t('new.seriesDateFree', { when: result.when })
              : t('new.seriesDateTaken', { when: result.when })}
            {!result.free &&
              (result.nearest.length > 0
                ? ` ${t('new.seriesNearest', { times: result.nearest.join(', ') })}`
                : '')}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The form's values as hidden inputs (a search or a one-click time carries the rest along). */
function HiddenFields(props: { form: FormState; names: readonly string[]; except?: string }) {
  return (
    <>
      {props.names
        .filter((name) => name !== props.except)
        .flatMap((name) => {
          const value = props.form.values[name];
          const values = Array.isArray(value) ? value : value ? [value] : [];
          return values.map((item) => <input type="hidden" name={name} value={item} />);
        })}
    </>
  );
}

function Conflict(
  props: NewBookingProps & { problem: { message: string; times: Choice[]; override?: boolean } },
) {
  const { t } = props.text;
  return (
    <div class="errors-summary conflict" role="alert" tabIndex={-1}>
      <h2>{props.problem.message}</h2>
      {props.problem.override && (
        <PostForm action={BOOKINGS} csrf={props.csrf} label={t('booking.bookAnyway')}>
          <HiddenFields form={props.form} names={[...CREATE_FIELDS, ...REPEAT_FIELDS]} />
          <input type="hidden" name="override_busy" value="yes" />
          <button type="submit" class="danger">
            {t('booking.bookAnyway')}
          </button>
        </PostForm>
      )}
      {props.problem.times.length === 0 ? (
        <p>{t('new.noOtherTime')}</p>
      ) : (
        <>
          <p>{t('new.freeTimes')}</p>
          <div class="row free-times">
            {props.problem.times.map((time) => (
              <PostForm
                action={BOOKINGS}
                csrf={props.csrf}
                class="inline"
                label={t('new.bookAt', { time: time.label })}
              >
                <HiddenFields
                  form={props.form}
                  names={[...CREATE_FIELDS, ...REPEAT_FIELDS]}
                  except="reserved_on"
                />
                <input type="hidden" name="reserved_on" value={time.value} />
                <button type="submit" class="secondary">
                  {time.label}
                </button>
              </PostForm>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
