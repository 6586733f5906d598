import type { ComponentChildren } from 'preact';
import {
  CheckboxesField,
  ErrorSummary,
  type FormState,
  PostForm,
  SelectField,
  TextAreaField,
  TextField,
} from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { BookingJson } from '../bookings.presenter.js';
import { CANCEL_REASONS } from '../bookings.schemas.js';
import { CANCEL_REASON_LABELS } from './booking-times.js';

export const BOOKINGS = `${PANEL_PREFIX}/bookings`;
export const bookingPath = (id: string) => `${BOOKINGS}/${id}`;

/** The forms of the booking page; each posts to `${bookingPath}/${action}`. */
export type BookingForm = 'move' | 'staffer' | 'services' | 'status' | 'notes' | 'complete' | 'cancel';

export interface Choice {
  value: string;
  label: string;
}

/** A free time offered after a conflict: one click posts the move with it. */
export interface FreeTime {
  date: string;
  time: string;
  label: string;
  stafferId: string;
}

export interface Problem {
  message: string;
  /** Free times that day, nearest to the one asked; undefined when the problem is not a taken time. */
  times?: FreeTime[];
}

export interface HistoryItem {
  when: string;
  what: string;
  by: string;
}

export interface BookingPageProps {
  booking: BookingJson;
  zone: string;
  /** Its wall date and time in the zone, for the move form. */
  localDate: string;
  localTime: string;
  /** "Thu, 10 Sep 2026, 14:00 – 15:00" */
  when: string;
  history: HistoryItem[];
  staffers: Choice[];
  services: Choice[];
  statuses: Choice[];
  accounts: Choice[];
  openAmount: string;
  currency: string;
  csrf: string;
  notice?: string | undefined;
  /** The submitted form, with its values as typed and its errors. */
  active?: { form: BookingForm; state: FormState } | undefined;
  problem?: Problem | undefined;
  returnTo?: string | undefined;
}

const NOTICES: Record<string, string> = {
  created: 'The booking is made.',
  moved: 'The booking is moved.',
  staffer: 'The staffer is changed.',
  services: 'The services are changed.',
  status: 'The status is set.',
  note: 'The note is added.',
  completed: 'The booking is completed and the payment recorded.',
  canceled: 'The booking is canceled; its time is free again.',
};

const customerName = (booking: BookingJson) =>
  `${booking.customer.first_name} ${booking.customer.last_name}`.trim() || 'No name given';

