import { timeZones } from '../platform/time/format.js';
import { RENAMED_ZONES, ZONE_COUNTRIES } from './zone-countries.js';

/**
 * The time-zone picker's options: every zone Intl knows, named for people ("Tokyo, Japan"),
 * sorted by that name, and a short list of common zones shown first.
 */

/** Zones many customers of a European or American business are in, beside their own. */
export const COMMON_ZONES = [
  'Europe/London',
  'Europe/Dublin',
  'Europe/Lisbon',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Vienna',
  'Europe/Zurich',
  'Europe/Madrid',
  'Europe/Rome',
  'Europe/Warsaw',
  'Europe/Athens',
  'Europe/Istanbul',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Toronto',
  'America/Mexico_City',
  'America/Sao_Paulo',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
  'UTC',
];

let countries: Map<string, string> | undefined;
function countryOf(zone: string): string | undefined {
  if (!countries) {
    countries = new Map();
    for (const group of ZONE_COUNTRIES.split('|')) {
      const [code, zones] = group.split(':') as [string, string];
      for (const name of zones.split(',')) countries.set(name, code);
    }
  }
  return countries.get(RENAMED_ZONES[zone] ?? zone);
}

const regionNames = new Map<string, Intl.DisplayNames>();
function countryName(code: string, locale: string): string {
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region' });
    regionNames.set(locale, names);
  }
  return names.of(code) ?? code;
}

/**
 * "Tokyo, Japan"; "Indianapolis, Indiana, United States" (the tz database's middle part names a
 * region where one country has many zones); a zone of no country keeps its id ("UTC").
 */
export function zoneLabel(zone: string, locale: string): string {
  const parts = (RENAMED_ZONES[zone] ?? zone).split('/').map((part) => part.replaceAll('_', ' '));
  const code = countryOf(zone);
  if (parts.length < 2 || code === undefined) return zone;
  const country = countryName(code, locale);
  const region = parts.length > 2 && parts[1] !== countryName(code, 'en') ? parts[1] : undefined;
  return [parts.at(-1), region, country].filter(Boolean).join(', ');
}

/** Every zone with its label, sorted by the label in the page's language. */
export function allZones(locale: string): { zone: string; label: string }[] {
  const collator = new Intl.Collator(locale);
  return timeZones()
    .map((zone) => ({ zone, label: zoneLabel(zone, locale) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** The zones listed first: the ones given (the shown zone, the location's), then the common ones. */
export function firstZones(given: string[]): string[] {
  return [...new Set([...given, ...COMMON_ZONES])];
}
