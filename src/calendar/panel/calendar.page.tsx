import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { FormKey } from '../../platform/pages/form-key.js';
import { formatMinutes, localMsOf, offsetLabel, offsetMinutesAt } from '../../platform/time/zone.js';
import type { Block, CalendarModel, Column } from '../calendar.service.js';
import type { CalendarDay } from '../calendar-layout.rules.js';

export const CALENDAR = `${PANEL_PREFIX}/calendar`;

/**
 * The bookings calendar: a time grid rendered on the server. Positions are CSS
 * classes of a per-page stylesheet (`GridStyles`): the CSP allows no style attributes, and a
 * week of 1,000 bookings shares a few hundred geometries. The island (calendar.island.tsx) adds
 * dragging, the "Move to…" dialog and click-to-book; without it every block is a link to its
 * booking's page, where the same moves are plain forms.
 */

/** Pixels per axis minute: an hour is 48 px in the one-day view, 40 px in week views. */
export function scaleOf(model: Pick<CalendarModel, 'view'>): number {
  return model.view === 'day' ? 0.8 : 2 / 3;
}

const HEX = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i;

/**
 * Geometry and colour classes of one page, deduplicated. The page's parts are called as plain
 * functions (not JSX elements), so every class is known once CalendarPage returns.
 */
export class GridStyles {
  private readonly rules = new Map<string, string>();
  constructor(readonly scale: number) {}

  /** A class for a vertical span (and lane) on the grid. */
  box(top: number, height: number, lane = 0, lanes = 1): string {
    const px = (minutes: number) => Math.round(minutes * this.scale * 10) / 10;
    const key = `${px(top)}/${px(height)}/${lane}/${lanes}`;
    let name = this.rules.get(key);
    if (name === undefined) {
      name = `g${this.rules.size.toString(36)}`;
      this.rules.set(key, name);
    }
    return name;
  }

  private readonly colours = new Map<string, string>();

  /** A status colour as a class (only well-formed hex colours reach the stylesheet). */
  colour(color: string): string {
    const safe = HEX.test(color) ? color.toLowerCase() : '#3949ab';
    let name = this.colours.get(safe);
    if (!name) {
      name = `s${this.colours.size}`;
      this.colours.set(safe, name);
    }
    return name;
  }

  /** The stylesheet: only the classes used (so the page must be built before this is called). */
  css(): string {
    let css = '';
    for (const [color, name] of this.colours) css += `.${name}{border-inline-start-color:${color}}`;
    for (const [key, name] of this.rules) {
      const [top, height, lane, lanes] = key.split('/').map(Number) as [number, number, number, number];
      const width =
        lanes > 1
          ? `;inset-inline-start:${((lane / lanes) * 100).toFixed(2)}%;width:${(100 / lanes).toFixed(2)}%`
          : '';
      css += `.${name}{top:${top}px;height:${height}px${width}}`;
    }
    return css;
  }
}

/**
 * The calendar's day names in the reader's locale. English keeps the day-first form the panel's
 * calendar has always shown ("Wednesday 25 November 2026").
 */
interface DayFormats {
  title: Intl.DateTimeFormat;
  short: Intl.DateTimeFormat;
  pager: Intl.DateTimeFormat;
}
const dayFormats = new Map<string, DayFormats>();

function formatsOf(text: PanelText): DayFormats {
  const locale = text.lang === 'en' ? 'en-GB' : text.locale;
  let formats = dayFormats.get(locale);
  if (!formats) {
    formats = {
      title: new Intl.DateTimeFormat(locale, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
      short: new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        timeZone: 'UTC',
      }),
      pager: new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', timeZone: 'UTC' }),
    };
    dayFormats.set(locale, formats);
  }
  return formats;
}

function titleOf(date: string, text: PanelText): string {
  return formatsOf(text).title.format(new Date(`${date}T00:00:00Z`));
}
function shortOf(date: string, text: PanelText): string {
  return formatsOf(text).short.format(new Date(`${date}T00:00:00Z`));
}

function wallTime(ms: number, zone: string): string {
  const local = localMsOf(ms, zone);
  return formatMinutes(Math.round((local - Math.floor(local / 86_400_000) * 86_400_000) / 60_000));
}

