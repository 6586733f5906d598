import {
  formatDate,
  formatDateTime,
  formatDayShort,
  formatTime,
  zoneOffset,
  zoneTitle,
} from '../../platform/time/format.js';
import { todayIn } from '../../platform/time/zone.js';
import type { Slot, SlotDay } from '../../slots/engine/types.js';
import { allZones, firstZones, zoneLabel } from '../zone-picker.js';
import { renderPage } from './layout.js';
import { MonthPicker, type MonthPickerData } from './month-picker.js';
import { type PageContext, pageHref, STATE_KEYS } from './state.js';

export interface SlotPageData {
  heading: string;
  title: string;
  back: string;
  days: SlotDay[];
  date: string | undefined;
  /** The first day of the previous / next range, or undefined at the ends. */
  earlier: string | undefined;
  later: string | undefined;
  locationZone: string;
  /** Group classes show places left. */
  capacity: number;
  notice?: string | undefined;
  /** Where a chosen slot goes (the details step, or the manage link's reschedule). */
  slotHref: (startTime: string) => string;
  /** The path (after /book/<slug>) of this step's own links: days, weeks, zone switch. */
  path: string;
  /** The start of the booking being moved (the manage link's reschedule). */
  current?: number | undefined;
  /** The "pick a date" month table. */
  month: Omit<MonthPickerData, 'path'>;
  /** The waitlist's join form of this service, when the step offers it. */
  waitlistHref?: string | undefined;
}

