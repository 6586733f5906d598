import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A phone number as E.164 (`+4915112345678`), or undefined when it is not a valid number.
 * Customers are found by this form, so "+49 151 1234-5678" and "+4915112345678" are one customer.
 * A number with `+` or `00` is international. Without either it is national where the caller
 * knows the customer's country (`defaultCountry`: the booking page's location), else read as
 * international, as in every body the API reads.
 */
export function normalizePhone(input: string, defaultCountry?: CountryCode): string | undefined {
  const trimmed = input.trim();
  if (trimmed === '') return undefined;
  const parsed =
    defaultCountry !== undefined && !trimmed.startsWith('+') && !trimmed.startsWith('00')
      ? parsePhoneNumberFromString(trimmed, { defaultCountry })
      : parsePhoneNumberFromString(
          trimmed.startsWith('+')
            ? trimmed
            : trimmed.startsWith('00')
              ? `+${trimmed.slice(2)}`
              : `+${trimmed}`,
        );
  return parsed?.isValid() ? parsed.number : undefined;
}
