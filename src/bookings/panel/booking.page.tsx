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
import type { PanelKey, PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { BookingJson } from '../bookings.presenter.js';
import { CANCEL_REASONS } from '../bookings.schemas.js';
import { SeriesCard, type SeriesCardProps } from './booking-series.view.js';

export const BOOKINGS = `${PANEL_PREFIX}/bookings`;
export const bookingPath = (id: string) => `${BOOKINGS}/${id}`;

/** The forms of the booking page; each posts to `${bookingPath}/${action}`. */
export type BookingForm =
  | 'move'
  | 'staffer'
  | 'services'
  | 'resources'
  | 'status'
  | 'notes'
  | 'complete'
  | 'cancel'
  | 'no-show'
  | 'refund'
  | 'calendar-apply'
  | 'calendar-ignore'
  | 'series-move'
  | 'series-cancel';

export interface Choice {
  value: string;
  label: string;
}

/** A free time offered after a conflict: one click posts the move with it. */
export interface FreeTime {
  date: string;
  time: string;
  label: string;
  /** undefined: a rental's time, which has no staffer. */
  stafferId: string | undefined;
}

export interface Problem {
  message: string;
  /** Refused only by the staffer's own calendar: the form it was (its action and fields), to send again "anyway". */
  override?: { action: BookingForm; fields: Record<string, string> } | undefined;
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
  /** The live resources of the booking's location (docs/resources.md); [] hides the form. */
  resources: Choice[];
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
  /** While the booking waits for payment: until when its time is held, in the location's zone. */
  paymentHoldUntil?: string | undefined;
  /** Owners and admins, when the provider took money for it: what is left to refund. */
  refund?: { left: string; action: string } | undefined;
  /**
   * Once the booking has started and is still open: the No-show form, with what it would do with
   * the customer's money under the service's policy (amounts formatted; absent when none moves).
   */
  noShow?: { fee?: string; kept?: string; charged?: string; refunded?: string } | undefined;
  /**
   * An edit of the booking's event in the staffer's own calendar, waiting for Apply or Ignore:
   * `when` is the event's new time in the location's zone (moved), `name` whose calendar it is.
   */
  outsideChange?: { kind: 'moved' | 'deleted'; when: string; name: string } | undefined;
  /** An occurrence of a series (docs/series.md): the series card's rule and occurrences. */
  series?: Pick<SeriesCardProps, 'rule' | 'occurrences' | 'open'> | undefined;
  text: PanelText;
}

const NOTICES: Record<string, PanelKey> = {
  created: 'booking.created',
  moved: 'booking.moved',
  staffer: 'booking.stafferChanged',
  services: 'booking.servicesChanged',
  resources: 'booking.resourcesChanged',
  status: 'booking.statusSet',
  note: 'booking.noteAdded',
  completed: 'booking.completed',
  canceled: 'booking.canceled',
  refunded: 'booking.refunded',
  refund_refused: 'booking.refundRefused',
  no_show: 'booking.noShowDone',
  'calendar-ignored': 'booking.calendarIgnored',
  'series-created': 'booking.seriesCreated',
  'series-moved': 'booking.seriesMoved',
  'series-canceled': 'booking.seriesCanceled',
};

/** A cancel reason as people read it (the API's value in the reader's language). */
export function cancelReasonLabel(reason: string, { t }: PanelText): string {
  return (CANCEL_REASONS as readonly string[]).includes(reason)
    ? t(`cancelReason.${reason as (typeof CANCEL_REASONS)[number]}`)
    : reason;
}

const customerName = (booking: BookingJson, { t }: PanelText) =>
  `${booking.customer.first_name} ${booking.customer.last_name}`.trim() || t('booking.noName');

export function BookingPage(props: BookingPageProps) {
  const { booking, text } = props;
  const { t } = text;
  const final = booking.is_canceled || booking.is_completed;
  const path = bookingPath(booking.uuid);
  const state = (form: BookingForm, defaults: FormState['values']): FormState =>
    props.active?.form === form ? props.active.state : { values: defaults, errors: {} };
  const noticeKey = props.notice ? NOTICES[props.notice] : undefined;
  const notice = noticeKey ? t(noticeKey) : undefined;
  return (
    <>
      <p class="crumbs">
        <a href={BOOKINGS}>{t('nav.bookings')}</a> /
      </p>
      <h1>
        {booking.ordered_services.map((line) => line.name).join(' + ')} · {customerName(booking, text)}
      </h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {props.problem && <ProblemBox problem={props.problem} path={path} {...props} />}
      {props.outsideChange && (
        <OutsideChangeBox change={props.outsideChange} path={path} csrf={props.csrf} text={text} />
      )}

      <section class="card" aria-labelledby="booking-details">
        <h2 id="booking-details">{t('booking.details')}</h2>
        <dl class="meta">
          <dt>{t('booking.when')}</dt>
          <dd>
            {props.when} <span class="muted">({props.zone})</span>
          </dd>
          <dt>{t('booking.status')}</dt>
          <dd>
            {booking.status.name}
            {booking.cancel_reason && ` — ${cancelReasonLabel(booking.cancel_reason, text)}`}
          </dd>
          {booking.payment && (
            <>
              <dt>{t('booking.payment')}</dt>
              <dd>
                {t(`booking.paymentState.${booking.payment.state}`, { time: props.paymentHoldUntil ?? '' })}
              </dd>
            </>
          )}
          <dt>{t('booking.customer')}</dt>
          <dd>
            <a href={`${PANEL_PREFIX}/customers/${booking.customer.uuid}`}>{customerName(booking, text)}</a>
            <br />
            <a href={`tel:${booking.customer.phone}`}>{booking.customer.phone}</a>
            {booking.customer.email && (
              <>
                <br />
                <a href={`mailto:${booking.customer.email}`}>{booking.customer.email}</a>
              </>
            )}
          </dd>
          <dt>{t('booking.services')}</dt>
          <dd>
            <ul class="plain">
              {booking.ordered_services.map((line) => (
                <li>
                  {t('booking.serviceLine', {
                    name: line.name,
                    minutes: line.duration.value,
                    price: line.price_formatted,
                  })}
                </li>
              ))}
            </ul>
          </dd>
          <dt>{t('booking.staffer')}</dt>
          <dd>
            {booking.staffer
              ? `${booking.staffer.first_name} ${booking.staffer.last_name}`.trim()
              : t('booking.noStaffer')}
          </dd>
          {(booking.resources.length > 0 || props.resources.length > 0) && (
            <>
              <dt>{t('booking.resources')}</dt>
              <dd>
                {booking.resources.length > 0 ? (
                  booking.resources.map((unit) => unit.name).join(', ')
                ) : (
                  <span class="muted">{t('booking.none')}</span>
                )}
              </dd>
            </>
          )}
          <dt>{t('booking.price')}</dt>
          <dd>
            {t('booking.priceLine', {
              total: booking.order.total_formatted,
              paid: booking.order.amount_paid_formatted,
            })}
          </dd>
          <dt>{t('booking.publicNotes')}</dt>
          <dd class="pre-line">{booking.public_notes || <span class="muted">{t('booking.none')}</span>}</dd>
          <dt>{t('booking.source')}</dt>
          <dd>{booking.source}</dd>
        </dl>
      </section>

      {props.series && (
        <SeriesCard
          {...props.series}
          path={path}
          csrf={props.csrf}
          zone={props.zone}
          cancelForm={state('series-cancel', { scope: 'this' })}
          moveForm={state('series-move', { scope: 'following', time: props.localTime })}
          text={text}
        />
      )}

      {final ? (
        <p class="muted">{t(booking.is_canceled ? 'booking.finalCanceled' : 'booking.finalCompleted')}</p>
      ) : (
        <div class="booking-forms">
          <FormCard title={t('booking.moveTo')} id="move">
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
              text={text}
            />
          </FormCard>
          <FormCard title={t('booking.changeStaffer')} id="staffer">
            <PostForm action={`${path}/staffer`} csrf={props.csrf} label={t('booking.changeStaffer')}>
              {/* Named as the API names it; its own id, since "Move to…" has a staffer_uuid too. */}
              <ErrorSummary form={state('staffer', {})} ids={{ staffer_uuid: 'f-change-staffer' }} />
              <SelectField
                form={state('staffer', { staffer_uuid: booking.staffer?.uuid ?? '' })}
                name="staffer_uuid"
                id="f-change-staffer"
                label={t('booking.staffer')}
                options={props.staffers}
              />
              <button type="submit">{t('booking.changeStafferButton')}</button>
            </PostForm>
          </FormCard>
          <FormCard title={t('booking.changeServices')} id="services">
            <PostForm action={`${path}/services`} csrf={props.csrf} label={t('booking.changeServices')}>
              <Summary form={state('services', {})} />
              <CheckboxesField
                form={state('services', {
                  service_uuids: booking.ordered_services.map((line) => line.service_uuid),
                })}
                name="service_uuids"
                legend={t('booking.servicesLegend')}
                options={props.services}
              />
              <button type="submit">{t('booking.changeServicesButton')}</button>
            </PostForm>
          </FormCard>
          {props.resources.length > 0 && (
            <FormCard title={t('booking.changeResources')} id="resources">
              <PostForm action={`${path}/resources`} csrf={props.csrf} label={t('booking.changeResources')}>
                <Summary form={state('resources', {})} />
                <CheckboxesField
                  form={state('resources', { resource_uuids: booking.resources.map((unit) => unit.uuid) })}
                  name="resource_uuids"
                  legend={t('booking.resourcesLegend')}
                  options={props.resources}
                />
                <button type="submit">{t('booking.changeResourcesButton')}</button>
              </PostForm>
            </FormCard>
          )}
          <FormCard title={t('booking.setStatus')} id="status">
            <PostForm action={`${path}/status`} csrf={props.csrf} label={t('booking.setStatus')}>
              <Summary form={state('status', {})} />
              <SelectField
                form={state('status', { status_uuid: booking.status.uuid })}
                name="status_uuid"
                label={t('booking.status')}
                options={props.statuses}
              />
              <button type="submit">{t('booking.setStatusButton')}</button>
            </PostForm>
          </FormCard>
          <FormCard title={t('booking.addNote')} id="notes">
            <PostForm action={`${path}/notes`} csrf={props.csrf} label={t('booking.addNote')}>
              <Summary form={state('notes', {})} />
              <TextAreaField
                form={state('notes', { value: '' })}
                name="value"
                label={t('booking.note')}
                hint={t('booking.noteHint')}
              />
              <button type="submit">{t('booking.addNoteButton')}</button>
            </PostForm>
          </FormCard>
          <FormCard title={t('booking.complete')} id="complete">
            {props.accounts.length === 0 ? (
              <p class="muted">{t('booking.noAccount')}</p>
            ) : (
              <PostForm action={`${path}/complete`} csrf={props.csrf} label={t('booking.complete')}>
                <Summary form={state('complete', {})} />
                <SelectField
                  form={state('complete', { account_uuid: props.accounts[0]?.value ?? '' })}
                  name="account_uuid"
                  label={t('booking.paymentAccount')}
                  options={props.accounts}
                />
                <TextField
                  form={state('complete', { paid_amount: props.openAmount })}
                  name="paid_amount"
                  label={t('booking.amountPaid', { currency: props.currency })}
                  hint={t('booking.amountHint')}
                />
                <button type="submit">{t('booking.completeButton')}</button>
              </PostForm>
            )}
          </FormCard>
          {props.noShow && (
            <FormCard title={t('booking.noShow')} id="no-show">
              <PostForm action={`${path}/no-show`} csrf={props.csrf} label={t('booking.noShow')}>
                <p class="muted">{t('booking.noShowHint')}</p>
                {props.noShow.fee && (
                  <p>
                    {[
                      t('booking.noShowFee', { fee: props.noShow.fee }),
                      props.noShow.kept && t('booking.noShowKept', { amount: props.noShow.kept }),
                      props.noShow.charged && t('booking.noShowCharged', { amount: props.noShow.charged }),
                      props.noShow.refunded && t('booking.noShowRefunded', { amount: props.noShow.refunded }),
                    ]
                      .filter(Boolean)
                      .join(' ')}
                  </p>
                )}
                <button type="submit" class="danger">
                  {t('booking.noShowButton')}
                </button>
              </PostForm>
            </FormCard>
          )}
          <FormCard title={t('booking.cancel')} id="cancel">
            <PostForm action={`${path}/cancel`} csrf={props.csrf} label={t('booking.cancelLabel')}>
              <Summary form={state('cancel', {})} />
              <SelectField
                form={state('cancel', { cancel_reason: '' })}
                name="cancel_reason"
                label={t('booking.reason')}
                options={[
                  { value: '', label: t('booking.noReason') },
                  ...CANCEL_REASONS.map((reason) => ({
                    value: reason,
                    label: cancelReasonLabel(reason, text),
                  })),
                ]}
              />
              <button type="submit" class="danger">
                {t('booking.cancelButton')}
              </button>
            </PostForm>
          </FormCard>
        </div>
      )}

      {props.refund && (
        <FormCard title={t('booking.refund')} id="refund">
          <PostForm action={props.refund.action} csrf={props.csrf} label={t('booking.refund')}>
            <TextField
              form={state('refund', { amount: '' })}
              name="amount"
              label={t('booking.refundAmount', { currency: props.currency })}
              hint={t('booking.refundHint', { left: props.refund.left })}
            />
            <button type="submit" class="danger">
              {t('booking.refundButton')}
            </button>
          </PostForm>
        </FormCard>
      )}

      <h2 id="history">{t('booking.history')}</h2>
      <div class="table-wrap">
        <table class="stack" aria-labelledby="history">
          <thead>
            <tr>
              <th scope="col">{t('booking.when')}</th>
              <th scope="col">{t('booking.what')}</th>
              <th scope="col">{t('booking.by')}</th>
            </tr>
          </thead>
          <tbody>
            {props.history.map((item) => (
              <tr>
                <td data-label={t('booking.when')}>{item.when}</td>
                <td data-label={t('booking.what')} class="wrap">
                  {item.what}
                </td>
                <td data-label={t('booking.by')}>{item.by}</td>
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

function MoveForm(props: {
  path: string;
  csrf: string;
  form: FormState;
  staffers: Choice[];
  zone: string;
  text: PanelText;
}) {
  const { t } = props.text;
  const hint = t('booking.localTo', { zone: props.zone });
  return (
    <PostForm action={`${props.path}/move`} csrf={props.csrf} label={t('booking.moveLabel')}>
      <ErrorSummary form={props.form} />
      <input type="hidden" name="return_to" value={str(props.form.values.return_to)} />
      <div class="row fields">
        {/* The same hint on both fields keeps them level in their row. */}
        <TextField form={props.form} name="date" label={t('booking.date')} type="date" hint={hint} />
        <TextField form={props.form} name="reserved_on" label={t('booking.time')} type="time" hint={hint} />
        <SelectField
          form={props.form}
          name="staffer_uuid"
          label={t('booking.staffer')}
          options={[{ value: '', label: t('booking.keepStaffer') }, ...props.staffers]}
        />
      </div>
      <button type="submit">{t('booking.moveButton')}</button>
    </PostForm>
  );
}

const str = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/** A refusal (the time was taken meanwhile, the booking is final) and, for a taken time, free ones. */
function ProblemBox(props: {
  problem: Problem;
  path: string;
  csrf: string;
  returnTo?: string | undefined;
  text: PanelText;
}) {
  const { problem } = props;
  const { t } = props.text;
  return (
    <div class="errors-summary conflict" role="alert" tabIndex={-1}>
      <h2>{problem.message}</h2>
      {problem.override && (
        <PostForm
          action={`${props.path}/${problem.override.action}`}
          csrf={props.csrf}
          label={t('booking.moveAnyway')}
        >
          {Object.entries(problem.override.fields).map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="override_busy" value="yes" />
          <button type="submit" class="danger">
            {t('booking.moveAnyway')}
          </button>
        </PostForm>
      )}
      {problem.times &&
        (problem.times.length === 0 ? (
          <p>{t('booking.noOtherTime')}</p>
        ) : (
          <>
            <p>{t('booking.freeTimes')}</p>
            <div class="row free-times">
              {problem.times.map((time) => (
                <PostForm
                  action={`${props.path}/move`}
                  csrf={props.csrf}
                  class="inline"
                  label={t('booking.moveToTime', { time: time.label })}
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

/**
 * The booking's event was moved or deleted in the staffer's own calendar: the booking is as it
 * was until someone answers. Apply changes it the normal way (a move or a cancel); Ignore writes
 * the event back as the booking is.
 */
function OutsideChangeBox(props: {
  change: { kind: 'moved' | 'deleted'; when: string; name: string };
  path: string;
  csrf: string;
  text: PanelText;
}) {
  const { t } = props.text;
  const { change } = props;
  return (
    <section class="card warning outside-change" aria-labelledby="outside-change" role="status">
      <h2 id="outside-change">
        {change.kind === 'moved'
          ? t('booking.outsideMoved', { when: change.when, name: change.name })
          : t('booking.outsideDeleted', { name: change.name })}
      </h2>
      <p>{change.kind === 'moved' ? t('booking.outsideMovedNote') : t('booking.outsideDeletedNote')}</p>
      <div>
        <PostForm action={`${props.path}/calendar-apply`} csrf={props.csrf} class="inline">
          <button type="submit">
            {change.kind === 'moved' ? t('booking.outsideApplyMove') : t('booking.outsideApplyCancel')}
          </button>
        </PostForm>{' '}
        <PostForm action={`${props.path}/calendar-ignore`} csrf={props.csrf} class="inline">
          <button type="submit" class="secondary">
            {t('booking.outsideIgnore')}
          </button>
        </PostForm>
      </div>
    </section>
  );
}
