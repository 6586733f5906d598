import { describe, expect, it } from 'vitest';
import { DEFAULT_QUIET_HOURS } from './quiet-hours.rules.js';
import { planBookingTexts, type TextPlanInput } from './text-plan.rules.js';
import { DEFAULT_TEXT_SETTINGS } from './text-settings.rules.js';

const NOW = Date.parse('2026-09-01T08:00:00Z');
const START = Date.parse('2026-09-05T12:00:00Z'); // 14:00 Berlin
const base: TextPlanInput = {
  change: 'created',
  settings: { ...DEFAULT_TEXT_SETTINGS, enabled: true },
  phone: '+4915112345678',
  consent: null,
  start: START,
  now: NOW,
  zone: 'Europe/Berlin',
  quiet: DEFAULT_QUIET_HOURS,
};

describe('which texts a change makes', () => {
  it('a new booking: the confirmation now and a reminder at its offset', () => {
    expect(planBookingTexts(base)).toEqual({
      texts: [
        { kind: 'confirmed', dueAt: NOW },
        { kind: 'reminder', variant: 'm1440', dueAt: START - 86_400_000 },
      ],
      dropReminders: false,
    });
  });

  it.each([
    ['texts off', { settings: DEFAULT_TEXT_SETTINGS }],
    ['a declined consent', { consent: false }],
    ['a number that is not E.164', { phone: '0151 1234' }],
  ])('nothing for %s', (_, overrides) => {
    expect(planBookingTexts({ ...base, ...overrides }).texts).toEqual([]);
  });

  it('a cancel sends the cancel text, no reminder, and drops the pending ones', () => {
    expect(planBookingTexts({ ...base, change: 'canceled' })).toEqual({
      texts: [{ kind: 'canceled', dueAt: NOW }],
      dropReminders: true,
    });
  });

  it('a reminder due in quiet hours moves to their end', () => {
    // 10 h before 14:00 is 04:00 Berlin: inside 21:00-08:00, so 08:00 Berlin (06:00Z).
    const plan = planBookingTexts({ ...base, settings: { ...base.settings, reminderMinutes: [600] } });
    expect(plan.texts[1]).toEqual({
      kind: 'reminder',
      variant: 'm600',
      dueAt: Date.parse('2026-09-05T06:00:00Z'),
    });
  });
});