/** Step 4: a day strip (7 days) and the chosen day's free slots, in the customer's zone. */
export function slotsPage(ctx: PageContext, data: SlotPageData): string {
  const day = data.days.find((d) => d.date === data.date);
  const slots = day?.slots ?? [];
  const offsets = slots.map((slot) => zoneOffset(Date.parse(slot.start_time), ctx.zone, ctx.locale));
  // A day whose slots carry two offsets is a DST day: each time names its offset, so the two
  // 01:30s of an autumn night read "1:30 AM GMT+2" and "1:30 AM GMT+1".
  const dstDay = new Set(offsets).size > 1;
  const dayLabel = day ? formatDate(day.date, ctx.locale) : '';
  const anyFree = data.days.some((d) => d.slots.length > 0);
  const current = data.current;
  const currentHere = current !== undefined && day !== undefined && todayIn(ctx.zone, current) === day.date;
  const items: { at: number; slot?: Slot }[] = slots
    .map((slot) => ({ at: Date.parse(slot.start_time), slot }))
    .filter((item) => item.at !== current);
  if (currentHere) items.push({ at: current });
  items.sort((a, b) => a.at - b.at);
  return renderPage(ctx, {
    title: data.title,
    heading: data.heading,
    back: data.back,
    showsTimes: true,
    locationZone: data.locationZone,
    children: (
      <>
        {data.notice && (
          <p class="notice" role="alert">
            {data.notice}
          </p>
        )}
        {data.current !== undefined && (
          <p class="current">
            {ctx.t.currentTime}: <strong>{formatDateTime(data.current, ctx.zone, ctx.locale)}</strong>
          </p>
        )}
        <ZoneSwitch ctx={ctx} data={data} />
        <MonthPicker ctx={ctx} data={{ ...data.month, path: data.path }} />
        <nav class="pager" aria-label={ctx.t.chooseTime}>
          {data.earlier ? (
            <a
              href={pageHref(
                ctx.slug,
                ctx.state,
                { from: data.earlier, date: undefined, month: undefined },
                data.path,
              )}
              data-swap="1"
            >
              {ctx.arrow.back} {ctx.t.earlier}
            </a>
          ) : (
            <span />
          )}
          {data.later && (
            <a
              href={pageHref(
                ctx.slug,
                ctx.state,
                { from: data.later, date: undefined, month: undefined },
                data.path,
              )}
              data-swap="1"
            >
              {ctx.t.later} {ctx.arrow.forward}
            </a>
          )}
        </nav>
        <ul class="days">
          {data.days.map((d) => {
            const short = formatDayShort(d.date, ctx.locale);
            const label = formatDate(d.date, ctx.locale);
            // The visible short form is hidden from screen readers; they read the full date.
            const inner = (
              <>
                <span aria-hidden="true">{short.weekday}</span>
                <b aria-hidden="true">{short.day}</b>
                <span aria-hidden="true">{short.month}</span>
              </>
            );
            return (
              <li>
                {d.slots.length > 0 ? (
                  <a
                    href={pageHref(ctx.slug, ctx.state, { date: d.date, month: undefined }, data.path)}
                    aria-current={d.date === data.date ? 'date' : undefined}
                    data-swap="1"
                  >
                    {inner}
                    <span class="sr">{label}</span>
                  </a>
                ) : (
                  <span class="off">
                    {inner}
                    <span class="sr">{`${label}: ${ctx.t.noSlots}`}</span>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
        <section aria-live="polite">
          {day ? (
            <>
              <h2>{formatDate(day.date, ctx.locale)}</h2>
              {dstDay && <p class="muted">{ctx.t.dstNote}</p>}
              {slots.length === 0 && !currentHere ? (
                <p>{ctx.t.noSlots}</p>
              ) : (
                <ul class="slots">
                  {items.map((item) => {
                    const time = formatTime(item.at, ctx.zone, ctx.locale, dstDay);
                    if (!item.slot) {
                      // The booking being moved: shown in its place, not offered as a new time.
                      return (
                        <li>
                          <span class="current-slot">
                            {time}
                            <small>{ctx.t.currentLabel}</small>
                          </span>
                        </li>
                      );
                    }
                    const places = data.capacity > 1 ? ctx.t.placesLeft(item.slot.quantity) : undefined;
                    return (
                      <li>
                        <a
                          href={data.slotHref(item.slot.start_time)}
                          aria-label={[time, dayLabel, places].filter(Boolean).join(', ')}
                        >
                          {time}
                          {places && <small>{places}</small>}
                        </a>
                      </li>
                    );
                  })}
                </ul>
              )}
            </>
          ) : (
            <p>{anyFree ? '' : ctx.t.noSlotsWeek}</p>
          )}
        </section>
        {data.waitlistHref && (
          <p class="waitlist-link">
            <a href={data.waitlistHref}>{ctx.t.waitlistLink}</a>
          </p>
        )}
      </>
    ),
  });
}

/**
 * The ~420 zones after the common ones, one prebuilt string per locale: rendering them as
 * elements on every slot page was most of its CPU time. Few locales ever show, so the map stays small.
 */
const zoneOptions = new Map<string, string>();
function allZoneOptions(locale: string): string {
  let html = zoneOptions.get(locale);
  if (html === undefined) {
    html = allZones(locale)
      .map(({ zone, label }) => `<option value="${escapeHtml(zone)}">${escapeHtml(label)}</option>`)
      .join('');
    if (zoneOptions.size < 20) zoneOptions.set(locale, html);
  }
  return html;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The zone is always named, and can be switched; without JavaScript it is the location's. */
function ZoneSwitch({ ctx, data }: { ctx: PageContext; data: SlotPageData }) {
  const sample = Date.parse(data.days[0] ? `${data.days[0].date}T12:00:00Z` : '') || 0;
  return (
    <div class="zone">
      <strong>{ctx.t.timesIn(`${zoneTitle(ctx.zone)}, ${zoneOffset(sample, ctx.zone, ctx.locale)}`)}</strong>
      <form method="get" action={pageHref(ctx.slug, {}, {}, data.path)}>
        {STATE_KEYS.filter(
          (k) => k !== 'tz' && k !== 'date' && k !== 'month' && ctx.state[k] !== undefined,
        ).map((k) => (
          <input type="hidden" name={k} value={ctx.state[k]} />
        ))}
        <label for="tz">{ctx.t.changeZone}</label>
        {/* A plain select without JavaScript (type-ahead finds a city); the island adds a search
            box that also finds a country. The shown zone, the location's and common ones first. */}
        <select
          id="tz"
          name="tz"
          data-find={ctx.t.findZone}
          dangerouslySetInnerHTML={{
            __html:
              `<optgroup label="${escapeHtml(ctx.t.commonZones)}">` +
              firstZones([ctx.zone, data.locationZone])
                .map(
                  (zone) =>
                    `<option value="${escapeHtml(zone)}"${zone === ctx.zone ? ' selected' : ''}>${escapeHtml(zoneLabel(zone, ctx.locale))}</option>`,
                )
                .join('') +
              `</optgroup><optgroup label="${escapeHtml(ctx.t.allZones)}">${allZoneOptions(ctx.locale)}</optgroup>`,
          }}
        />
        <button type="submit" class="secondary">
          {ctx.t.show}
        </button>
      </form>
    </div>
  );
}
