import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';

let t: TestApp;
let other: Awaited<ReturnType<typeof createOtherWorkspace>>;

beforeAll(async () => {
  t = await buildTestApp();
  other = await createOtherWorkspace(t.db);
});
afterAll(() => t.close());

const DEFAULT_FORM = {
  customer_first_name: 'optional',
  customer_last_name: 'optional',
  customer_email: 'optional',
  booking_comment: 'optional',
  booking_callback: 'optional',
};

// Each test starts from the settings a new workspace has.
beforeEach(async () => {
  await t.db
    .updateTable('workspaces')
    .set({
      name: 'Test Studio',
      currency: 'EUR',
      locale: 'en-US',
      booking_form: JSON.stringify(DEFAULT_FORM),
      staffer_selection: 'required',
      slot_step_minutes: 15,
      min_notice_minutes: 60,
      horizon_days: 90,
      country_iso: '',
      contact_phone: '',
      contact_email: '',
    })
    .where('id', '=', t.workspace.id)
    .execute();
});

async function getWorkspace(headers = t.headers) {
  const response = await t.app.inject({ method: 'GET', url: `${API}/workspace`, headers });
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

const patch = (body: unknown) => t.call('PATCH', '/workspace', body);

describe('PATCH /workspace', () => {
  it('changes every setting and answers the workspace as GET /workspace shows it', async () => {
    const before = await getWorkspace();
    const response = await patch({
      name: '  Salon Nord ',
      currency: 'USD',
      locale: 'de-DE',
      booking_form: { customer_email: 'required', booking_callback: 'hidden' },
      staffer_selection: 'automatic',
      slot_step_minutes: 30,
      min_notice_minutes: 120,
      horizon_days: 365,
      manage_cutoff_minutes: 120,
      embed_origins: ['https://shop.example', 'http://localhost:8080'],
      country_iso: 'de',
      customer_retention_months: 24,
      contacts: { phone: '+49 30 1234567', email: ' hallo@salon.example ' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      data: {
        uuid: t.workspace.id,
        slug: t.workspace.slug,
        name: 'Salon Nord',
        currency: 'USD',
        locale: 'de-DE',
        booking_form: {
          customer_first_name: 'optional',
          customer_last_name: 'optional',
          customer_email: 'required',
          booking_comment: 'optional',
          booking_callback: 'hidden',
        },
        staffer_selection: 'automatic',
        slot_step_minutes: 30,
        min_notice_minutes: 120,
        horizon_days: 365,
        manage_cutoff_minutes: 120,
        embed_origins: ['https://shop.example', 'http://localhost:8080'],
        country_iso: 'DE',
        customer_retention_months: 24,
        contacts: { phone: '+49301234567', email: 'hallo@salon.example' },
        created_at: before.created_at,
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
      // Beside the envelope too, where clients of the real service read them.
      country_iso: 'DE',
      contacts: { phone: '+49301234567', email: 'hallo@salon.example' },
    });
    expect(Date.parse(body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(await getWorkspace()).toEqual(body.data);
  });

  it('never changes the slug; the same headers keep working', async () => {
    const response = await patch({ slug: 'renamed-slug', name: 'Renamed' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.slug).toBe(t.workspace.slug);
    const workspace = await getWorkspace();
    expect(workspace).toMatchObject({ slug: t.workspace.slug, name: 'Renamed' });
  });

  it('merges booking_form field by field across requests', async () => {
    await patch({ booking_form: { customer_first_name: 'required' } });
    await patch({ booking_form: { booking_comment: 'hidden' } });
    expect((await getWorkspace()).booking_form).toEqual({
      ...DEFAULT_FORM,
      customer_first_name: 'required',
      booking_comment: 'hidden',
    });
  });

  it('ignores unknown keys, also inside booking_form', async () => {
    const response = await patch({ booking_form: { customer_phone: 'hidden' }, colour: 'blue' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.booking_form).toEqual(DEFAULT_FORM);
  });

  it('answers an empty body with the workspace unchanged', async () => {
    const before = await getWorkspace();
    const response = await patch({});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: before,
      country_iso: before.country_iso,
      contacts: before.contacts,
    });
  });

  it('answers a request without a body with the workspace unchanged', async () => {
    const before = await getWorkspace();
    const response = await t.call('PATCH', '/workspace');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: before,
      country_iso: before.country_iso,
      contacts: before.contacts,
    });
  });

  it('refuses a body that is not an object', async () => {
    // A JSON body that is not an object is malformed, whatever the route (the body parser says so).
    const response = await patch(['name']);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('malformed_body');
  });

  it('stores the canonical form of a locale', async () => {
    expect((await patch({ locale: 'pt-br' })).json().data.locale).toBe('pt-BR');
  });

  const accepted: [string, number][] = [
    ['slot_step_minutes', 5],
    ['slot_step_minutes', 720],
    ['slot_step_minutes', 45],
    ['min_notice_minutes', 0],
    ['min_notice_minutes', 525600],
    ['horizon_days', 1],
    ['horizon_days', 730],
  ];
  for (const [field, value] of accepted) {
    it(`accepts ${field} ${value}`, async () => {
      const response = await patch({ [field]: value });
      expect(response.statusCode).toBe(200);
      expect(response.json().data[field]).toBe(value);
    });
  }

  it("leaves another workspace's settings alone", async () => {
    const theirs = await getWorkspace(other.headers);
    await patch({ name: 'Only mine', currency: 'GBP', booking_form: { customer_email: 'hidden' } });
    expect(await getWorkspace(other.headers)).toEqual(theirs);
  });
});

describe('PATCH /workspace validation', () => {
  const refused: [string, unknown][] = [
    ['name', ''],
    ['name', '   '],
    ['name', 'x'.repeat(201)],
    ['name', { first: 'x' }],
    ['currency', 'eur'],
    ['currency', 'EURO'],
    ['currency', 'ABC'],
    ['currency', 'E1R'],
    ['locale', 'en_US'],
    ['locale', 'xx'],
    ['locale', ''],
    ['locale', 'not a locale'],
    ['booking_form', 'required'],
    ['booking_form', ['hidden']],
    ['staffer_selection', 'sometimes'],
    ['slot_step_minutes', 4],
    ['slot_step_minutes', 721],
    ['slot_step_minutes', 7],
    ['slot_step_minutes', 25],
    ['slot_step_minutes', 12.5],
    ['slot_step_minutes', 'often'],
    ['min_notice_minutes', -1],
    ['min_notice_minutes', 525601],
    ['min_notice_minutes', 1.5],
    ['horizon_days', 0],
    ['horizon_days', 731],
    ['horizon_days', 'forever'],
    ['country_iso', 'XQ'],
    ['country_iso', 'DEU'],
    ['country_iso', 7],
    ['customer_retention_months', 0],
    ['customer_retention_months', 241],
    ['customer_retention_months', 1.5],
  ];
  it('turns customer retention off again with null', async () => {
    expect((await patch({ customer_retention_months: 6 })).json().data.customer_retention_months).toBe(6);
    const off = await patch({ customer_retention_months: null });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.customer_retention_months).toBeNull();
  });
  it('clears country and contacts with null, and names a bad contact field by its dotted key', async () => {
    expect((await patch({ country_iso: 'AT', contacts: { phone: '+4312345678' } })).statusCode).toBe(200);
    const cleared = await patch({ country_iso: null, contacts: { phone: null } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data).toMatchObject({ country_iso: null, contacts: { phone: null, email: null } });
    const bad = await patch({ contacts: { phone: '12', email: 'nope' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['contacts.email', 'contacts.phone']);
  });

  for (const [field, value] of refused) {
    it(`refuses ${field} ${JSON.stringify(value)} with 422 naming ${field}`, async () => {
      const before = await getWorkspace();
      const response = await patch({ [field]: value });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: 'The given data was invalid.',
        code: 'validation_failed',
      });
      expect(Object.keys(response.json().errors)).toEqual([field]);
      expect(await getWorkspace()).toEqual(before);
    });
  }

  for (const mode of ['mandatory', '', 'REQUIRED']) {
    it(`refuses booking_form mode "${mode}" naming booking_form.customer_email`, async () => {
      const response = await patch({ booking_form: { customer_email: mode, booking_comment: 'hidden' } });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['booking_form.customer_email']);
      expect((await getWorkspace()).booking_form).toEqual(DEFAULT_FORM);
    });
  }

  it('names every bad field at once, schema and rule errors alike', async () => {
    const response = await patch({
      name: 'Fine name',
      currency: 'usd',
      locale: 'zz_ZZ',
      booking_form: { customer_last_name: 'sometimes' },
      staffer_selection: 'never',
      slot_step_minutes: 7,
      min_notice_minutes: 'soon',
      horizon_days: 1000,
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual([
      'booking_form.customer_last_name',
      'currency',
      'horizon_days',
      'locale',
      'min_notice_minutes',
      'slot_step_minutes',
      'staffer_selection',
    ]);
    expect((await getWorkspace()).name).toBe('Test Studio');
  });

  it('says what a slot step must be', async () => {
    const response = await patch({ slot_step_minutes: 7 });
    expect(response.json().errors.slot_step_minutes[0]).toMatch(/1440/);
  });
});

describe('GET /workspace', () => {
  it('still answers the key’s workspace with its slug', async () => {
    const workspace = await getWorkspace();
    expect(Object.keys(workspace)).toEqual([
      'uuid',
      'slug',
      'name',
      'currency',
      'locale',
      'booking_form',
      'staffer_selection',
      'slot_step_minutes',
      'min_notice_minutes',
      'horizon_days',
      'manage_cutoff_minutes',
      'embed_origins',
      'country_iso',
      'customer_retention_months',
      'contacts',
      'created_at',
      'updated_at',
    ]);
    expect(workspace.slug).toBe(t.workspace.slug);
    // Not set yet: present, and null.
    expect(workspace.country_iso).toBeNull();
    expect(workspace.contacts).toEqual({ phone: null, email: null });
    expect(Object.keys(workspace.booking_form)).toEqual(Object.keys(DEFAULT_FORM));
  });
});
