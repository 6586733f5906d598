import type { BookingView } from '../../bookings/bookings.repository.js';
import { FormKey } from '../../platform/pages/form-key.js';
import { formatDateTime } from '../../platform/time/format.js';
import type { ChangeRefusal } from '../booking-page.service.js';
import { type Summary, SummaryList } from './details.page.js';
import { renderPage } from './layout.js';
import { type PageContext, pageHref } from './state.js';

export interface ManagePageData {
  booking: BookingView;
  summary: Summary;
  token: string;
  /** Absolute URL of this page (shown so the customer can keep it). */
  manageUrl: string;
  deadline: number;
  refusal: ChangeRefusal | undefined;
  /** Just booked: this is the confirmation page. */
  booked: boolean;
  /** Just booked as a series (docs/series.md): the starts of its other bookings. */
  seriesStarts?: number[] | undefined;
  notice?: { text: string; ok: boolean } | undefined;
  /** Show the "really cancel?" form. */
  confirmCancel: boolean;
  /** On that form: what cancelling now does with money paid online (formatted; absent when none). */
  cancelMoney?: { fee?: string | undefined; refund?: string | undefined; charge?: string | undefined };
}

/** The confirmation page and the manage link's page: the booking, .ics, cancel, reschedule. */
export function managePage(ctx: PageContext, data: ManagePageData): string {
  const { t } = ctx;
  const path = `/manage/${data.token}`;
  const base = { lang: ctx.state.lang, tz: ctx.state.tz, embed: ctx.state.embed };
  const deadline = formatDateTime(data.deadline, ctx.zone, ctx.locale);
  const status =
    data.booking.status_type === 'canceled'
      ? t.canceled
      : data.booking.status_type === 'completed'
        ? t.completed
        : undefined;
  return renderPage(ctx, {
    title: data.booked ? t.booked : t.manageTitle,
    heading: data.booked ? t.booked : t.manageTitle,
    booked: data.booked,
    children: (
      <>
        {data.notice && (
          <p class={data.notice.ok ? 'notice ok' : 'notice'} role={data.notice.ok ? 'status' : 'alert'}>
            {data.notice.text}
          </p>
        )}
        {data.booking.cancel_reason === 'abandoned' ? (
          // A hold released unpaid: say why, and the way back to the same choice.
          <p class="notice">
            {t.releasedUnpaid}{' '}
            <a
              href={pageHref(ctx.slug, base, {
                location: data.booking.location_id,
                service: data.booking.lines[0]?.service_id,
                staffer: data.booking.staffer_id ?? undefined,
              })}
            >
              {t.bookAgain}
            </a>
          </p>
        ) : (
          status && <p class="notice">{status}</p>
        )}
        {data.booking.payment_state === 'awaiting_payment' && data.booking.payment_hold_until && (
          <p class="notice" role="status">
            {t.awaitingPayment(
              formatDateTime(new Date(data.booking.payment_hold_until).getTime(), ctx.zone, ctx.locale),
            )}
            {data.booking.payment_url && (
              <>
                {' '}
                <a class="button" href={data.booking.payment_url}>
                  {t.payNow}
                </a>
              </>
            )}
          </p>
        )}
        {data.booking.payment_state === 'paid' && (
          <p class="notice ok" role="status">
            {t.paidOnline}
          </p>
        )}
        {data.booking.payment_state === 'card_on_file' && (
          <p class="notice ok" role="status">
            {t.cardKeptOnFile}
          </p>
        )}
        <SummaryList ctx={ctx} summary={data.summary} />
        {data.booked && data.seriesStarts && data.seriesStarts.length > 0 && (
          <div class="series-dates">
            <p>{t.seriesOthers(data.seriesStarts.length)}</p>
            <ul>
              {data.seriesStarts.map((start) => (
                <li>{formatDateTime(start, ctx.zone, ctx.locale)}</li>
              ))}
            </ul>
          </div>
        )}
        <p>{t.manageIntro}</p>
        <p class="manage-link">
          {t.manageLink}:{' '}
          <a href={data.manageUrl} dir="ltr">
            {data.manageUrl}
          </a>
        </p>
        <div class="actions">
          <a class="button" href={pageHref(ctx.slug, {}, {}, `${path}/calendar.ics`)} download="booking.ics">
            {t.addToCalendar}
          </a>
        </div>
        {data.refusal === 'cutoff' && <p class="notice">{t.cutoffPassed(deadline)}</p>}
        {data.refusal === undefined && !data.confirmCancel && (
          <>
            <p class="muted">{t.changeUntil(deadline)}</p>
            <div class="actions">
              <a class="button" href={pageHref(ctx.slug, base, {}, `${path}/reschedule`)}>
                {t.reschedule}
              </a>
              {/* A link to a confirmation step, not the cancel itself: no click cancels by accident,
                  with or without JavaScript. Outlined in red: it is not one of the safe buttons. */}
              <a class="button danger-outline" href={pageHref(ctx.slug, base, {}, `${path}/cancel`)}>
                {t.cancel}
              </a>
            </div>
          </>
        )}
        {data.refusal === undefined && data.confirmCancel && (
          <section class="confirm-danger" aria-labelledby="cancel-question">
            <h2 id="cancel-question">{t.cancelQuestion}</h2>
            <p>{t.cancelWarning}</p>
            {data.cancelMoney?.fee && <p>{t.cancelLateFee(data.cancelMoney.fee)}</p>}
            {data.cancelMoney?.refund && <p>{t.cancelRefund(data.cancelMoney.refund)}</p>}
            {data.cancelMoney?.charge && <p>{t.cancelCharge(data.cancelMoney.charge)}</p>}
            <form method="post" action={pageHref(ctx.slug, base, {}, `${path}/cancel`)} class="actions">
              <FormKey />
              <button type="submit" class="danger">
                {t.cancelConfirm}
              </button>
              <a class="button secondary" href={pageHref(ctx.slug, base, {}, path)}>
                {t.keepBooking}
              </a>
            </form>
          </section>
        )}
      </>
    ),
  });
}
