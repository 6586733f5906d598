/**
 * What erasing a customer removes from the JSON we keep about their bookings: outbox events,
 * webhook bodies, stored idempotent answers, email snapshots, history entries. Pure: the service
 * reads the documents, this decides, the repositories write back what changed.
 *
 * A document loses:
 * - the personal fields of any `customer` object (phone, names, email);
 * - every `customer_*` or `customerX...` text (the legacy webhook body, email snapshots) and their own
 *   free text (`booking_comment`, and `public_notes`, which repeats it);
 * - any other text that is exactly the customer's phone or email, wherever it sits.
 * Amounts, times, uuids, services and staff stay, so totals and reports still add up.
 */
export interface PersonalData {
  phone: string;
  email: string;
}

const CUSTOMER_FIELDS = ['phone', 'first_name', 'last_name', 'email'] as const;
const FREE_TEXT_KEYS = new Set(['booking_comment', 'public_notes', 'comment']);
/**
 * `customer_phone` (the legacy webhook body), `customerName` (email snapshots); free text also
 * under a dotted key (the legacy body's `booking_attributes.booking_comment`).
 */
const CUSTOMER_KEY = /^customer(_|[A-Z])/;

/** The document without the customer's personal data, and whether anything changed. */
export function scrubPersonal<T>(document: T, personal: PersonalData): { value: T; changed: boolean } {
  let changed = false;
  const matches = (text: string) =>
    text !== '' && (text === personal.phone || (personal.email !== '' && text === personal.email));
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') {
      const personalText =
        matches(value) ||
        (key !== undefined &&
          (CUSTOMER_KEY.test(key) || FREE_TEXT_KEYS.has(key.slice(key.lastIndexOf('.') + 1))));
      if (personalText && value !== '') {
        changed = true;
        return '';
      }
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(value)) {
        out[name] = name === 'customer' ? scrubCustomerObject(inner) : walk(inner, name);
      }
      return out;
    }
    return value;
  };
  const scrubCustomerObject = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return walk(value, 'customer');
    const out: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) {
      if ((CUSTOMER_FIELDS as readonly string[]).includes(name) && typeof inner === 'string') {
        if (inner !== '') changed = true;
        out[name] = '';
      } else {
        out[name] = walk(inner, name);
      }
    }
    return out;
  };
  const value = walk(document, undefined) as T;
  return { value, changed };
}

/**
 * A stored text body (a webhook delivery's exact bytes): JSON is scrubbed as a document and
 * written back compactly; anything else loses the phone and email wherever they occur.
 */
export function scrubText(text: string, personal: PersonalData): { value: string; changed: boolean } {
  try {
    const scrubbed = scrubPersonal(JSON.parse(text) as unknown, personal);
    return { value: scrubbed.changed ? JSON.stringify(scrubbed.value) : text, changed: scrubbed.changed };
  } catch {
    let value = text;
    for (const secret of [personal.phone, personal.email, encodeURIComponent(personal.phone)]) {
      if (secret !== '') value = value.split(secret).join('');
    }
    return { value, changed: value !== text };
  }
}

/**
 * The instant before which a customer's last booking must have started for the retention sweep
 * to erase them: `months` calendar months before `now` in UTC, the day kept where the month has
 * it (31 March less one month is 28 or 29 February).
 */
export function retentionCutoff(now: number, months: number): Date {
  const at = new Date(now);
  const day = at.getUTCDate();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  at.setUTCDate(Math.min(day, lastDay));
  return at;
}
