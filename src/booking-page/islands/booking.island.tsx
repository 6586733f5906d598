/**
 * The booking page's one script (optional: every step works without it). It
 * 1. detects the customer's time zone and carries it as ?tz= (a page listing times reloads once
 *    in that zone; other pages only rewrite their links and forms);
 * 2. switches days and weeks of the slot step without a full reload;
 * 2b. adds a search box to the time-zone select: a city or country name picks the first match;
 * 3. solves the ALTCHA proof-of-work of the confirm step (SHA-256, crypto.subtle);
 * 4. inside the embed iframe, tells the allow-listed parent its height and a finished booking
 *    (postMessage {kairos:1, type}, no personal data, only to the allow-listed origins).
 * Plain DOM, no framework: it must stay a few kB.
 */
import { matchesZone } from '../zone-search.js';

const body = document.body;
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const query = new URLSearchParams(location.search);

function carryZone(root: ParentNode): void {
  if (!zone || query.has('tz')) return;
  for (const a of root.querySelectorAll<HTMLAnchorElement>('a[href^="/book/"]')) {
    const url = new URL(a.href);
    if (!url.searchParams.has('tz')) {
      url.searchParams.set('tz', zone);
      a.setAttribute('href', url.pathname + url.search);
    }
  }
  for (const form of root.querySelectorAll('form')) {
    if (!form.querySelector('[name=tz]')) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = 'tz';
      input.value = zone;
      form.append(input);
    }
  }
}

if (zone && !query.has('tz') && body.dataset.times && zone !== body.dataset.zone) {
  query.set('tz', zone);
  location.replace(`${location.pathname}?${query}`);
} else {
  carryZone(document);
}

/**
 * The zone select's search: options that do not match are hidden and the first match is
 * selected, so typing "japan" and Enter (the form's own submit) shows times in Asia/Tokyo.
 */
function zoneSearch(root: ParentNode): void {
  const select = root.querySelector<HTMLSelectElement>('select[data-find]');
  if (!select) return;
  const row = document.createElement('div');
  const label = document.createElement('label');
  const search = document.createElement('input');
  search.type = 'search';
  search.id = 'tz-find';
  search.autocomplete = 'off';
  label.htmlFor = search.id;
  label.textContent = select.dataset.find!;
  row.className = 'find';
  row.append(label, search);
  // A row of its own above the select's: the search, then "Time zone [select] [Show]".
  (select.form?.querySelector('label[for=tz]') ?? select).before(row);
  search.addEventListener('input', () => {
    let first: HTMLOptionElement | undefined;
    for (const option of select.options) {
      option.hidden = !matchesZone(search.value, `${option.text} ${option.value}`);
      if (!option.hidden) first ??= option;
    }
    if (first) select.value = first.value;
  });
}
zoneSearch(document);

// Days and weeks: fetch the next state's page and swap <main>; the URL changes as with a click.
document.addEventListener('click', async (event) => {
  const link = (event.target as Element).closest?.<HTMLAnchorElement>('a[data-swap]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  const href = link.getAttribute('href')!;
  const response = await fetch(href);
  if (!response.ok) return location.assign(href);
  const next = mainOf(await response.text());
  const main = document.querySelector('main');
  if (!next || !main) return location.assign(href);
  main.replaceWith(next);
  zoneSearch(next);
  history.pushState(null, '', href);
  // Keyboard users stay where they were: on the same link in the new content, or on the control
  // of the same role (the month table's "next month" has a new href each month).
  const role = link.dataset.swap!;
  (
    next.querySelector<HTMLElement>(`a[href="${CSS.escape(href)}"]`) ??
    (role === '1' ? null : next.querySelector<HTMLElement>(`a[data-swap="${role}"]`)) ??
    next.querySelector('h2')
  )?.focus();
  sendSize();
});
addEventListener('popstate', () => location.reload());

/**
 * The <main> of a fetched page, parsed inside an inert <template>. Parsing the whole document
 * (DOMParser) would also parse its <style>, whose nonce is another response's: this page's CSP
 * refuses it and the console shows an error on every switch.
 */
function mainOf(html: string): HTMLElement | null {
  const start = html.indexOf('<main');
  const end = html.lastIndexOf('</main>');
  if (start < 0 || end < start) return null;
  const template = document.createElement('template');
  template.innerHTML = html.slice(start, end + 7);
  return template.content.querySelector('main');
}

// ALTCHA v1: find n with SHA-256(salt + n) = challenge; the server checks the signature.
const powForm = document.querySelector<HTMLFormElement>('form[data-altcha]');
if (powForm && crypto.subtle) {
  const field = powForm.querySelector<HTMLInputElement>('[name=altcha]')!;
  const solving = (async () => {
    const c = await (await fetch(powForm.dataset.altcha!)).json();
    const encoder = new TextEncoder();
    for (let n = 0; n <= c.maxnumber; n++) {
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(c.salt + n)));
      let hex = '';
      for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
      if (hex === c.challenge) {
        field.value = btoa(
          JSON.stringify({
            algorithm: c.algorithm,
            challenge: c.challenge,
            number: n,
            salt: c.salt,
            signature: c.signature,
          }),
        );
        return;
      }
    }
  })().catch(() => undefined);
  powForm.addEventListener('submit', async (event) => {
    if (field.value) return;
    event.preventDefault();
    powForm.querySelector('button')?.setAttribute('aria-busy', 'true');
    await solving;
    powForm.submit();
  });
}

// Embedded: only the allow-listed origins may receive our messages.
const origins = (body.dataset.origins ?? '').split(' ').filter(Boolean);
function post(type: string, extra: Record<string, number> = {}): void {
  if (parent === window) return;
  for (const origin of origins) parent.postMessage({ kairos: 1, type, ...extra }, origin);
}
function sendSize(): void {
  post('resize', { height: Math.ceil(document.documentElement.getBoundingClientRect().height) });
}
if (parent !== window && origins.length > 0) {
  post('ready');
  sendSize();
  new ResizeObserver(sendSize).observe(body);
  if (body.dataset.booked) post('booked');
}
