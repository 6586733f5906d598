const moneyFormats = new Map<string, { format: Intl.NumberFormat; divisor: number }>();

/**
 * Minor units as display money in the workspace locale: 9000 EUR -> "€90.00".
 * The divisor follows the currency's own fraction digits (JPY 0, EUR 2, KWD 3), which Intl knows.
 */
export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  const key = `${locale}|${currency}`;
  let entry = moneyFormats.get(key);
  if (entry === undefined) {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    entry = { format, divisor: 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2) };
    moneyFormats.set(key, entry);
  }
  return entry.format.format(amountMinor / entry.divisor);
}

const fractionDigits = new Map<string, number>();

/** How many decimals the currency's minor unit has (EUR 2, JPY 0, KWD 3), as Intl knows it. */
export function currencyDigits(currency: string): number {
  let digits = fractionDigits.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
    fractionDigits.set(currency, digits);
  }
  return digits;
}

/**
 * An amount a person typed ("90", "90.5", "90,50") in minor units of the currency (9050), or
 * undefined when it is no amount or has more decimals than the currency's minor unit.
 */
export function parseMoneyInput(text: string, currency: string): number | undefined {
  const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** Minor units as a form shows them for editing: 9050 EUR -> "90.50" (no symbol, no grouping). */
export function moneyInputValue(amountMinor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amountMinor / 10 ** digits).toFixed(digits);
}
