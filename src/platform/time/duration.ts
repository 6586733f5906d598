/** A duration as the API answers it: 90 -> {value: 90, label: 'minutes', iso_8601: 'PT1H30M'}. */
export function presentDuration(minutes: number) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const iso = `PT${hours > 0 ? `${hours}H` : ''}${rest > 0 || hours === 0 ? `${rest}M` : ''}`;
  return { value: minutes, label: 'minutes' as const, iso_8601: iso };
}
