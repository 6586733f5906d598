/**
 * What the panel's customer search looks for in what a person typed: a phone number (however it
 * is written: "+49 151 1234-5678", "0151 12345678", "(030) 123 45") or words of a name or email.
 *
 * Phones are stored as E.164 (src/customers/phone.rules.ts), so a number typed with spaces, dashes
 * or brackets is reduced to its digits; leading zeros (a trunk prefix "0" or the "00" of an
 * international call) are dropped, so a national number still matches inside the E.164 one.
 */
export interface CustomerSearch {
  /** Matched inside the name and email, case-insensitively; undefined when a phone was typed. */
  text: string | undefined;
  /** Matched inside the E.164 phone; undefined when a name was typed. */
  digits: string | undefined;
}

const PHONE_LIKE = /^[\d\s()+\-./]+$/;
export const MAX_SEARCH_LENGTH = 100;

/** The search for `q`, or undefined for an empty one (then everyone is listed). */
export function customerSearchOf(q: string): CustomerSearch | undefined {
  const typed = q.trim().slice(0, MAX_SEARCH_LENGTH);
  if (typed === '') return undefined;
  if (PHONE_LIKE.test(typed)) {
    const digits = typed.replace(/\D/g, '').replace(/^0+/, '');
    // Three digits at least: "1" would match nearly everyone.
    if (digits.length >= 3) return { text: undefined, digits };
  }
  return { text: typed, digits: undefined };
}
