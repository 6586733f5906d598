import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { createLocation } from '../../test/helpers/factories.js';
import { memberSpeaking } from '../../test/helpers/panel-client.js';

/**
 * A refused form in the reader's language: what the shared schemas find (a required field, a
 * number out of range, a text too long, a bad address) is worded from the panel's catalogs,
 * beside the field, while the API keeps its English messages for the same findings.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
});
afterAll(() => t.close());

const errorOf = (body: string, field: string) =>
  new RegExp(`id="f-${field}-error">([^<]*)<`).exec(body)?.[1] ?? null;

describe('schema findings in the panel', () => {
  it('are worded in German beside each field', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'de');
    await german.get(`/panel/setup/resources/${location.id}/new`);
    const refused = await german.post(`/panel/setup/resources/${location.id}`, {
      name: 'x'.repeat(300),
      type: 'room',
      capacity: '0',
    });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused.body, 'name')).toBe('Das ist zu lang: höchstens 255 Zeichen.');
    expect(errorOf(refused.body, 'capacity')).toBe('Geben Sie 1 oder mehr ein.');

    await german.get('/panel/setup/services/new');
    const service = await german.post('/panel/setup/services', {
      name: '',
      duration_minutes: '60',
      buffer_before_minutes: '900',
      location_uuids: location.id,
      resources: 'room, big hall',
    });
    expect(service.statusCode).toBe(422);
    expect(errorOf(service.body, 'name')).toBe('Dieses Feld ist erforderlich.');
    expect(errorOf(service.body, 'buffer_before_minutes')).toBe('Geben Sie 720 oder weniger ein.');
    expect(errorOf(service.body, 'resources')).toBe(
      '„big hall“ ist kein Ressourcenbedarf: Schreiben Sie room, 2 chair oder room:&lt;uuid>.',
    );
  });

  it('a rule’s required field too (a name of only spaces)', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'de');
    await german.get('/panel/setup/statuses/new');
    const status = await german.post('/panel/setup/statuses', { name: '   ', color: '#4caf50' });
    expect(status.statusCode).toBe(422);
    expect(errorOf(status.body, 'name')).toBe('Dieses Feld ist erforderlich.');
    // A rule's own finding is worded too (src/panel-kit/rule-messages.panel.test.ts has more).
    const colour = await german.post('/panel/setup/statuses', { name: 'Ok', color: 'green' });
    expect(colour.statusCode).toBe(422);
    expect(errorOf(colour.body, 'color')).toBe('Geben Sie eine Farbe als #rrggbb ein, etwa #4caf50.');
  });

  it('keep their English messages in the API', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Kreuzberg' });
    const answer = await t.call('POST', '/resources', {
      location_uuid: location.id,
      type: 'room',
      name: 'x'.repeat(300),
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.name[0]).toMatch(/^The name field must NOT have more than 255 characters/);
  });
});
