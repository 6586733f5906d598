import { createFieldLimit } from '../../bookings/bookings.rules.js';
import type { BookingForm, BookingFormField } from '../../platform/db/schema.js';
import { formatMoney } from '../../platform/money.js';
import { FormKey } from '../../platform/pages/form-key.js';
import { formatDateTime } from '../../platform/time/format.js';
import type { Slot } from '../../slots/engine/types.js';
import { BOOKING_FORM_FIELDS } from '../../workspaces/workspace-settings.rules.js';
import {
  type ContactDetails,
  type DetailErrors,
  PAGE_SERIES_MAX_TIMES,
  PAGE_SERIES_WEEKS,
  type PagePayment,
} from '../booking-page.service.js';
import type { LocationContact } from '../location-contact.js';
import { renderPage } from './layout.js';
import { type PageContext, pageHref, STATE_KEYS } from './state.js';

export interface Summary {
  service: string;
  duration: string;
  price: string;
  staffer: string | undefined;
  location: string;
  locationZone: string;
  start: number;
  /** The location's address, phone and map link (the confirmation and manage pages). */
  contact?: LocationContact | undefined;
}

export function SummaryList({ ctx, summary }: { ctx: PageContext; summary: Summary }) {
  return (
    <dl class="summary">
      <dt>{ctx.t.service}</dt>
      <dd>
        {summary.service} ({summary.duration})
      </dd>
      {summary.staffer && (
        <>
          <dt>{ctx.t.staffer}</dt>
          <dd>{summary.staffer}</dd>
        </>
      )}
      <dt>{ctx.t.when}</dt>
      <dd>
        {formatDateTime(summary.start, ctx.zone, ctx.locale)}
        {ctx.zone !== summary.locationZone && (
          <>
            <br />
            <small class="muted">
              {summary.location}: {formatDateTime(summary.start, summary.locationZone, ctx.locale)}
            </small>
          </>
        )}
      </dd>
      <dt>{ctx.t.where}</dt>
      <dd>
        {summary.location}
        {summary.contact && <ContactLines ctx={ctx} contact={summary.contact} />}
      </dd>
      <dt>{ctx.t.price}</dt>
      <dd>{summary.price}</dd>
    </dl>
  );
}

/** Where to go and how to call: the address, a tel: link, and a map link opening in a new tab. */
function ContactLines({ ctx, contact }: { ctx: PageContext; contact: LocationContact }) {
  return (
    <>
      {contact.address.map((line) => (
        <>
          <br />
          {line}
        </>
      ))}
      {contact.phone && (
        <span class="contact">
          {ctx.t.phone}:{' '}
          <a href={contact.phone.href} dir="ltr">
            {contact.phone.text}
          </a>
        </span>
      )}
      {contact.map && (
        <span class="contact">
          <a href={contact.map} target="_blank" rel="noopener noreferrer">
            {ctx.t.showMap}
          </a>
        </span>
      )}
    </>
  );
}

function StateFields({ ctx, skip = [] }: { ctx: PageContext; skip?: string[] }) {
  return (
    <>
      {STATE_KEYS.filter((k) => ctx.state[k] !== undefined && !skip.includes(k)).map((k) => (
        <input type="hidden" name={k} value={ctx.state[k]} />
      ))}
    </>
  );
}

/** Off-screen, unlabelled for people, skipped by the keyboard: only bots fill it in. */
function Honeypot() {
  return (
    <div class="hp" aria-hidden="true">
      <label>
        Website <input type="text" name="website" tabindex={-1} autocomplete="off" />
      </label>
    </div>
  );
}

export interface DetailsPageData {
  summary: Summary;
  form: BookingForm;
  values: ContactDetails;
  errors: DetailErrors;
  /** The form's idempotency key, the same from the details step to the booking. */
  formKey: string;
  back: string;
  /** The phone's example for the location's country. */
  phoneHint: string;
  notice?: string | undefined;
  /** After a taken slot: the nearest free times to pick from instead. */
  alternatives?: Slot[] | undefined;
  /** The text message consent box, while the workspace sends texts. */
  textConsent?: 'optional' | 'required' | undefined;
}

