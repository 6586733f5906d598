import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_LIMITS } from '../../src/app/widget/widget.plugin.js';
import { bundledIslands } from '../helpers/islands.js';
import { openPageStudio, type PageStudio } from './booking-page-kit.js';

/** Bad input of every kind, per-IP limits and HTML errors, page weight. */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
});
afterAll(async () => {
  await s?.t.close();
});

const KEYS = [
  'location',
  'service',
  'staffer',
  'from',
  'date',
  'at',
  'tz',
  'lang',
  'embed',
  'idempotency_key',
  'customer_phone',
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'booking_comment',
  'booking_callback',
  'booking_callback_shown',
  'website',
  'altcha',
  '__proto__',
  'constructor',
];

describe('bad input', () => {
  it('never answers a form post or a step URL with a 5xx or with JSON (fuzz)', async () => {
    const value = () =>
      fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.constantFrom(
          s.f.haircut.id,
          s.f.yoga.id,
          s.f.anna.id,
          s.f.location.id,
          'any',
          '2026-09-02T07:00:00Z',
          '2026-09-02',
          'Europe/Berlin',
          'Mars/Olympus',
          '+4915112345678',
          '1',
          'yes',
          '',
          '\u0000',
          '9'.repeat(5000),
        ),
      );
    const form = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 10 })), value(), {
      maxKeys: 12,
    });
    const target = fc.constantFrom('', '/confirm', '/book', '/altcha', '/manage/abc', '/manage/abc/cancel');
    const kind = fc.constantFrom('form', 'json', 'query', 'garbage');
    let ip = 0;
    await fc.assert(
      fc.asyncProperty(form, target, kind, async (fields, path, how) => {
        ip += 1;
        const remoteAddress = `10.9.${ip % 250}.${(ip >> 8) % 250}`;
        const url = `/book/${s.slug}${path}`;
        const response =
          how === 'query'
            ? await s.t.app.inject({
                method: 'GET',
                url: `${url}?${new URLSearchParams(fields)}`,
                remoteAddress,
              })
            : await s.t.app.inject({
                method: 'POST',
                url,
                remoteAddress,
                headers: {
                  'content-type':
                    how === 'json'
                      ? 'application/json'
                      : how === 'form'
                        ? 'application/x-www-form-urlencoded'
                        : 'application/x-www-form-urlencoded; charset=utf-8',
                },
                payload:
                  how === 'json'
                    ? JSON.stringify(fields)
                    : how === 'form'
                      ? new URLSearchParams(fields).toString()
                      : '%%%&&=%E0%A4%A',
              });
        expect(response.statusCode).toBeLessThan(500);
        if (response.statusCode === 303) {
          // An incomplete choice goes back to the step that asks for it.
          expect(String(response.headers.location)).toMatch(new RegExp(`^/book/${s.slug}[/?]?`));
        } else if (path !== '/altcha' || response.statusCode >= 400) {
          expect(response.headers['content-type']).toMatch(/^text\/html/);
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe('per-IP limits', () => {
  it('answers creates past the per-IP limit with an HTML 429 and Retry-After', async () => {
    const ip = '10.200.0.1';
    const statuses: number[] = [];
    for (let i = 0; i <= WIDGET_LIMITS.creates.max; i += 1) {
      const response = await s.post(`/book/${s.slug}/book`, { service: s.f.haircut.id }, ip);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.headers['retry-after']).toMatch(/^\d+$/);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.body).toContain('Too many requests');
      }
    }
    expect(statuses.slice(0, WIDGET_LIMITS.creates.max).every((code) => code !== 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('lets a browser without JavaScript book, under a tighter limit than with the proof-of-work', async () => {
    const ip = '10.201.0.1';
    const statuses: number[] = [];
    for (let i = 0; i <= WIDGET_LIMITS.createsWithoutProofOfWork.max; i += 1) {
      const day = `2026-10-0${i + 1}`;
      const response = await s.post(
        `/book/${s.slug}/book`,
        {
          service: s.f.color.id,
          staffer: s.f.ben.id,
          at: `${day}T07:00:00Z`,
          idempotency_key: `no-pow-key-${i}-${'y'.repeat(20)}`,
          customer_phone: '+4915100000099',
          altcha: '',
        },
        ip,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array(WIDGET_LIMITS.createsWithoutProofOfWork.max).fill(303), 429]);
  });

  it('refuses a made-up proof-of-work with a form error', async () => {
    const response = await s.post(`/book/${s.slug}/book`, {
      service: s.f.color.id,
      staffer: s.f.ben.id,
      at: '2026-10-08T07:00:00Z',
      customer_phone: '+4915100000098',
      altcha: Buffer.from(
        JSON.stringify({ algorithm: 'SHA-256', challenge: 'a', number: 1, salt: 'b', signature: 'c' }),
      ).toString('base64'),
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('anti-spam check failed');
  });
});

describe('weight', () => {
  it('keeps the first step under 15 kB as sent (compressed) and all JavaScript of the page under 10 kB gzipped', async () => {
    // The first step of a one-location studio is the service list; of a chain, the location list.
    for (const url of [
      `/book/${s.slug}`,
      `/book/${s.slug}?service=${s.f.haircut.id}&staffer=${s.f.anna.id}`,
    ]) {
      const page = await s.get(url);
      expect(page.statusCode).toBe(200);
      const scripts = [...page.body.matchAll(/<script[^>]*src="\/assets\/islands\/([\w-]+)\.js"/g)].map(
        (m) => m[1]!,
      );
      const inline = [...page.body.matchAll(/<script(?![^>]*src=)[^>]*>([\s\S]*?)<\/script>/g)].map(
        (m) => m[1]!,
      );
      const bundles = await bundledIslands(scripts);
      expect(Object.keys(bundles).sort()).toEqual([...scripts].sort());
      const js = scripts.map((name) => bundles[name]!).join('') + inline.join('');
      expect(gzipSync(js).length).toBeLessThanOrEqual(10 * 1024);
      // Nothing from another origin, no web fonts.
      expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(page.body).not.toMatch(/@font-face|@import/);
      if (url === `/book/${s.slug}`) {
        // Weighed as sent: the app compresses the page itself for a browser that accepts it.
        const sent = await s.get(url, { 'accept-encoding': 'gzip, deflate, br' });
        expect(sent.headers['content-encoding']).toBe('br');
        expect(sent.rawPayload.length).toBeLessThanOrEqual(15 * 1024);
      }
    }
    const { embed } = await bundledIslands(['embed']);
    expect(Buffer.byteLength(embed!)).toBeLessThanOrEqual(3 * 1024);
  });
});
