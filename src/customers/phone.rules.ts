import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A phone number as E.164 (`+4915112345678`), or undefined when it is not a valid number.
 * Customers are found by this form, so "+49 151 1234-5678" and "+4915112345678" are one customer.
 * A number without a leading `+` is read as international, in every body the API reads.
 */
export function normalizePhone(input: string): string | undefined {
  const trimmed = input.trim();
  if (trimmed === '') return undefined;
  const international = trimmed.startsWith('+')
    ? trimmed
    : trimmed.startsWith('00')
      ? `+${trimmed.slice(2)}`
      : `+${trimmed}`;
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isValid() ? parsed.number : undefined;
}
