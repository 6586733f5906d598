import type { LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

/**
 * HTTP-level kit for the booking page (/book/<slug>): the real app through app.inject, a studio
 * in Berlin (bookingFixture), and helpers that read what a browser would: links, forms, fields.
 */
export const NOW = '2026-09-01T08:00:00Z';

export async function openPageStudio(clockIso = NOW, config?: Partial<Config>) {
  const clock = new FixedClock(clockIso);
  const t = await buildTestApp({ clock, ...(config ? { config } : {}) });
  const f = await bookingFixture(t);
  const slug = t.workspace.slug;
  let ip = 0;
  return {
    clock,
    t,
    f,
    slug,
    /** A GET as a browser (each call from its own IP unless one is given, so limits stay apart). */
    get(url: string, headers: Record<string, string> = {}, remoteAddress = `10.0.${++ip % 250}.${ip % 200}`) {
      return t.app.inject({ method: 'GET', url, headers, remoteAddress });
    },
    post(url: string, form: Record<string, string>, remoteAddress = `10.1.${++ip % 250}.${ip % 200}`) {
      return t.app.inject({
        method: 'POST',
        url,
        payload: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress,
      });
    },
  };
}

export type PageStudio = Awaited<ReturnType<typeof openPageStudio>>;

/** The hidden and filled fields of the first form posting to `action` (ends with), as a browser sends them. */
export function formFields(html: string, action: string): Record<string, string> {
  // Posting: the header's language form is a GET to the page's own path, which may end alike.
  const forms = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find(
    (m) => /^<form[^>]*method="post"/.test(m[0]) && decode(m[1]!).split('?')[0]!.endsWith(action),
  );
  if (!form) throw new Error(`no form posting to ${action}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    if ((type === 'radio' || type === 'checkbox') && !/\schecked/.test(attrs)) continue;
    fields[name] = decode(/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
  }
  return fields;
}

/** Every href on the page, decoded. */
export function links(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => decode(m[1]!));
}

/** The href of the link whose aria-label or text contains `text`. */
export function linkTo(html: string, text: string): string {
  for (const m of html.matchAll(/<a([^>]*)>([\s\S]*?)<\/a>/g)) {
    const label = /aria-label="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
    if (decode(label).includes(text) || decode(m[2]!.replace(/<[^>]+>/g, '')).includes(text)) {
      return decode(/href="([^"]*)"/.exec(m[1]!)![1]!);
    }
  }
  throw new Error(`no link with "${text}"`);
}

export function decode(text: string): string {
  return text
    .replaceAll('&amp;', '&')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');
}

export function location(response: LightMyRequestResponse): string {
  return String(response.headers.location);
}

export type { TestApp };
