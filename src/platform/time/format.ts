/**
 * Dates, times and zones as people read them (the booking page, emails, the panel's zone
 * picker), all by Intl in the reader's locale (so 12/24 h follows it) and always in an explicit
 * zone: the server's own zone never shows.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let value = formats.get(key);
  if (!value) {
    if (formats.size > 500) formats.clear();
    value = new Intl.DateTimeFormat(locale, options);
    formats.set(key, value);
  }
  return value;
}

/** A calendar date ('2026-03-29') as "Sunday, March 29, 2026" / "Sonntag, 29. März 2026". */
export function formatDate(date: string, locale: string): string {
  return format(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
}

/** Short day label for the day strip: "Sun 29" / "So. 29". */
export function formatDayShort(
  date: string,
  locale: string,
): { weekday: string; day: string; month: string } {
  const d = new Date(`${date}T12:00:00Z`);
  return {
    weekday: format(locale, { weekday: 'short', timeZone: 'UTC' }).format(d),
    day: format(locale, { day: 'numeric', timeZone: 'UTC' }).format(d),
    month: format(locale, { month: 'short', timeZone: 'UTC' }).format(d),
  };
}

/** A wall time in `zone`; with `offset`, the UTC offset too ("1:30 AM GMT+2"), which tells DST twins apart. */
export function formatTime(epochMs: number, zone: string, locale: string, offset = false): string {
  return format(locale, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
    ...(offset ? { timeZoneName: 'shortOffset' } : {}),
  }).format(epochMs);
}

/** Date, time and offset: "Sunday, March 29, 2026 at 10:00 AM GMT+2". */
export function formatDateTime(epochMs: number, zone: string, locale: string): string {
  return (
    format(locale, {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: zone,
    }).format(epochMs) + ` (${zoneOffset(epochMs, zone, locale)})`
  );
}

/** "GMT+2" as Intl names the offset in force at `epochMs`. */
export function zoneOffset(epochMs: number, zone: string, locale: string): string {
  const parts = format(locale, { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(epochMs);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** A zone's name for people: "Europe/Berlin" → "Berlin (Europe/Berlin)". */
export function zoneTitle(zone: string): string {
  const city = zone.split('/').pop()?.replaceAll('_', ' ');
  return city && city !== zone ? `${city} (${zone})` : zone;
}

let allZones: string[] | undefined;
export function timeZones(): string[] {
  allZones ??= Intl.supportedValuesOf('timeZone');
  return allZones;
}

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A weekday's name in `locale` ('mon' → "Monday" / "Montag", short "Mon" / "Mo."). */
export function weekdayName(day: (typeof WEEK)[number], locale: string, width: 'long' | 'short'): string {
  // 2024-01-01 is a Monday: each day of the week is that date plus its index.
  const date = new Date(Date.UTC(2024, 0, 1 + WEEK.indexOf(day), 12));
  return format(locale, { weekday: width, timeZone: 'UTC' }).format(date);
}
