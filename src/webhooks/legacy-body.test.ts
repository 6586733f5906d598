import { describe, expect, it } from 'vitest';
import { legacyDuration, legacyLocalTime, majorUnits } from './legacy-body.js';

describe('legacy body formats', () => {
  it.each([
    [90, 'en-US', '1 hr 30 min'],
    [45, 'en-US', '45 min'],
    [120, 'en-US', '2 hr'],
    [0, 'en-US', '0 min'],
    [90, 'de-DE', '1 Std. 30 Min.'],
  ])('%i minutes in %s read %s', (minutes, locale, expected) => {
    expect(legacyDuration(minutes, locale)).toBe(expected);
  });

  it.each([
    [9050, 'EUR', 90.5],
    [900, 'JPY', 900],
    [1234, 'KWD', 1.234],
  ])('%i minor units of %s are %f', (minor, currency, expected) => {
    expect(majorUnits(minor, currency)).toBe(expected);
  });

  it("names an end in the location's zone on a clock-change day", () => {
    // New York springs forward at 02:00 on 2026-03-08: 07:30Z is 03:30 EDT, not 02:30.
    // ICU puts a narrow no-break space before AM in newer Node versions, a space in older ones.
    expect(legacyLocalTime('2026-03-08T07:30:00Z', 'America/New_York', 'en-US')).toMatch(
      /^Mar 8, 2026, 3:30\sAM$/,
    );
  });
});