/** Step 5: contact details (the booking-form setting decides which fields show and are required). */
export function detailsPage(ctx: PageContext, data: DetailsPageData): string {
  const { t } = ctx;
  const hasErrors = Object.keys(data.errors).length > 0;
  const field = (name: 'customer_phone' | BookingFormField | 'text_consent') => {
    const error = data.errors[name];
    return {
      id: name,
      name,
      'aria-invalid': error ? ('true' as const) : undefined,
      'aria-describedby': error ? `${name}-error` : name === 'customer_phone' ? 'phone-hint' : undefined,
    };
  };
  const errorOf = (name: 'customer_phone' | BookingFormField | 'text_consent') =>
    data.errors[name] ? (
      <p class="error" id={`${name}-error`}>
        {t[data.errors[name]!]}
      </p>
    ) : null;
  const label = (name: BookingFormField) =>
    `${t[name]}${data.form[name] === 'optional' ? ` ${t.optional}` : ''}`;
  return renderPage(ctx, {
    title: t.yourDetails,
    heading: data.alternatives ? t.chooseTime : t.yourDetails,
    back: data.back,
    children: (
      <>
        {data.notice && (
          <p class="notice" role="alert">
            {data.notice}
          </p>
        )}
        {hasErrors && (
          <p class="notice" role="alert">
            {t.formErrors}
          </p>
        )}
        <form method="post" action={pageHref(ctx.slug, {}, {}, '/confirm')} novalidate>
          <StateFields ctx={ctx} skip={data.alternatives ? ['at'] : []} />
          <FormKey value={data.formKey} />
          {data.alternatives && (
            <fieldset>
              {/* Not the page's heading again: the h1 already says "choose a time". */}
              <legend>{t.nearestTimes}</legend>
              {data.alternatives.map((slot, index) => (
                <label class="check">
                  <input type="radio" name="at" value={slot.start_time} checked={index === 0} />
                  {formatDateTime(Date.parse(slot.start_time), ctx.zone, ctx.locale)}
                </label>
              ))}
            </fieldset>
          )}
          {!data.alternatives && <SummaryList ctx={ctx} summary={data.summary} />}
          <label for="customer_phone">{t.phone}</label>
          <input
            {...field('customer_phone')}
            type="tel"
            autocomplete="tel"
            value={data.values.customer_phone}
            maxLength={createFieldLimit('customer_phone')}
            required
          />
          <p class="hint" id="phone-hint">
            {data.phoneHint}
          </p>
          {errorOf('customer_phone')}
          {BOOKING_FORM_FIELDS.filter((name) => data.form[name] !== 'hidden').map((name) =>
            name === 'booking_callback' ? (
              <>
                <input type="hidden" name="booking_callback_shown" value="1" />
                <label class="check">
                  <input
                    {...field(name)}
                    type="checkbox"
                    value="yes"
                    checked={data.values.booking_callback === true}
                  />
                  {label(name)}
                </label>
                {errorOf(name)}
              </>
            ) : (
              <>
                <label for={name}>{label(name)}</label>
                {name === 'booking_comment' ? (
                  <textarea {...field(name)} maxLength={createFieldLimit(name)}>
                    {data.values.booking_comment}
                  </textarea>
                ) : (
                  <input
                    {...field(name)}
                    type={(name === 'customer_email' ? 'email' : 'text') as 'text'}
                    list={undefined as unknown as string}
                    autocomplete={
                      name === 'customer_email'
                        ? 'email'
                        : name === 'customer_first_name'
                          ? 'given-name'
                          : 'family-name'
                    }
                    value={data.values[name]}
                    required={data.form[name] === 'required'}
                  />
                )}
                {errorOf(name)}
              </>
            ),
          )}
          {data.textConsent && (
            <>
              <input type="hidden" name="text_consent_shown" value="1" />
              <label class="check">
                <input
                  {...field('text_consent')}
                  type="checkbox"
                  value="yes"
                  checked={data.values.text_consent === true}
                  required={data.textConsent === 'required'}
                />
                {`${t.textConsent}${data.textConsent === 'optional' ? ` ${t.optional}` : ''}`}
              </label>
              {errorOf('text_consent')}
            </>
          )}
          <Honeypot />
          <button type="submit">{t.next}</button>
        </form>
      </>
    ),
  });
}

export interface ConfirmPageData {
  summary: Summary;
  values: ContactDetails;
  /** The form's idempotency key, the same from the details step to the booking. */
  formKey: string;
  challengeUrl: string;
  notice?: string | undefined;
  /** What the service's policy collects on booking (undefined: nothing, the page as before). */
  payment?: PagePayment | undefined;
  /** The workspace currency, for the amount due. */
  currency?: string | undefined;
  /**
   * A service bookable in series (docs/series.md): the "Repeat" choice, what was chosen, and after
   * a refusal each date's verdict (nothing was booked).
   */
  series?:
    | {
        chosen?: { weeks: number; times: number } | undefined;
        results?: { start: number; free: boolean }[] | undefined;
      }
    | undefined;
}

/** The policy before the customer confirms: what is due now, and the cancellation terms. */
function PaymentTerms({
  ctx,
  payment,
  currency,
}: {
  ctx: PageContext;
  payment: PagePayment;
  currency: string;
}) {
  const { t } = ctx;
  const { due, cancellation } = payment;
  const percent = (value: number) =>
    new Intl.NumberFormat(ctx.locale, { style: 'percent' }).format(value / 100);
  const amount = formatMoney(due.amount, currency, ctx.locale);
  return (
    <section class="payment" aria-labelledby="payment-title">
      <h2 id="payment-title">{t.paymentTitle}</h2>
      <p>
        <strong>
          {due.mode === 'setup'
            ? t.dueCardOnFile
            : due.kind === 'deposit'
              ? t.dueDeposit(amount)
              : t.duePrepayment(amount)}
        </strong>
      </p>
      <ul>
        {cancellation.freeHours > 0 && <li>{t.freeCancelUntil(cancellation.freeHours)}</li>}
        {cancellation.lateFeePercent > 0 && <li>{t.lateCancelFee(percent(cancellation.lateFeePercent))}</li>}
        {cancellation.noShowFeePercent > 0 && <li>{t.noShowFee(percent(cancellation.noShowFeePercent))}</li>}
      </ul>
      <p class="muted">{t.payOnProvider}</p>
    </section>
  );
}

