const moneyFormats = new Map<string, { format: Intl.NumberFormat; divisor: number }>();

/**
 * Minor units as display money in the workspace locale: 9000 EUR -> "€90.00" (DESIGN §3 "Money").
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
