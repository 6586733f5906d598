import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createLocation } from '../helpers/factories.js';
import { makeUser, PanelClient } from '../helpers/panel-client.js';

/**
 * The panel's setup forms that add something, submitted several times at once (a double click):
 * one row, and every answer is the first one's redirect. Nothing but the form's key tells those
 * submits apart from a second, wanted one: names may repeat.
 */
let t: TestApp;
let admin: PanelClient;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]),
  );
});
afterAll(() => t.close());

/** The hidden idempotency key of the form posting to `action` on `page`. */
async function keyOf(page: string, action: string): Promise<string> {
  const shown = await admin.get(page);
  expect(shown.statusCode).toBe(200);
  for (const form of shown.body.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const key = form[1] === action ? /name="idempotency_key" value="([^"]+)"/.exec(form[2]!)?.[1] : undefined;
    if (key) return key;
  }
  throw new Error(`no form posting to ${action} with a key`);
}

async function submitAtOnce(page: string, action: string, fields: Record<string, string | string[]>) {
  const form = { ...fields, idempotency_key: await keyOf(page, action) };
  return Promise.all([1, 2, 3].map(() => admin.post(action, form)));
}

function expectOneRedirect(answers: LightMyRequestResponse[]): string {
  expect(answers.map((answer) => answer.statusCode)).toEqual([303, 303, 303]);
  expect(new Set(answers.map((answer) => answer.headers.location)).size).toBe(1);
  return String(answers[0]!.headers.location);
}

async function names(path: string): Promise<string[]> {
  const { data } = (await t.call('GET', `${path}?per_page=100`)).json();
  return data.map((row: { name?: string; first_name?: string }) => row.name ?? row.first_name);
}

describe('a setup form submitted several times at once adds one', () => {
  it('location', async () => {
    const answers = await submitAtOnce('/panel/setup/locations/new', '/panel/setup/locations', {
      name: 'Mitte',
      timezone: 'Europe/Berlin',
      'address.country_iso': 'de',
    });
    expect(expectOneRedirect(answers)).toBe('/panel/setup/locations?notice=created');
    expect((await names('/locations')).filter((name) => name === 'Mitte')).toEqual(['Mitte']);
  });

  it('service', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Service studio' });
    const answers = await submitAtOnce('/panel/setup/services/new', '/panel/setup/services', {
      name: 'Long cut',
      duration_minutes: '45',
      price: '45.50',
      capacity: '1',
      location_uuids: [location.id],
    });
    expect(expectOneRedirect(answers)).toBe('/panel/setup/services?notice=created');
    const services = await t.db
      .selectFrom('services')
      .select('name')
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect(services.map((row) => row.name)).toEqual(['Long cut']);
  });

  it('staffer', async () => {
    const answers = await submitAtOnce('/panel/setup/staffers/new', '/panel/setup/staffers', {
      first_name: 'Mia',
      last_name: 'Berg',
    });
    expect(expectOneRedirect(answers)).toMatch(/^\/panel\/setup\/staffers\/[0-9a-f-]{36}\?notice=created$/);
    const staffers = await t.db
      .selectFrom('staffers')
      .select('first_name')
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect(staffers.map((row) => row.first_name)).toEqual(['Mia']);
  });

  it('status', async () => {
    const before = (await names('/bookings/statuses')).length;
    const answers = await submitAtOnce('/panel/setup/statuses/new', '/panel/setup/statuses', {
      name: 'Arrived',
      color: '#FF9800',
    });
    expect(expectOneRedirect(answers)).toBe('/panel/setup/statuses?notice=created');
    const after = await names('/bookings/statuses');
    expect(after).toHaveLength(before + 1);
    expect(after.filter((name) => name === 'Arrived')).toEqual(['Arrived']);
  });

  it('payment account', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Account studio' });
    const page = `/panel/setup/payment-accounts/${location.id}`;
    const answers = await submitAtOnce(`${page}/new`, page, { name: 'Card terminal', type: 'card' });
    expect(expectOneRedirect(answers)).toBe('/panel/setup/payment-accounts?notice=created');
    const { data } = (await t.call('GET', `/locations/${location.id}/accounts`)).json();
    expect(data.map((account: { name: string }) => account.name)).toEqual(['Card terminal']);
  });
});
