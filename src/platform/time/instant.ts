const INSTANT_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const MIN_YEAR = 1970;
const MAX_YEAR = 9998;

/**
 * Reads `reserved_on`: ISO 8601 date-time; an explicit offset is converted to
 * UTC, no offset means UTC. Returns epoch ms, or undefined for anything else (including dates
 * that do not exist, such as 2026-02-30).
 */
export function parseInstant(input: string): number | undefined {
  const match = INSTANT_PATTERN.exec(input.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '0', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  // No booking lies outside these years; at the ends of the calendar (9999-12-31 plus a service's
  // length) the store's timestamps overflow, and Date.UTC reads years 0-99 as 1900-1999.
  if (year < MIN_YEAR || year > MAX_YEAR) return undefined;
  const wall = Date.UTC(
    year,
    month - 1,
    day,
    hour,
    minute,
    second,
    Math.floor(Number(`0.${fraction}`) * 1000),
  );
  const check = new Date(wall);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  return wall - offsetMinutes(zone) * 60_000;
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  return sign * (hours * 60 + minutes);
}