function stafferName(s: { first_name: string; last_name: string }): string {
  return `${s.first_name} ${s.last_name}`.trim();
}

function calendarHref(model: CalendarModel, change: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  const values: Record<string, string | undefined> = {
    location: model.location.id,
    view: model.view,
    date: model.date,
    staffer: model.staffer?.id ?? 'all',
    // Only the view by resource says so: the view by staffer's links stay as they were.
    by: model.by === 'resource' ? 'resource' : undefined,
    ...change,
  };
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, value);
  return `${CALENDAR}?${params}`;
}

/** What a DST day says about itself, in words. */
function clockNote(day: CalendarDay, text: PanelText): string | undefined {
  if (!day.change) return undefined;
  const { t } = text;
  const hours = day.lengthMinutes / 60;
  const at = formatMinutes(day.change.shiftMinutes > 0 ? day.change.wallFrom : day.change.wallTo);
  const amount = t('calendar.shift', { minutes: Math.abs(day.change.shiftMinutes) });
  const values = { day: shortOf(day.date, text), hours, at, amount };
  return day.change.shiftMinutes > 0
    ? t('calendar.dstForward', values)
    : t('calendar.dstBack', { ...values, from: formatMinutes(day.change.wallFrom) });
}

/**
 * A week's day group; on a phone the week shows one day at a time (the chosen date, the rest
 * behind the day links of DayPager), since seven days of columns cannot be read at 375 px.
 */
function groupClass(model: CalendarModel, date: string): string {
  return model.view === 'week' && date !== model.date ? 'cal-group cal-other' : 'cal-group';
}

