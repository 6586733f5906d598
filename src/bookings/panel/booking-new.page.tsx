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
import type { BookingForm as BookingFormModes } from '../../platform/db/schema.js';
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
  problem?: { message: string; times: Choice[] } | undefined;
}

const label = (text: string, mode: string) => (mode === 'required' ? `${text} (required)` : text);

export function NewBookingPage(props: NewBookingProps) {
  const { form } = props;
  if (props.locations.length === 0) {
    return (
      <>
        <h1>New booking</h1>
        <p>There is no location yet. An owner or admin adds one under Setup → Locations.</p>
      </>
    );
  }
  const timeOptions = props.times ?? [];
  return (
    <>
      <p class="crumbs">
        <a href={BOOKINGS}>Bookings</a> /
      </p>
      <h1>New booking</h1>
      {props.problem && <Conflict {...props} problem={props.problem} />}

      <section class="card" aria-labelledby="find-customer">
        <h2 id="find-customer">Find the customer</h2>
        <form method="get" action={NEW_BOOKING} aria-label="Find a customer">
          <HiddenFields form={form} names={WHERE_AND_WHEN} />
          <div class="row">
            <TextField
              form={{ values: { customer_q: props.customerQuery }, errors: {} }}
              name="customer_q"
              label="Name or phone"
              type="search"
              hint="Part of the name or phone number of a customer who booked before."
            />
            <button type="submit" class="secondary">
              Search
            </button>
          </div>
        </form>
        {props.matches &&
          (props.matches.length === 0 ? (
            <p class="muted">No customer matches. Enter the new customer's phone and name below.</p>
          ) : (
            <ul class="matches" aria-label="Matching customers">
              {props.matches.map((match) => (
                <li>
                  <a href={match.href}>{match.label}</a>
                </li>
              ))}
            </ul>
          ))}
      </section>

      <section class="card" aria-labelledby="booking-form">
        <h2 id="booking-form">Booking</h2>
        <ErrorSummary form={form} />
        <PostForm action={BOOKINGS} csrf={props.csrf} label="New booking">
          <SelectField form={form} name="location_uuid" label="Location" options={props.locations} />
          <CheckboxesField
            form={form}
            name="service_uuid"
            legend="Services"
            hint="One or more, done one after the other."
            options={props.services}
          />
          <SelectField form={form} name="staffer_uuid" label="Staffer" options={props.staffers} />
          <TextField form={form} name="date" label="Date" type="date" hint={`Local to ${props.zone}.`} />
          <button type="submit" name="show" value="times" class="secondary">
            Show free times
          </button>
          <div class={`field${form.errors.reserved_on ? ' has-error' : ''}`}>
            <label for={fieldId('reserved_on')}>Time</label>
            <span class="hint" id={`${fieldId('reserved_on')}-hint`}>
              {props.times === undefined
                ? 'Choose the services and the date, then press “Show free times”.'
                : props.times.length === 0
                  ? 'No free time that day for this choice. Try another date or staffer.'
                  : `The free times that day, ${props.zone}.`}
            </span>
            <select
              id={fieldId('reserved_on')}
              name="reserved_on"
              aria-describedby={`${fieldId('reserved_on')}-hint${form.errors.reserved_on ? ` ${fieldId('reserved_on')}-error` : ''}`}
              aria-invalid={form.errors.reserved_on ? 'true' : undefined}
            >
              <option value="">Choose a time</option>
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
          <h3>Customer</h3>
          <TextField
            form={form}
            name="customer_phone"
            label="Phone (required)"
            type="tel"
            hint="International format, such as +49 151 12345678. A known phone books for that customer."
            autocomplete="off"
          />
          <TextField
            form={form}
            name="customer_first_name"
            label={label('First name', props.bookingForm.customer_first_name)}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="customer_last_name"
            label={label('Last name', props.bookingForm.customer_last_name)}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="customer_email"
            label={label('Email', props.bookingForm.customer_email)}
            type="email"
            autocomplete="off"
          />
          <TextAreaField
            form={form}
            name="booking_comment"
            label={label('Public note', props.bookingForm.booking_comment)}
            hint="Optional unless the booking form requires it; the customer can read it."
          />
          {props.bookingForm.booking_callback !== 'hidden' && (
            <SelectField
              form={form}
              name="booking_callback"
              label={label('Call the customer back?', props.bookingForm.booking_callback)}
              options={[
                { value: '', label: 'Not said' },
                { value: 'yes', label: 'Yes' },
                { value: 'no', label: 'No' },
              ]}
            />
          )}
          <button type="submit">Create booking</button>
        </PostForm>
      </section>
    </>
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

function Conflict(props: NewBookingProps & { problem: { message: string; times: Choice[] } }) {
  return (
    <div class="errors-summary conflict" role="alert" tabIndex={-1}>
      <h2>{props.problem.message}</h2>
      {props.problem.times.length === 0 ? (
        <p>There is no other free time that day for this choice.</p>
      ) : (
        <>
          <p>Free times that day, nearest to the one asked. One click books it:</p>
          <div class="row free-times">
            {props.problem.times.map((time) => (
              <PostForm action={BOOKINGS} csrf={props.csrf} class="inline" label={`Book at ${time.label}`}>
                <HiddenFields form={props.form} names={CREATE_FIELDS} except="reserved_on" />
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
