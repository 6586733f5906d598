import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFields, linkTo, location, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * The booking page's consent to text messages: shown while the workspace sends texts, required or
 * optional as it set, carried through the confirm step and stored with the booking (the text
 * worker sends nothing to a customer who declined).
 */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
});
afterAll(async () => {
  await s?.t.close();
});

const setTexts = (settings: Record<string, unknown>) =>
  s.t.db
    .updateTable('workspaces')
    .set({ text_settings: JSON.stringify(settings) })
    .where('id', '=', s.t.workspace.id)
    .execute();

async function details(day: string, time: string) {
  const service = await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&lang=en`);
  const slots = await s.get(linkTo(service.body, 'Anna'));
  const dayPage = await s.get(linkTo(slots.body, day));
  return s.get(linkTo(dayPage.body, `${time}, ${day}`));
}

async function consentOf(bookedLocation: string) {
  const token = /manage\/([A-Za-z0-9_-]{44})/.exec(bookedLocation)![1];
  const rows = await s.t.db
    .selectFrom('bookings')
    .select(['id', 'text_consent', 'source'])
    .where('workspace_id', '=', s.t.workspace.id)
    .where('source', '=', 'online-booking')
    .orderBy('created_at', 'desc')
    .execute();
  expect(token).toBeDefined();
  return rows[0]!.text_consent;
}

const CONSENT = 'Send me text messages about this booking';

describe('consent to text messages on the booking page', () => {
  it('is not asked while the workspace sends no texts', async () => {
    await setTexts({ enabled: false });
    const page = await details('Wednesday, September 2, 2026', '9:00 AM');
    expect(page.body).not.toContain(CONSENT);
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(page.body, '/confirm'),
      customer_phone: '+4915123450001',
    });
    const booked = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(booked.statusCode).toBe(303);
    expect(await consentOf(location(booked))).toBeNull();
  });

  it('required: no booking without the box ticked; ticked, the consent is stored', async () => {
    await setTexts({ enabled: true, consent: 'required' });
    const page = await details('Wednesday, September 2, 2026', '10:00 AM');
    expect(page.body).toContain(CONSENT);
    expect(page.body).toMatch(/name="text_consent"[^>]*required/);
    const fields = formFields(page.body, '/confirm');
    const refused = await s.post(`/book/${s.slug}/confirm`, { ...fields, customer_phone: '+4915123450002' });
    expect(refused.body).toContain('id="text_consent-error"');
    expect(refused.body).not.toContain('action="/book/' + s.slug + '/book"');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...fields,
      customer_phone: '+4915123450002',
      text_consent_shown: '1',
      text_consent: 'yes',
    });
    const carried = formFields(confirm.body, '/book');
    expect(carried).toMatchObject({ text_consent_shown: '1', text_consent: 'yes' });
    const booked = await s.post(`/book/${s.slug}/book`, carried);
    expect(booked.statusCode).toBe(303);
    expect(await consentOf(location(booked))).toBe(true);
  });

  it('optional: left unticked, the booking is made and the refusal stored', async () => {
    await setTexts({ enabled: true, consent: 'optional' });
    const page = await details('Wednesday, September 2, 2026', '11:00 AM');
    expect(page.body).toContain(`${CONSENT}`);
    expect(page.body).toContain('(optional)');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(page.body, '/confirm'),
      customer_phone: '+4915123450003',
      text_consent_shown: '1',
    });
    const booked = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(booked.statusCode).toBe(303);
    expect(await consentOf(location(booked))).toBe(false);
  });
});
