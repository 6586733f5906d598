import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneLabelAt } from './zone.js';

/** zoneLabelAt memoises what Luxon answers; these pin that the memo never answers otherwise. */
describe('zoneLabelAt', () => {
  const luxon = (zone: string, at: number) => {
    const local = DateTime.fromMillis(at, { zone });
    return { offset: local.toFormat('ZZ'), short: local.offsetNameShort ?? '' };
  };

  it('answers as Luxon does, weekly over seven years, in zones with DST, odd offsets and renames', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'America/Chihuahua',
      'Pacific/Chatham',
      'UTC',
    ];
    for (const zone of zones) {
      for (let at = Date.UTC(2020, 0, 1, 11); at < Date.UTC(2027, 0, 1); at += 7 * 86_400_000 + 3_600_000) {
        expect(zoneLabelAt(zone, at), `${zone} at ${new Date(at).toISOString()}`).toEqual(luxon(zone, at));
      }
    }
  });

  it('keeps a renamed offset apart from its old name (America/Chihuahua, -06:00 in 2022 and 2023)', () => {
    const summer2022 = Date.UTC(2022, 6, 1, 12);
    const winter2023 = Date.UTC(2023, 0, 15, 12);
    const first = zoneLabelAt('America/Chihuahua', summer2022);
    const second = zoneLabelAt('America/Chihuahua', winter2023);
    expect(first.offset).toBe('-06:00');
    expect(second.offset).toBe('-06:00');
    expect(first.short).toBe(luxon('America/Chihuahua', summer2022).short);
    expect(second.short).toBe(luxon('America/Chihuahua', winter2023).short);
    expect(first.short).not.toBe(second.short);
  });

  it('formats negative, half- and quarter-hour offsets', () => {
    const at = Date.UTC(2026, 0, 15, 12);
    expect(zoneLabelAt('America/St_Johns', at).offset).toBe('-03:30');
    expect(zoneLabelAt('Asia/Kathmandu', at).offset).toBe('+05:45');
    expect(zoneLabelAt('UTC', at).offset).toBe('+00:00');
  });
});