/** The week's days as links, shown on a phone only, where the week view pages by day. */
function DayPager({ model, text }: { model: CalendarModel; text: PanelText }) {
  if (model.view !== 'week') return null;
  return (
    <nav class="cal-days" aria-label={text.t('calendar.daysOfWeek')}>
      <ul>
        {model.days.map((day) => (
          <li>
            <a
              href={calendarHref(model, { date: day.date })}
              aria-current={day.date === model.date ? 'date' : undefined}
            >
              {formatsOf(text)
                .pager.formatToParts(new Date(`${day.date}T00:00:00Z`))
                .filter((part) => part.type !== 'literal')
                // On two lines; the space keeps "Wed 25" one phrase for screen readers.
                .map((part, index) => (
                  <>
                    {index > 0 && ' '}
                    <span>{part.value}</span>
                  </>
                ))}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The time grid alone: everything here follows from the model (no session, no CSRF token), so
 * the route renders it once per availability version and reuses the HTML (calendar.routes.tsx).
 */
export function CalendarGrid(props: {
  model: CalendarModel;
  styles: GridStyles;
  slotStep: number;
  text: PanelText;
}) {
  const { model, styles, text } = props;
  const zone = model.location.timezone;
  const currentUrl = calendarHref(model, {});
  const multiDay = model.view === 'week';
  const perStaffer = multiDay && model.staffer !== undefined;
  const byResource = model.by === 'resource';
  const axisHeight = (model.window.to - model.window.from) * scaleOf(model);
  const heightClass = styles.box(0, model.window.to - model.window.from);
  const groups = model.layout();
  // The view by resource names each block's staffer.
  const names = byResource ? new Map(model.staffers.map((s) => [s.id, stafferName(s)])) : undefined;
  return (
    <div
      class={`cal ${multiDay ? (perStaffer ? 'cal-staffer-week' : 'cal-week') : 'cal-day'}${byResource ? ' cal-units' : ''}`}
      data-calendar=""
      data-zone={zone}
      data-mode={model.mode}
      data-from={String(model.window.from)}
      data-scale={String(scaleOf(model))}
      data-step={String(props.slotStep)}
      data-location={model.location.id}
      data-by={model.by}
      data-return={currentUrl}
      data-height={String(axisHeight)}
    >
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <section class="cal-scroll" tabIndex={0} aria-label={text.t('calendar.grid')}>
        <div class="cal-head" aria-hidden="true">
          <div class="cal-corner" />
          {groups.map((group) => (
            <div class={groupClass(model, group.day.date)}>
              {multiDay && !perStaffer && <div class="cal-group-title">{shortOf(group.day.date, text)}</div>}
              <div class="cal-group-cols">
                {group.columns.map((column) =>
                  column.resource ? (
                    <div class="cal-col-title unit">
                      {column.resource.name}
                      <span class="cal-col-type">{column.resource.type}</span>
                    </div>
                  ) : (
                    <div class="cal-col-title">
                      {perStaffer || !column.staffer
                        ? shortOf(group.day.date, text)
                        : stafferName(column.staffer)}
                    </div>
                  ),
                )}
              </div>
            </div>
          ))}
        </div>
        <div class="cal-body">
          <div class={`cal-axis ${heightClass}`} aria-hidden="true">
            {model.hours.map((mark) => (
              <span class={`cal-hour ${styles.box(mark.at - model.window.from, 60)}`}>{mark.label}</span>
            ))}
          </div>
          {groups.map((group) => (
            <div class={groupClass(model, group.day.date)}>
              <div class="cal-group-cols">
                {group.columns.map((column) =>
                  ColumnView({ column, model, styles, heightClass, text, names }),
                )}
              </div>
            </div>
          ))}
        </div>
      </section>
      <template data-staffers="">
        {model.staffers.map((s) => (
          <option value={s.id}>{stafferName(s)}</option>
        ))}
      </template>
    </div>
  );
}

export function CalendarPage(props: {
  model: CalendarModel;
  csrf: string;
  /** CalendarGrid rendered (our own escaped output), reused between writes. */
  gridHtml: string;
  canSetup: boolean;
  notice?: string | undefined;
  text: PanelText;
}) {
  const { model, text } = props;
  const { t } = text;
  const zone = model.location.timezone;
  const currentUrl = calendarHref(model, {});
  const notes = model.days.map((day) => clockNote(day, text)).filter((n): n is string => n !== undefined);
  const grid = (
    <>
      {/* CalendarGrid's own output, rendered (and escaped) by Preact once per version. */}
      <div dangerouslySetInnerHTML={{ __html: props.gridHtml }} />
      <form
        class="cal-move"
        method="post"
        action={CALENDAR}
        hidden
        data-move-form=""
        data-texts={text.lang === 'en' ? undefined : islandTexts(text)}
      >
        <input type="hidden" name="_csrf" value={props.csrf} />
        <FormKey />
        <input type="hidden" name="date" value="" />
        <input type="hidden" name="reserved_on" value="" />
        <input type="hidden" name="staffer_uuid" value="" />
        <input type="hidden" name="from_resource" value="" />
        <input type="hidden" name="to_resource" value="" />
        <input type="hidden" name="return_to" value={currentUrl} />
      </form>
    </>
  );

  return (
    <>
      <h1>{t('calendar.title')}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form method="get" action={CALENDAR} class="cal-controls" aria-label={t('calendar.view')}>
        <div class="field">
          <label for="cal-location">{t('calendar.location')}</label>
          <select id="cal-location" name="location">
            {model.locations.map((l) => (
              <option value={l.id} selected={l.id === model.location.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="cal-view">{t('calendar.viewField')}</label>
          <select id="cal-view" name="view">
            <option value="day" selected={model.view === 'day'}>
              {t('calendar.day')}
            </option>
            <option value="week" selected={model.view === 'week'}>
              {t('calendar.week')}
            </option>
          </select>
        </div>
        <div class="field">
          <label for="cal-by">{t('calendar.columns')}</label>
          <select id="cal-by" name="by">
            <option value="staff" selected={model.by === 'staff'}>
              {t('calendar.byStaffer')}
            </option>
            <option value="resource" selected={model.by === 'resource'}>
              {t('calendar.byResource')}
            </option>
          </select>
        </div>
        <div class="field">
          <label for="cal-staffer">{t('calendar.staff')}</label>
          <select id="cal-staffer" name="staffer">
            <option value="all" selected={!model.staffer}>
              {t('calendar.allStaff')}
            </option>
            {model.staffers.map((s) => (
              <option value={s.id} selected={s.id === model.staffer?.id}>
                {stafferName(s)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="cal-date">{t('calendar.date')}</label>
          <input id="cal-date" type="date" name="date" value={model.date} />
        </div>
        <button type="submit" class="secondary">
          {t('calendar.show')}
        </button>
      </form>
      <nav class="row cal-nav" aria-label={t('calendar.dates')}>
        <a class="button secondary" href={calendarHref(model, { date: model.previous })}>
          {t(model.view === 'day' ? 'calendar.previousDay' : 'calendar.previousWeek')}
        </a>
        <a class="button secondary" href={calendarHref(model, { date: model.today })}>
          {t('calendar.today')}
        </a>
        <a class="button secondary" href={calendarHref(model, { date: model.next })}>
          {t(model.view === 'day' ? 'calendar.nextDay' : 'calendar.nextWeek')}
        </a>
        <a
          class="button"
          href={`${PANEL_PREFIX}/bookings/new?${new URLSearchParams({
            location_uuid: model.location.id,
            date: model.date,
            ...(model.staffer ? { staffer_uuid: model.staffer.id } : {}),
          })}`}
        >
          {t('calendar.newBooking')}
        </a>
        <a href={`${PANEL_PREFIX}/bookings`}>{t('calendar.listView')}</a>
      </nav>
      <h2 class="cal-title">
        {model.view === 'day'
          ? titleOf(model.date, text)
          : t('calendar.weekOf', { date: titleOf(model.days[0]!.date, text) })}
        {model.staffer ? ` · ${stafferName(model.staffer)}` : ''}
        <span class="muted">
          <span class="cal-sep"> · </span>
          {t('calendar.timesIn', {
            location: model.location.name,
            zone,
            offset: offsetLabel(offsetMinutesAt(zone, model.days[0]!.startMs)),
          })}
        </span>
      </h2>
      {notes.map((note) => (
        <p class="cal-dst" role="note">
          {note}
        </p>
      ))}
      <DayPager model={model} text={text} />
      {model.by === 'resource' && model.resources.length === 0 ? (
        <p class="card">
          {t('calendar.noResource')}{' '}
          {props.canSetup && <a href={`${PANEL_PREFIX}/setup/resources`}>{t('calendar.setUpResources')}</a>}
        </p>
      ) : model.by === 'staff' && model.staffers.length === 0 ? (
        <p class="card">
          {t('calendar.noStaffer')}{' '}
          {props.canSetup && <a href={`${PANEL_PREFIX}/setup/staffers`}>{t('calendar.setUpStaff')}</a>}
        </p>
      ) : (
        grid
      )}
      {model.by === 'resource' && model.resources.length > 0 && model.withoutUnits > 0 && (
        <p class="muted">
          {t('calendar.withoutUnits', { n: model.withoutUnits })}{' '}
          <a href={calendarHref(model, { by: undefined })}>{t('calendar.byStaffer')}</a>
        </p>
      )}
      {model.by !== 'resource' && model.rentalsElsewhere > 0 && (
        <p class="muted">
          {t('calendar.rentalsElsewhere', { n: model.rentalsElsewhere })}{' '}
          <a href={calendarHref(model, { by: 'resource' })}>{t('calendar.byResource')}</a>
        </p>
      )}
      <p class="muted cal-legend">
        {model.by === 'resource'
          ? withElements((values) => t('calendar.unitLegend', { ...values, n: model.bookingCount }), {
              work: <span class="key work" />,
            })
          : withElements((values) => t('calendar.legend', { ...values, n: model.bookingCount }), {
              work: <span class="key work" />,
              break: <span class="key break" />,
              off: <span class="key off" />,
            })}
      </p>
    </>
  );
}

function ColumnView(props: {
  column: Column;
  model: CalendarModel;
  styles: GridStyles;
  heightClass: string;
  text: PanelText;
  names: Map<string, string> | undefined;
}) {
  const { column, model, styles, text } = props;
  const zone = model.location.timezone;
  const who = column.resource ? column.resource.name : column.staffer ? stafferName(column.staffer) : '';
  const label = `${who}, ${titleOf(column.day.date, text)}`;
  return (
    <section
      class={`cal-col ${props.heightClass}`}
      aria-label={label}
      data-staffer={column.staffer?.id}
      data-resource={column.resource?.id}
      data-date={column.day.date}
      data-day-start={String(column.day.startMs)}
    >
      {column.shades.map((shade) =>
        shade.kind === 'busy' ? (
          <div class={`shade busy ${styles.box(shade.top, shade.height)}`}>
            {shade.title ?? text.t('calendar.busy')}
          </div>
        ) : (
          <div class={`shade ${shade.kind} ${styles.box(shade.top, shade.height)}`} aria-hidden="true">
            {shade.kind === 'skipped'
              ? text.t('calendar.clocksForward')
              : shade.kind === 'repeated'
                ? text.t('calendar.hourRepeats')
                : ''}
          </div>
        ),
      )}
      {column.blocks.map((block) => BlockView({ block, zone, styles, text, names: props.names }))}
    </section>
  );
}

/**
 * The island's texts (calendar.island.tsx), one per line, outside English: the "Move to…"
 * dialog's title, labels and buttons and the blocks' hint. The island's defaults are English.
 */
function islandTexts({ t }: PanelText): string {
  return [
    t('calendar.moveTo'),
    t('calendar.date'),
    t('calendar.time'),
    t('calendar.staffer'),
    t('calendar.move'),
    t('calendar.cancel'),
    t('calendar.dragHint'),
    t('calendar.dragUnitHint'),
  ].join('\n');
}

/** A card's text line in px (the stylesheet's `.blk` line-height) and its border and padding. */
const BLOCK_LINE_PX = 14;
const BLOCK_FRAME_PX = 4;

/**
 * How many whole lines of text a card of this height holds: a card shows its time, then who,
 * then what, one line each, and a line that does not fit whole is left out of sight (still read
 * by screen readers) instead of being cut through the middle. `fit1` puts time and who on one
 * line, `fit2` drops the services line.
 */
function fitClass(heightPx: number): string {
  const lines = Math.floor((heightPx - BLOCK_FRAME_PX) / BLOCK_LINE_PX);
  return lines >= 3 ? '' : lines === 2 ? ' fit2' : ' fit1';
}

function BlockView(props: {
  block: Block;
  zone: string;
  styles: GridStyles;
  text: PanelText;
  /** Staffer names by id, in the view by resource: each block then names its staffer. */
  names: Map<string, string> | undefined;
}) {
  const { block, zone, styles, text, names } = props;
  const staffer = names && block.stafferId !== null ? `${names.get(block.stafferId) ?? ''} · ` : '';
  const time = `${wallTime(block.startMs, zone)}–${wallTime(block.endMs, zone)}`;
  const geometry = styles.box(block.top, block.height, block.lane, block.lanes);
  const status = styles.colour(block.status.color);
  const classes = `blk ${geometry} ${status}${block.completed ? ' done' : ''}${block.seats ? ' group' : ''}${block.changedOutside ? ' outside' : ''}${fitClass(block.height * styles.scale)}`;
  // Marked, and said to screen readers: its event was edited in the staffer's own calendar.
  const flag = block.changedOutside ? (
    <span class="blk-flag" title={text.t('calendar.changedOutside')}>
      ⚠<span class="visually-hidden"> {text.t('calendar.changedOutside')}</span>{' '}
    </span>
  ) : null;
  if (block.seats) {
    return (
      <div class={classes} data-group="">
        <span class="blk-time">
          {flag}
          {time} · {text.t('calendar.seats', { taken: block.seats.taken, capacity: block.seats.capacity })}
        </span>
        <span class="blk-what">
          {staffer}
          {block.services}
          {block.resources ? ` · ${block.resources}` : ''}
        </span>
        <ul class="blk-people">
          {block.bookings.map((b) => (
            <li>
              <a href={`${PANEL_PREFIX}/bookings/${b.id}`}>{b.customer}</a>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const booking = block.bookings[0]!;
  return (
    <a
      class={classes}
      href={`${PANEL_PREFIX}/bookings/${booking.id}`}
      data-start={String(block.startMs)}
      data-staffer={names ? (block.stafferId ?? undefined) : undefined}
    >
      <span class="blk-time">
        {flag}
        {time}
      </span>{' '}
      <span class="blk-who">{booking.customer}</span>{' '}
      <span class="blk-what">
        {staffer}
        {block.services}
        {block.resources ? ` · ${block.resources}` : ''} · {block.status.name}
        {block.completed ? ` · ${text.t('calendar.completed')}` : ''}
      </span>
    </a>
  );
}