export function BookingPage(props: BookingPageProps) {
  const { booking } = props;
  const final = booking.is_canceled || booking.is_completed;
  const path = bookingPath(booking.uuid);
  const state = (form: BookingForm, defaults: FormState['values']): FormState =>
    props.active?.form === form ? props.active.state : { values: defaults, errors: {} };
  const notice = props.notice ? NOTICES[props.notice] : undefined;
  return (
    <>
      <p class="crumbs">
        <a href={BOOKINGS}>Bookings</a> /
      </p>
      <h1>
        {booking.ordered_services.map((line) => line.name).join(' + ')} · {customerName(booking)}
      </h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {props.problem && <ProblemBox problem={props.problem} path={path} {...props} />}

      <section class="card" aria-labelledby="booking-details">
        <h2 id="booking-details">Details</h2>
        <dl class="meta">
          <dt>When</dt>
          <dd>
            {props.when} <span class="muted">({props.zone})</span>
          </dd>
          <dt>Status</dt>
          <dd>
            {booking.status.name}
            {booking.cancel_reason && ` — ${CANCEL_REASON_LABELS[booking.cancel_reason]}`}
          </dd>
          <dt>Customer</dt>
          <dd>
            <a href={`${PANEL_PREFIX}/customers/${booking.customer.uuid}`}>{customerName(booking)}</a>
            <br />
            <a href={`tel:${booking.customer.phone}`}>{booking.customer.phone}</a>
            {booking.customer.email && (
              <>
                <br />
                <a href={`mailto:${booking.customer.email}`}>{booking.customer.email}</a>
              </>
            )}
          </dd>
          <dt>Services</dt>
          <dd>
            <ul class="plain">
              {booking.ordered_services.map((line) => (
                <li>
                  {line.name} · {line.duration.value} min · {line.price_formatted}
                </li>
              ))}
            </ul>
          </dd>
          <dt>Staffer</dt>
          <dd>
            {booking.staffer
              ? `${booking.staffer.first_name} ${booking.staffer.last_name}`.trim()
              : 'No staffer'}
          </dd>
          <dt>Price</dt>
          <dd>
            {booking.order.total_formatted}, paid {booking.order.amount_paid_formatted}
          </dd>
          <dt>Public notes</dt>
          <dd class="pre-line">{booking.public_notes || <span class="muted">None</span>}</dd>
          <dt>Source</dt>
          <dd>{booking.source}</dd>
        </dl>
      </section>

      {final ? (
        <p class="muted">
          This booking is {booking.is_canceled ? 'canceled' : 'completed'}: it cannot be changed.
        </p>
      ) : (
        <div class="booking-forms">
          <FormCard title="Move to…" id="move">
            <MoveForm
              path={path}
              csrf={props.csrf}
              form={state('move', {
                date: props.localDate,
                reserved_on: props.localTime,
                staffer_uuid: '',
                return_to: props.returnTo ?? '',
              })}
              staffers={props.staffers}
              zone={props.zone}
            />
          </FormCard>
          <FormCard title="Change the staffer" id="staffer">
            <PostForm action={`${path}/staffer`} csrf={props.csrf} label="Change the staffer">
              {/* Named as the API names it; its own id, since "Move to…" has a staffer_uuid too. */}
              <ErrorSummary form={state('staffer', {})} ids={{ staffer_uuid: 'f-change-staffer' }} />
              <SelectField
                form={state('staffer', { staffer_uuid: booking.staffer?.uuid ?? '' })}
                name="staffer_uuid"
                id="f-change-staffer"
                label="Staffer"
                options={props.staffers}
              />
              <button type="submit">Change staffer</button>
            </PostForm>
          </FormCard>
          <FormCard title="Change the services" id="services">
            <PostForm action={`${path}/services`} csrf={props.csrf} label="Change the services">
              <Summary form={state('services', {})} />
              <CheckboxesField
                form={state('services', {
                  service_uuids: booking.ordered_services.map((line) => line.service_uuid),
                })}
                name="service_uuids"
                legend="Services (done in the order listed)"
                options={props.services}
              />
              <button type="submit">Change services</button>
            </PostForm>
          </FormCard>
          <FormCard title="Set the status" id="status">
            <PostForm action={`${path}/status`} csrf={props.csrf} label="Set the status">
              <Summary form={state('status', {})} />
              <SelectField
                form={state('status', { status_uuid: booking.status.uuid })}
                name="status_uuid"
                label="Status"
                options={props.statuses}
              />
              <button type="submit">Set status</button>
            </PostForm>
          </FormCard>
          <FormCard title="Add a public note" id="notes">
            <PostForm action={`${path}/notes`} csrf={props.csrf} label="Add a public note">
              <Summary form={state('notes', {})} />
              <TextAreaField
                form={state('notes', { value: '' })}
                name="value"
                label="Note"
                hint="The customer can read it, and integrations receive it with the booking."
              />
              <button type="submit">Add note</button>
            </PostForm>
          </FormCard>
          <FormCard title="Complete with payment" id="complete">
            {props.accounts.length === 0 ? (
              <p class="muted">
                This location has no payment account yet. An owner or admin adds one under Setup → Payment
                accounts.
              </p>
            ) : (
              <PostForm action={`${path}/complete`} csrf={props.csrf} label="Complete with payment">
                <Summary form={state('complete', {})} />
                <SelectField
                  form={state('complete', { account_uuid: props.accounts[0]?.value ?? '' })}
                  name="account_uuid"
                  label="Payment account"
                  options={props.accounts}
                />
                <TextField
                  form={state('complete', { paid_amount: props.openAmount })}
                  name="paid_amount"
                  label={`Amount paid (${props.currency})`}
                  hint="Defaults to what is still open."
                />
                <button type="submit">Complete booking</button>
              </PostForm>
            )}
          </FormCard>
          <FormCard title="Cancel" id="cancel">
            <PostForm action={`${path}/cancel`} csrf={props.csrf} label="Cancel the booking">
              <Summary form={state('cancel', {})} />
              <SelectField
                form={state('cancel', { cancel_reason: '' })}
                name="cancel_reason"
                label="Reason"
                options={[
                  { value: '', label: 'No reason given' },
                  ...CANCEL_REASONS.map((reason) => ({ value: reason, label: CANCEL_REASON_LABELS[reason] })),
                ]}
              />
              <button type="submit" class="danger">
                Cancel booking
              </button>
            </PostForm>
          </FormCard>
        </div>
      )}

      <h2 id="history">History</h2>
      <div class="table-wrap">
        <table class="stack" aria-labelledby="history">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {props.history.map((item) => (
              <tr>
                <td data-label="When">{item.when}</td>
                <td data-label="What" class="wrap">
                  {item.what}
                </td>
                <td data-label="By">{item.by}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function FormCard(props: { title: string; id: string; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={`form-${props.id}`}>
      <h2 id={`form-${props.id}`}>{props.title}</h2>
      {props.children}
    </section>
  );
}

function Summary({ form }: { form: FormState }) {
  return <ErrorSummary form={form} />;
}

function MoveForm(props: { path: string; csrf: string; form: FormState; staffers: Choice[]; zone: string }) {
  return (
    <PostForm action={`${props.path}/move`} csrf={props.csrf} label="Move to another time">
      <ErrorSummary form={props.form} />
      <input type="hidden" name="return_to" value={str(props.form.values.return_to)} />
      <div class="row fields">
        {/* The same hint on both fields keeps them level in their row. */}
        <TextField form={props.form} name="date" label="Date" type="date" hint={`Local to ${props.zone}.`} />
        <TextField
          form={props.form}
          name="reserved_on"
          label="Time"
          type="time"
          hint={`Local to ${props.zone}.`}
        />
        <SelectField
          form={props.form}
          name="staffer_uuid"
          label="Staffer"
          options={[{ value: '', label: 'Keep the staffer' }, ...props.staffers]}
        />
      </div>
      <button type="submit">Move booking</button>
    </PostForm>
  );
}

const str = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/** A refusal (the time was taken meanwhile, the booking is final) and, for a taken time, free ones. */
function ProblemBox(props: { problem: Problem; path: string; csrf: string; returnTo?: string | undefined }) {
  const { problem } = props;
  return (
    <div class="errors-summary conflict" role="alert" tabIndex={-1}>
      <h2>{problem.message}</h2>
      {problem.times &&
        (problem.times.length === 0 ? (
          <p>There is no other free time that day.</p>
        ) : (
          <>
            <p>Free times that day, nearest to the one asked. One click moves the booking there:</p>
            <div class="row free-times">
              {problem.times.map((time) => (
                <PostForm
                  action={`${props.path}/move`}
                  csrf={props.csrf}
                  class="inline"
                  label={`Move to ${time.label}`}
                >
                  <input type="hidden" name="date" value={time.date} />
                  <input type="hidden" name="reserved_on" value={time.time} />
                  <input type="hidden" name="staffer_uuid" value={time.stafferId} />
                  <input type="hidden" name="return_to" value={props.returnTo ?? ''} />
                  <button type="submit" class="secondary">
                    {time.label}
                  </button>
                </PostForm>
              ))}
            </div>
          </>
        ))}
    </div>
  );
}
