import { describe, expect, it } from 'vitest';
import { timeZones } from '../platform/time/format.js';
import { allZones, COMMON_ZONES, firstZones, zoneLabel } from './zone-picker.js';
import { matchesZone } from './zone-search.js';

describe('the time-zone picker', () => {
  it('names every zone Intl knows by city and country, in the page`s language', () => {
    const zones = allZones('en-US');
    expect(zones.map((z) => z.zone).sort()).toEqual([...timeZones()].sort());
    expect(zoneLabel('Asia/Tokyo', 'en-US')).toBe('Tokyo, Japan');
    expect(zoneLabel('Europe/Berlin', 'de')).toBe('Berlin, Deutschland');
    expect(zoneLabel('America/Indiana/Knox', 'en-US')).toBe('Knox, Indiana, United States');
    // An older ICU name gets today's city and its country.
    expect(zoneLabel('Asia/Calcutta', 'en-US')).toBe('Kolkata, India');
    expect(zoneLabel('UTC', 'en-US')).toBe('UTC');
    // Only a handful of zones (if any) lack a country: the data covers what Intl lists.
    expect(zones.filter((z) => z.label === z.zone).length).toBeLessThan(10);
  });

  it('finds a zone by city or country name, ignoring case, accents and separators', () => {
    const find = (query: string) =>
      allZones('en-US')
        .filter(({ zone, label }) => matchesZone(query, `${label} ${zone}`))
        .map((z) => z.zone);
    expect(find('japan')).toEqual(['Asia/Tokyo']);
    expect(find('Tokyo')).toEqual(['Asia/Tokyo']);
    expect(find('sao paulo')).toEqual(['America/Sao_Paulo']);
    expect(find('new york')).toEqual(['America/New_York']);
    expect(find('germany')).toContain('Europe/Berlin');
    expect(find('côte d’ivoire')).toEqual(['Africa/Abidjan']);
    expect(find('europe/lisb')).toEqual(['Europe/Lisbon']);
    expect(find('united states').length).toBeGreaterThan(20);
  });

  it('lists the shown and the location`s zone first, then the common ones, once each', () => {
    const first = firstZones(['Asia/Tokyo', 'Europe/Berlin']);
    expect(first.slice(0, 3)).toEqual(['Asia/Tokyo', 'Europe/Berlin', 'Europe/London']);
    expect(new Set(first).size).toBe(first.length);
    // Both are common zones too: listed once, in front.
    expect(first).toHaveLength(COMMON_ZONES.length);
  });
});
