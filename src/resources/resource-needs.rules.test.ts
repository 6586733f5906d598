import { describe, expect, it } from 'vitest';
import { formatRequirements, parseRequirements } from './resource-needs.rules.js';

const UNIT = '3f0c1a52-9a1e-4a57-8d7e-0a4b8c1d2e3f';

describe('a service’s requirements as a line of text', () => {
  it('reads types, counts and named units, and writes them back the same', () => {
    expect(parseRequirements(` Room, 2 chair ,wash-station:${UNIT.toUpperCase()}`)).toEqual({
      ok: true,
      resources: [
        { type: 'room', units: 1, resource_uuid: null },
        { type: 'chair', units: 2, resource_uuid: null },
        { type: 'wash-station', units: 1, resource_uuid: UNIT },
      ],
    });
    expect(
      formatRequirements([
        { type: 'room', units: 1, resource_id: null },
        { type: 'chair', units: 2, resource_id: null },
        { type: 'wash-station', units: 1, resource_id: UNIT },
      ]),
    ).toBe(`room, 2 chair, wash-station:${UNIT}`);
    expect(parseRequirements('')).toEqual({ ok: true, resources: [] });
  });

  it('refuses what is not a need, naming it', () => {
    for (const bad of ['0 room', 'two rooms', `2 room:${UNIT}`, 'room:nope', '!']) {
      const parsed = parseRequirements(bad);
      expect(parsed.ok, bad).toBe(false);
    }
    expect(parseRequirements('room, big hall')).toEqual({
      ok: false,
      entry: 'big hall',
    });
  });
});
