import { FormKey } from '../../platform/pages/form-key.js';
import { formatDateTime } from '../../platform/time/format.js';
import { type Summary, SummaryList } from './details.page.js';
import { renderPage } from './layout.js';
import { type PageContext, pageHref } from './state.js';

/** Up to this many wanted times on the form (the waitlist takes five). */
export const WINDOW_ROWS = 5;

export interface JoinValues {
  customer_phone: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  any_time: boolean;
  windows: { date: string; from: string; to: string }[];
}

export interface JoinPageData {
  summary: { service: string; staffer: string | undefined; location: string };
  values: JoinValues;
  /** Field name → what to say under it. */
  errors: Record<string, string>;
  back: string;
  phoneHint: string;
}

/** The waitlist's join form: who, and when they could come (or any time). */
export function joinPage(ctx: PageContext, data: JoinPageData): string {
  const { t } = ctx;
  const base = { location: ctx.state.location, service: ctx.state.service, staffer: ctx.state.staffer };
  const state = { ...base, lang: ctx.state.lang, tz: ctx.state.tz, embed: ctx.state.embed };
  const invalid = (name: string) =>
    data.errors[name]
      ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${name.replaceAll('.', '-')}-error` }
      : {};
  const errorOf = (name: string) =>
    data.errors[name] ? (
      <p class="error" id={`${name.replaceAll('.', '-')}-error`}>
        {data.errors[name]}
      </p>
    ) : null;
  const hasErrors = Object.keys(data.errors).length > 0;
  return renderPage(ctx, {
    title: t.waitlistTitle,
    heading: t.waitlistTitle,
    back: data.back,
    children: (
      <>
        {hasErrors && (
          <p class="notice" role="alert">
            {t.formErrors}
          </p>
        )}
        <p>{t.waitlistIntro}</p>
        <dl class="summary">
          <dt>{t.service}</dt>
          <dd>{data.summary.service}</dd>
          {data.summary.staffer && (
            <>
              <dt>{t.staffer}</dt>
              <dd>{data.summary.staffer}</dd>
            </>
          )}
          <dt>{t.where}</dt>
          <dd>{data.summary.location}</dd>
        </dl>
        <form method="post" action={pageHref(ctx.slug, state, {}, '/waitlist')} novalidate>
          <FormKey />
          <fieldset class="waitlist-windows">
            <legend>{t.waitlistWindows}</legend>
            {errorOf('windows')}
            <label class="check">
              <input type="checkbox" name="any_time" value="1" checked={data.values.any_time} />
              {t.waitlistAnyTime}
            </label>
            {Array.from({ length: WINDOW_ROWS }, (_, i) => {
              const w = data.values.windows[i] ?? { date: '', from: '', to: '' };
              return (
                <div class="window-row">
                  <label>
                    {t.waitlistDate}
                    <input
                      type="date"
                      name={`window_date_${i}`}
                      value={w.date}
                      {...invalid(`windows.${i}.date`)}
                    />
                  </label>
                  <label>
                    {t.waitlistFrom}
                    <input
                      type="time"
                      name={`window_from_${i}`}
                      value={w.from}
                      {...invalid(`windows.${i}.from`)}
                    />
                  </label>
                  <label>
                    {t.waitlistTo}
                    <input type="time" name={`window_to_${i}`} value={w.to} {...invalid(`windows.${i}.to`)} />
                  </label>
                  {errorOf(`windows.${i}.date`)}
                  {errorOf(`windows.${i}.from`)}
                  {errorOf(`windows.${i}.to`)}
                </div>
              );
            })}
          </fieldset>
          <label for="customer_phone">{t.phone}</label>
          <input
            id="customer_phone"
            name="customer_phone"
            type="tel"
            autocomplete="tel"
            value={data.values.customer_phone}
            maxLength={40}
            required
            {...invalid('customer_phone')}
          />
          <p class="hint" id="phone-hint">
            {data.phoneHint}
          </p>
          {errorOf('customer_phone')}
          <label for="customer_first_name">{t.customer_first_name}</label>
          <input
            id="customer_first_name"
            name="customer_first_name"
            type="text"
            autocomplete="given-name"
            value={data.values.customer_first_name}
            maxLength={255}
          />
          <label for="customer_last_name">{t.customer_last_name}</label>
          <input
            id="customer_last_name"
            name="customer_last_name"
            type="text"
            autocomplete="family-name"
            value={data.values.customer_last_name}
            maxLength={255}
          />
          <label for="customer_email">
            {t.customer_email} {t.optional}
          </label>
          <input
            id="customer_email"
            name="customer_email"
            type="email"
            autocomplete="email"
            value={data.values.customer_email}
            maxLength={255}
            {...invalid('customer_email')}
          />
          {errorOf('customer_email')}
          <button type="submit">{t.waitlistJoin}</button>
        </form>
      </>
    ),
  });
}

/** After joining. */
export function joinedPage(ctx: PageContext): string {
  return renderPage(ctx, {
    title: ctx.t.waitlistJoined,
    heading: ctx.t.waitlistJoined,
    children: (
      <p class="notice ok" role="status">
        {ctx.t.waitlistJoinedText}
      </p>
    ),
  });
}

export interface OfferPageData {
  summary: Summary;
  heldUntil: number;
  /** Open and within its hold: the Book button shows. */
  open: boolean;
  notice?: { text: string; ok: boolean } | undefined;
  action: string;
}

/** The offer link's page: the time held for this person, and "Book it". */
export function offerPage(ctx: PageContext, data: OfferPageData): string {
  const { t } = ctx;
  return renderPage(ctx, {
    title: t.offerTitle,
    heading: t.offerTitle,
    children: (
      <>
        {data.notice && (
          <p class={data.notice.ok ? 'notice ok' : 'notice'} role={data.notice.ok ? 'status' : 'alert'}>
            {data.notice.text}
          </p>
        )}
        <SummaryList ctx={ctx} summary={data.summary} />
        {data.open && (
          <>
            <p>{t.offerHeld(formatDateTime(data.heldUntil, ctx.zone, ctx.locale))}</p>
            <form method="post" action={data.action} class="actions">
              <FormKey />
              <button type="submit">{t.offerBook}</button>
            </form>
          </>
        )}
      </>
    ),
  });
}