/** Step 6: everything once more, then one button; the proof-of-work runs here (ALTCHA). */
export function confirmPage(ctx: PageContext, data: ConfirmPageData): string {
  const { t, state } = ctx;
  const name = [data.values.customer_first_name, data.values.customer_last_name].filter(Boolean).join(' ');
  return renderPage(ctx, {
    title: t.confirmTitle,
    heading: t.confirmTitle,
    back: pageHref(ctx.slug, state),
    children: (
      <>
        {data.notice && (
          <p class="notice" role="alert">
            {data.notice}
          </p>
        )}
        {data.series?.results && (
          <div class="notice" role="alert">
            <p>{t.seriesNotFree}</p>
            <ul>
              {data.series.results.map((result) => {
                const when = formatDateTime(result.start, ctx.zone, ctx.locale);
                return <li>{result.free ? t.seriesDateFree(when) : t.seriesDateTaken(when)}</li>;
              })}
            </ul>
          </div>
        )}
        <SummaryList ctx={ctx} summary={data.summary} />
        <dl class="summary">
          {name && (
            <>
              <dt>{t.name}</dt>
              <dd>
                <bdi>{name}</bdi>
              </dd>
            </>
          )}
          <dt>{t.phone}</dt>
          {/* Isolated: what was typed keeps its own direction inside Arabic (a "+" would jump to the end). */}
          <dd>
            <bdi dir="ltr">{data.values.customer_phone}</bdi>
          </dd>
          {data.values.customer_email && (
            <>
              <dt>{t.customer_email}</dt>
              <dd>
                <bdi dir="ltr">{data.values.customer_email}</bdi>
              </dd>
            </>
          )}
          {data.values.booking_comment && (
            <>
              <dt>{t.booking_comment}</dt>
              <dd>
                <bdi>{data.values.booking_comment}</bdi>
              </dd>
            </>
          )}
        </dl>
        {data.payment && <PaymentTerms ctx={ctx} payment={data.payment} currency={data.currency ?? 'EUR'} />}
        {/* Inside the embed's iframe, money due leaves it: the provider's hosted page refuses to be framed. */}
        <form
          method="post"
          action={pageHref(ctx.slug, {}, {}, '/book')}
          data-altcha={data.challengeUrl}
          target={data.payment && state.embed === '1' ? '_top' : undefined}
        >
          <StateFields ctx={ctx} />
          <FormKey value={data.formKey} />
          {(
            [
              'customer_phone',
              'customer_first_name',
              'customer_last_name',
              'customer_email',
              'booking_comment',
            ] as const
          ).map((key) => (
            <input type="hidden" name={key} value={data.values[key]} />
          ))}
          {data.values.booking_callback !== undefined && (
            <>
              <input type="hidden" name="booking_callback_shown" value="1" />
              <input
                type="hidden"
                name="booking_callback"
                value={data.values.booking_callback ? 'yes' : 'no'}
              />
            </>
          )}
          {data.values.text_consent !== undefined && (
            <>
              <input type="hidden" name="text_consent_shown" value="1" />
              <input type="hidden" name="text_consent" value={data.values.text_consent ? 'yes' : 'no'} />
            </>
          )}
          {data.series && (
            <fieldset class="repeat">
              <legend>{t.repeatLegend}</legend>
              <p class="hint">{t.seriesNote}</p>
              <label for="repeat_weeks">{t.repeatEvery}</label>
              <select id="repeat_weeks" name="repeat_weeks">
                {PAGE_SERIES_WEEKS.map((n) => (
                  <option value={String(n)} selected={n === (data.series?.chosen?.weeks ?? 1)}>
                    {t.seriesWeeks(n)}
                  </option>
                ))}
              </select>
              <label for="repeat_times">{t.repeatTimes}</label>
              <select id="repeat_times" name="repeat_times">
                {Array.from({ length: PAGE_SERIES_MAX_TIMES }, (_, i) => i + 1).map((n) => (
                  <option value={String(n)} selected={n === (data.series?.chosen?.times ?? 1)}>
                    {t.seriesTimes(n)}
                  </option>
                ))}
              </select>
            </fieldset>
          )}
          <input type="hidden" name="altcha" value="" />
          <Honeypot />
          <div class="actions">
            <button type="submit">{data.payment ? t.confirmAndPay : t.confirm}</button>
          </div>
        </form>
      </>
    ),
  });
}
